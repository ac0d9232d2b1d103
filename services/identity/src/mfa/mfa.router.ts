import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authOf } from '@ledgerline/kit/http/authenticate.ts';
import { clientAddress } from '@ledgerline/kit/http/client-address.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { csvDocument } from '@ledgerline/kit/csv-cell.ts';
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import {
  EMAIL_CODE_SENT, emailCodeRequestSchema, emailCodeVerifySchema, mfaCheckSchema, mfaCodeSchema, mfaEmailSchema, mfaVerifySchema, securityEventsQuerySchema, securitySettingsSchema, totpConfirmSchema, totpSetupSchema,
  type MfaCheckResponse, type SecurityEvent, type TotpConfirmResponse,
} from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { requireTenantAdmin } from '../access-rules.ts';
import { challengeToken, REALM_AUTHENTICATOR_CHECK, type LoginService } from '../auth/login.service.ts';
import { storedUserOf } from '../auth/authenticate-caller.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';
import { KEYCLOAK_FACTORS, WRONG_CODE, type MfaService } from './mfa.service.ts';
import type { MfaSubject, SignInContext } from './mfa-subject.ts';
import type { EmailSignInService } from './email-sign-in.service.ts';
import type { SessionService } from '../sessions/session.service.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import { applyPolicyToProvider } from './realm-policy.ts';

export const ADMIN_PATH = '/api/admin/auth';

export const signInContext = (req: Request): SignInContext => ({ address: clientAddress(req), browser: req.header('user-agent') ?? null });

/** Runs middleware in order, as express would, ending in `done`. */
function runChain(handlers: RequestHandler[], req: Request, res: Response, done: (err?: unknown) => void): void {
  const at = (i: number) => (err?: unknown): void => {
    if (err) return done(err);
    if (i === handlers.length) return done();
    Promise.resolve(handlers[i]!(req, res, at(i + 1))).catch(done);
  };
  at(0)();
}

/** Enrolment during a sign-in (authenticator app, passkey) carries the setup challenge instead of a token. */
export const challengeOrTokenOf = (authenticated: RequestHandler[]): RequestHandler => (req, res, next) => {
  if (typeof (req.body as { challenge?: unknown } | undefined)?.challenge === 'string') return next();
  runChain(authenticated, req, res, next);
};

/**
 * The signed-in caller as a subject: a platform administrator, or the firm user as stored
 * now. Second factors (`forFactors`) of a Keycloak firm's users are the realm's.
 */
export const callerSubjectOf = (logins: LoginService, companies: CompanyStore) => async (res: Response, platformOnly: boolean, forFactors = true): Promise<MfaSubject> => {
  const { claims } = authOf(res);
  if (claims.platformAdmin) {
    const subject = await logins.platformSubjectById(Number(claims.sub));
    if (!subject) throw new Unauthenticated();
    return subject;
  }
  if (platformOnly) throw new Forbidden('Only platform administrators can use this.');
  if (forFactors && !logins.ownsFactors) throw new Conflict(KEYCLOAK_FACTORS);
  const company = claims.tenant ? await companies.findByShortName(claims.tenant) : null;
  const user = storedUserOf(res);
  const subject = company && user ? await logins.tenantSubjectById(company, user.id) : null;
  if (!subject) throw new Unauthenticated();
  return subject;
};

/**
 * The two paths every sign-in route exists on: the firm's (`/api/auth`, reached as
 * `/api/{tenant}/auth` too) and the platform administrator's (`/api/admin/auth`), each with who
 * it serves, the firm its path names, and the subject of a login challenge on that path.
 */
export function signInPaths(logins: LoginService) {
  return ['/api/auth', ADMIN_PATH].map((prefix) => {
    const platformOnly = prefix === ADMIN_PATH;
    const pathTenant = (req: Request) => (platformOnly ? null : req.header(TENANT_HEADER) ?? null);
    return {
      prefix, platformOnly, pathTenant,
      who: platformOnly ? 'the platform administrator' : 'the signed-in user',
      challengeSubject: (req: Request, challenge: string) => logins.subjectOfChallenge(challenge, pathTenant(req), platformOnly),
    };
  });
}

/**
 * Second factors (README "Sign-in security"): the second step of a login, enrolment and
 * the firm's policy. Every sign-in route exists on the firm's path (`/api/{tenant}/auth`,
 * `/api/auth`) and on the platform administrator's (`/api/admin/auth`).
 */
export function createMfaRouter(deps: {
  api: ApiRegistry; db: Database; mfa: MfaService; logins: LoginService; emailSignIn: EmailSignInService; sessions: SessionService; companies: CompanyStore; users: UserStore;
  provider: IdentityProvider; authenticated: RequestHandler[]; tenantOf: (res: Response) => Promise<TenantRequest>;
}): Router {
  const { api, mfa, logins, companies, users, provider, tenantOf } = deps;
  const router = express.Router();
  const before = deps.authenticated;
  const challengeOrToken = challengeOrTokenOf(before);

  const callerSubject = callerSubjectOf(logins, companies);

  for (const { prefix, platformOnly, who, pathTenant, challengeSubject } of signInPaths(logins)) {

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/verify`, public: true, body: mfaVerifySchema,
      summary: 'Second step of a sign-in: a code for the login\'s challenge → { token, user, tenant }. 401 for a wrong code; a challenge lives 5 minutes and 5 wrong codes',
    }, ({ req, body }) => logins.verifyCode(pathTenant(req), platformOnly, body.challenge, body.method, body.code, signInContext(req)));

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/email`, public: true, body: mfaEmailSchema, status: 202,
      summary: 'E-mails a code for the login\'s challenge, where the firm allows e-mailed codes for this user (then verify with method "email")',
    }, async ({ req, body }) => {
      await deps.emailSignIn.sendForChallenge(pathTenant(req), platformOnly, body.challenge, signInContext(req));
      return { message: 'A code is on its way to your e-mail address.' };
    });

    api.route(router, {
      method: 'get', path: `${prefix}/mfa`, before,
      summary: `Second factors of ${who}: authenticator, recovery codes left, passkeys, whether the firm requires one; a Keycloak firm's users get the realm's account console (accountConsoleUrl)`,
    }, async ({ res }) => {
      const subject = await callerSubject(res, platformOnly, false);
      if (subject.company && !logins.ownsFactors) {
        // The realm keeps them: the user is sent to its account console.
        return { totp: false, recoveryCodesLeft: 0, passkeys: 0, required: false, managedByKeycloak: true, accountConsoleUrl: logins.accountConsoleUrl(subject.company.shortName)! };
      }
      return mfa.status(subject);
    });

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/totp/setup`, before: [challengeOrToken], body: totpSetupSchema,
      summary: `Starts setting up an authenticator app for ${who} (or with a login's setup challenge) → { secret, otpauthUrl }`,
    }, async ({ req, res, body }) => {
      const subject = body.challenge ? await challengeSubject(req, body.challenge) : await callerSubject(res, platformOnly);
      if (body.challenge) {
        const live = await mfa.withChallenge(subject, challengeToken(body.challenge), 'setup', async () => ({ ok: true, value: undefined }));
        if (!live.ok) throw new Unauthenticated(live.message);
      }
      return mfa.setupTotp(subject);
    });

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/totp/confirm`, before: [challengeOrToken], body: totpConfirmSchema,
      summary: 'Confirms the authenticator with a code from it → { recoveryCodes } (10, shown once); with a setup challenge also signs in (a Keycloak firm\'s user: the authenticator goes to the realm, no recovery codes)',
    }, async ({ req, res, body }): Promise<TotpConfirmResponse> => {
      const ctx = signInContext(req);
      if (!body.challenge) {
        const subject = await callerSubject(res, platformOnly);
        const codes = await subject.db.transaction((tx) => mfa.confirmTotp(tx, subject, body.code, ctx));
        if (!codes) throw new Invalid(WRONG_CODE);
        return { recoveryCodes: codes };
      }
      const subject = await challengeSubject(req, body.challenge);
      if (subject.company && !logins.ownsFactors) return logins.confirmRealmAuthenticator(subject, body.challenge, body.code, ctx);
      const token = challengeToken(body.challenge);
      const confirmed = await mfa.withChallenge(subject, token, 'setup', async (tx) => {
        const codes = await mfa.confirmTotp(tx, subject, body.code, ctx);
        return codes ? { ok: true, value: codes } : { ok: false, message: WRONG_CODE };
      });
      if (!confirmed.ok) throw new Unauthenticated(confirmed.message);
      await mfa.challenges.delete(subject.db, token);
      return { recoveryCodes: confirmed.value, ...(await logins.completeSetup(subject, confirmed.challenge.throttleKey, ctx, 'totp')) };
    });

    api.route(router, {
      method: 'delete', path: `${prefix}/mfa/totp`, before, body: mfaCodeSchema,
      summary: 'Removes the authenticator (and its recovery codes); needs a current authenticator or recovery code',
    }, async ({ req, res, body }) => {
      await mfa.removeTotp(await callerSubject(res, platformOnly), body.code, signInContext(req));
      return { message: 'Authenticator removed.' };
    });

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/check`, before, body: mfaCheckSchema,
      summary: `A fresh authenticator code of ${who} (e.g. at the moment of signing) → { method: "totp" }; 400 for a wrong or already used code (throttled like sign-in codes), 409 where a Keycloak realm keeps the authenticator`,
    }, async ({ req, res, body }): Promise<MfaCheckResponse> => {
      const subject = await callerSubject(res, platformOnly, false);
      // The realm's authenticator answers only inside the realm's own sign-in.
      if (subject.company && !logins.ownsFactors) throw new Conflict(REALM_AUTHENTICATOR_CHECK);
      await logins.checkFreshTotp(subject, body.code, signInContext(req));
      return { method: 'totp' };
    });

    api.route(router, {
      method: 'post', path: `${prefix}/mfa/recovery-codes`, before, body: mfaCodeSchema,
      summary: 'Replaces the recovery codes with 10 new ones (shown once); needs a current authenticator or recovery code',
    }, async ({ req, res, body }) => ({ recoveryCodes: await mfa.regenerateRecoveryCodes(await callerSubject(res, platformOnly), body.code, signInContext(req)) }));

    api.route(router, {
      method: 'get', path: `${prefix}/sessions`, before,
      summary: `Sign-in sessions of ${who}: device, address, started, last seen, which is this one (built-in issuer; a Keycloak firm's are the realm's)`,
    }, async ({ res }) => deps.sessions.list(await callerSubject(res, platformOnly, false), authOf(res).claims.sessionId ?? authOf(res).claims.realmSessionId));

    api.route(router, {
      method: 'delete', path: `${prefix}/sessions/:sessionId`, before, pathParams: { sessionId: { type: 'string', format: 'uuid' } },
      summary: 'Ends one of the caller\'s sessions: its token is refused everywhere within about a second, its sockets are closed',
    }, async ({ req, res, params }) => {
      if (!/^[0-9a-f-]{36}$/.test(params.sessionId ?? '')) throw new NotFound('Session not found');
      await deps.sessions.revoke(await callerSubject(res, platformOnly, false), params.sessionId!, signInContext(req));
      return { message: 'Signed out of that session.' };
    });

    api.route(router, {
      method: 'post', path: `${prefix}/sessions/revoke-all`, before,
      summary: 'Signs the caller out everywhere, this session included',
    }, async ({ req, res }) => {
      const ended = await deps.sessions.revoke(await callerSubject(res, platformOnly, false), 'all', signInContext(req));
      return { revoked: ended.length };
    });

    api.route(router, {
      method: 'get', path: `${prefix}/sign-ins`, before,
      summary: `Recent sign-ins and failed attempts of ${who} (newest first, at most 50)`,
    }, async ({ res }) => {
      const { claims } = authOf(res);
      if (platformOnly && !claims.platformAdmin) throw new Forbidden('Only platform administrators can use this.');
      // Keycloak firms record their sign-ins through the product's form too, so this needs no subject.
      const eventsDb = claims.platformAdmin ? deps.db.forSchema(PLATFORM_SCHEMA) : (await tenantOf(res)).db;
      const events = await mfa.events.list(eventsDb, { userId: Number(claims.sub), limit: 200 });
      return events.filter((e) => e.kind === 'sign-in' || e.kind === 'sign-in-failed').slice(0, 50);
    });
  }

  api.route(router, {
    method: 'post', path: '/api/auth/email-code', public: true, body: emailCodeRequestSchema, status: 202,
    summary: 'Client users: e-mails a 6-digit sign-in code and a one-click link (10 minutes, once). Answers 202 the same for any address',
  }, async ({ req, body }) => {
    await deps.emailSignIn.request(req.header(TENANT_HEADER) ?? null, body.email, signInContext(req));
    return { message: EMAIL_CODE_SENT };
  });

  api.route(router, {
    method: 'post', path: '/api/auth/email-code/verify', public: true, body: emailCodeVerifySchema,
    summary: 'Signs a Client user in with the e-mailed code (email + code) or the link\'s token; a second factor the firm requires still applies',
  }, ({ req, body }) => deps.emailSignIn.verify(req.header(TENANT_HEADER) ?? null, body, signInContext(req)));

  api.route(router, { method: 'get', path: '/api/security-settings', before, summary: 'The firm\'s sign-in policy (Admin)' }, async ({ res }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    return mfa.settings.get(t.db);
  });

  api.route(router, {
    method: 'put', path: '/api/security-settings', before, body: securitySettingsSchema,
    summary: 'Changes the firm\'s sign-in policy (Admin): sessions of users it now asks for a second factor that began without one end at once (but the caller\'s); a Keycloak firm\'s realm asks the users it covers who have no authenticator to set one up (required action)',
  }, async ({ req, res, body }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const actorId = Number(t.claims.sub);
    const ctx = signInContext(req);
    const { saved, ended } = await t.db.transaction(async (tx) => {
      const saved = await mfa.putSettings(tx, body, { id: actorId, username: t.claims.username, platformAdmin: t.claims.platformAdmin === true }, ctx);
      // In the same transaction: a realm that cannot take it leaves the policy as it was.
      await applyPolicyToProvider({ provider, mfa, users }, t.company, tx);
      // Sessions begun without the factor the policy now asks for end now, not when their token
      // expires. (A Keycloak firm's sessions are the realm's: it asks at their next sign-in.)
      const roles = new Map((await users.list(tx)).map((u) => [u.id, u.roleName] as const));
      const ended = await deps.sessions.endBelowPolicy(tx, t.company.shortName, saved, roles, t.claims.platformAdmin ? undefined : authOf(res).claims.sessionId, ctx, actorId);
      return { saved, ended };
    });
    deps.sessions.disconnect(ended);
    return saved;
  });

  api.route(router, {
    method: 'get', path: '/api/security-settings/factors', before,
    summary: 'Each user\'s second factors (Admin); a Keycloak firm\'s: whether the realm holds an authenticator of theirs',
  }, async ({ res }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const [all, enrolled, inRealm] = await Promise.all([users.list(t.db), mfa.factors.enrolled(t.db), provider.usersWithAuthenticator(t.company.shortName)]);
    const none = { totp: false, recoveryCodesLeft: 0, passkeys: 0 };
    return all.map((u) => ({ userId: u.id, username: u.username, fullName: u.fullName, role: u.roleName, ...(inRealm ? { ...none, totp: inRealm.has(u.id) } : enrolled.get(u.id) ?? none) }));
  });

  api.route(router, {
    method: 'delete', path: '/api/users/:id/mfa', before,
    summary: 'Removes every second factor of a user (a Keycloak firm\'s: in the realm) and ends their sessions; they set one up again at next sign-in where required (Admin)',
  }, async ({ req, res, params }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const target = await users.find(t.db, parsePathId(params.id));
    if (!target) throw new NotFound('User not found');
    // Resetting oneself would also end the session making the call: Security is the place for one's own.
    if (!t.claims.platformAdmin && t.claims.sub === String(target.id)) throw new Conflict('Change your own second factors in Account Settings → Security.');
    const subject = (await logins.tenantSubjectById(t.company, target.id))!;
    await t.db.transaction(async (tx) => {
      await mfa.reset(tx, { userId: target.id, username: target.username }, Number(t.claims.sub), signInContext(req));
      // Whoever holds the lost device is signed out too.
      await deps.sessions.revoke(subject, 'all', signInContext(req), Number(t.claims.sub), tx);
      await provider.resetSecondFactors(t.company.shortName, { id: target.id, username: target.username, required: await mfa.required(subject, tx) });
    });
    return { message: 'Second factors reset; the user\'s sessions ended.' };
  });

  api.route(router, {
    method: 'get', path: '/api/security-events', before, query: securityEventsQuerySchema,
    summary: 'The firm\'s security events, newest first (Admin): filters userId, kind, from/to (YYYY-MM-DD, UTC); format=csv for a download',
  }, async ({ res, query }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const events = await mfa.events.list(t.db, query);
    if (query.format !== 'csv') return events;
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="security-events-${t.company.shortName}.csv"`);
    res.send(securityEventsCsv(events));
    return undefined;
  });

  return router;
}

const CSV_COLUMNS: (keyof SecurityEvent)[] = ['at', 'kind', 'userId', 'username', 'method', 'address', 'browser', 'actorId'];

/** The security events as CSV, through the product's one CSV cell function. */
export function securityEventsCsv(events: SecurityEvent[]): string {
  return csvDocument(CSV_COLUMNS, events.map((e) => CSV_COLUMNS.map((c) => e[c])));
}
