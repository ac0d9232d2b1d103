import express, { type Request, type RequestHandler, type Router } from 'express';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authOf } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { Conflict, Unauthenticated } from '@ledgerline/kit/errors.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import {
  mfaWebauthnOptionsSchema, mfaWebauthnVerifySchema, passkeyLoginVerifySchema, passkeyOptionsSchema, passkeyRegisterSchema, type PasskeyRegisterResponse,
} from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { challengeToken, type LoginService } from '../auth/login.service.ts';
import { KEYCLOAK_FACTORS, type MfaService } from '../mfa/mfa.service.ts';
import { callerSubjectOf, challengeOrTokenOf, signInContext, signInPaths } from '../mfa/mfa.router.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { PasskeyService } from './passkey.service.ts';

/**
 * Passkeys (README "Sign-in security", docs/using/sign-in-security.md): registering and
 * removing them while signed in, the second step of a sign-in with one, and a sign-in with
 * a discoverable passkey alone (on a firm's page, /login and /admin/login). Each browser call comes in two parts: `options` (what to
 * pass to navigator.credentials) and the browser's answer. The built-in issuer's only.
 */
export function createPasskeysRouter(deps: {
  api: ApiRegistry; db: Database; mfa: MfaService; passkeys: PasskeyService; logins: LoginService; companies: CompanyStore; authenticated: RequestHandler[];
}): Router {
  const { api, mfa, passkeys, logins } = deps;
  const router = express.Router();
  const before = deps.authenticated;
  const callerSubject = callerSubjectOf(logins, deps.companies);
  const challengeOrToken = challengeOrTokenOf(before);

  for (const { prefix, platformOnly, who, pathTenant, challengeSubject } of signInPaths(logins)) {
    // A Keycloak firm's user sets up the realm's factor (an authenticator app) at sign-in, never a portal passkey.
    const setupSubject = async (req: Request, challenge: string) => {
      const subject = await challengeSubject(req, challenge);
      if (subject.company && !logins.ownsFactors) throw new Conflict(KEYCLOAK_FACTORS);
      return subject;
    };

    api.route(router, {
      method: 'get', path: `${prefix}/passkeys`, before, summary: `Passkeys of ${who}: name, added, last used`,
    }, async ({ res }) => {
      const s = await callerSubject(res, platformOnly);
      return passkeys.store.list(s.db, s.userId);
    });

    api.route(router, {
      method: 'post', path: `${prefix}/passkeys/options`, before: [challengeOrToken], body: passkeyOptionsSchema,
      summary: 'Starts adding a passkey (signed in, or with a login\'s setup challenge) → the options for navigator.credentials.create() (the challenge lives 5 minutes, once)',
    }, async ({ req, res, body }) => {
      if (!body.challenge) return passkeys.registrationOptions(await callerSubject(res, platformOnly), authOf(res).claims.fullName);
      const subject = await setupSubject(req, body.challenge);
      const live = await mfa.withChallenge(subject, challengeToken(body.challenge), 'setup', async () => ({ ok: true, value: undefined }));
      if (!live.ok) throw new Unauthenticated(live.message);
      return passkeys.registrationOptions(subject, subject.username);
    });

    api.route(router, {
      method: 'post', path: `${prefix}/passkeys`, before: [challengeOrToken], body: passkeyRegisterSchema, status: 201,
      summary: 'Adds the passkey the browser created for those options, with a name → { id, name, createdAt, lastUsedAt }; with a setup challenge also signs in (token, user, tenant)',
    }, async ({ req, res, body }): Promise<PasskeyRegisterResponse> => {
      const ctx = signInContext(req);
      const response = body.response as RegistrationResponseJSON;
      if (!body.challenge) {
        const subject = await callerSubject(res, platformOnly);
        return subject.db.transaction((tx) => passkeys.register(tx, subject, body.name, response, ctx));
      }
      const subject = await setupSubject(req, body.challenge);
      const token = challengeToken(body.challenge);
      const added = await mfa.withChallenge(subject, token, 'setup', async (tx) => ({ ok: true, value: await passkeys.register(tx, subject, body.name, response, ctx) }));
      if (!added.ok) throw new Unauthenticated(added.message);
      await mfa.challenges.delete(subject.db, token);
      return { ...added.value, ...(await logins.completeSetup(subject, added.challenge.throttleKey, ctx, 'webauthn')) };
    });

    api.route(router, {
      method: 'delete', path: `${prefix}/passkeys/:id`, before, summary: `Removes one of ${who}'s passkeys`,
    }, async ({ req, res, params }) => {
      await passkeys.remove(await callerSubject(res, platformOnly), parsePathId(params.id), signInContext(req));
      return { message: 'Passkey removed.' };
    });

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/webauthn/options`, public: true, body: mfaWebauthnOptionsSchema,
      summary: 'Second step of a sign-in with a passkey: the options for navigator.credentials.get() for the login\'s challenge',
    }, async ({ req, body }) => {
      const subject = await logins.subjectOfChallenge(body.challenge, pathTenant(req), platformOnly);
      const live = await mfa.withChallenge(subject, challengeToken(body.challenge), 'verify', async (tx) => ({ ok: true, value: await passkeys.secondFactorOptions(tx, subject) }));
      if (!live.ok) throw new Unauthenticated(live.message);
      return live.value;
    });

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/webauthn/verify`, public: true, body: mfaWebauthnVerifySchema,
      summary: 'Completes the second step with the passkey\'s answer → { token, user, tenant }; 401 when it is not accepted (counts like a wrong code)',
    }, ({ req, body }) => logins.verify(pathTenant(req), platformOnly, body.challenge, 'webauthn',
      async (tx, s) => (await passkeys.checkAssertion(tx, body.response as AuthenticationResponseJSON, 'second-factor', s.userId)) !== null, signInContext(req)));
  }

  /**
   * A sign-in without a password: on a firm's path (`/api/{tenant}/auth`) with that firm's
   * passkeys; on /api/auth (the generic /login) and /api/admin/auth with the platform's
   * ceremony, the passkey naming its owner (see LoginService.passkeyLoginWithoutFirm).
   */
  for (const { prefix, platformOnly, pathTenant } of signInPaths(logins)) {
    const firmOf = (req: Request): string | null => {
      const tenant = pathTenant(req);
      if (tenant && !logins.ownsFactors) throw new Conflict(KEYCLOAK_FACTORS);
      return tenant;
    };
    const whose = platformOnly ? 'the platform administrator\'s passkeys' : 'the firm\'s passkeys on /api/{tenant}/auth; on /api/auth any passkey: a platform administrator\'s, or a firm user\'s whose firm it names';

    api.route(router, {
      method: 'post', path: `${prefix}/passkey-login/options`, public: true,
      summary: `Sign-in with a passkey alone: the options for navigator.credentials.get() (no credential named; the person verified at the device). Answered by ${whose}`,
    }, async ({ req }) => {
      const tenant = firmOf(req);
      return passkeys.signInOptions(tenant ? await logins.firmDb(tenant) : deps.db.forSchema(PLATFORM_SCHEMA));
    });

    api.route(router, {
      method: 'post', path: `${prefix}/passkey-login/verify`, public: true, body: passkeyLoginVerifySchema,
      summary: 'Completes a sign-in with a passkey alone → { token, user, tenant }: the passkey is both factors. 401 when it is not accepted',
    }, ({ req, body }) => {
      const tenant = firmOf(req);
      const response = body.response as AuthenticationResponseJSON;
      return tenant ? logins.passkeyLogin(tenant, response, signInContext(req)) : logins.passkeyLoginWithoutFirm(response, platformOnly, signInContext(req));
    });
  }

  return router;
}
