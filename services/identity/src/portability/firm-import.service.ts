import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { quoteIdent, tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { Conflict, Invalid, NotFound, Unavailable } from '@ledgerline/kit/errors.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { compareVersions, FIRM_ARCHIVE_FORMAT, MANIFEST_ENTRY, PRODUCT_VERSION, type FirmManifest } from '@ledgerline/kit/portability/firm-manifest.ts';
import { INTERNAL_PORTABILITY_PATH } from '@ledgerline/kit/portability/portability.router.ts';
import type { OwnedIds } from '@ledgerline/kit/portability/portability.ts';
import { readTar, TarWriter, TRUNCATED_ARCHIVE } from '@ledgerline/kit/portability/tar-archive.ts';
import { SIGNATURE_ENTRY, type ArchiveOrigin, type ArchiveSigningKey } from '@ledgerline/kit/portability/archive-signature.ts';
import { streamRequest } from '@ledgerline/kit/http/stream-request.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import type { Company, FirmImport } from '@ledgerline/contracts/identity.contracts.ts';
import { SCHEMA_NAME_TAKEN, SHORT_NAME_TAKEN, type CompanyStore } from '../tenants/company.store.ts';
import type { TenantService } from '../tenants/tenant.service.ts';
import { provisionImportedSignIn, USERS_WITHOUT_PASSWORD, type ImportedSignInDeps } from './imported-firm-sign-in.ts';
import { migrateTenantEverywhere } from '../tenants/tenant-schema-fanout.ts';

export const IMPORT_NOT_FOUND = 'Import not found';
export const NOT_AN_ARCHIVE = 'This is not a Ledgerline firm archive.';
export const CHECKSUM_MISMATCH = (name: string) => `The archive is damaged: ${name} does not match its checksum.`;
export const REPEATED_ENTRY = (name: string) => `The archive is damaged or was changed: it holds ${name} more than once.`;
export const UNLISTED_ENTRY = (name: string) => `The archive is damaged or was changed: it holds ${name}, which its manifest does not list.`;
export const MISSING_ENTRY = (name: string) => `The archive is incomplete: its manifest lists ${name}, which it does not hold.`;
/** Why the platform admin must confirm before an archive not signed by this (or a trusted) installation is imported. */
export const CONFIRM_ORIGIN = (origin: ArchiveOrigin) => (origin.signer === 'unsigned'
  ? 'This archive is not signed: nothing shows which installation made it or that it is unchanged since. Import it only if you know where it came from; confirm to import it.'
  : `This archive was signed by an installation this one does not know (key ${origin.keyId}). Import it only if you know where it came from; confirm to import it.`);
export const UNKNOWN_REFERENCE = (table: string, row: string, what: string) =>
  `The archive's ${table} table, ${row}, names ${what}, which the archive does not contain.`;
export const NEWER_ARCHIVE = (version: string) => `The archive comes from a newer version of Ledgerline (${version}) than this one (${PRODUCT_VERSION}); upgrade first.`;

/** A service's part, streamed to it as a tar while the archive is read; `imported` settles when the service has restored it. */
interface ImportPart { service: string; tar: TarWriter; body: PassThrough; imported: Promise<void> }

interface ImportRow {
  id: string;
  signer: ArchiveOrigin['signer'] | null;
  signer_key_id: string | null;
  status: FirmImport['status'];
  progress: number;
  message: string | null;
  company_id: number | null;
  short_name: string;
  created_at: Date | string;
}

/**
 * Firm imports. The archive is stored to a temp file and checked whole (every entry
 * against the manifest's checksum, the versions against this installation's) before a
 * job starts; the job brings a new schema to the archive's versions, hands each service
 * its part, runs the newer migrations, gives the identity provider the firm's users, and
 * only then registers the firm. A failure discards what the services made (and a realm
 * made for it) and drops the schema: nothing half-made remains.
 */
export class FirmImportService {
  readonly #db: Database;
  readonly #companies: CompanyStore;
  readonly #tenants: TenantService;
  readonly #signIn: ImportedSignInDeps;
  readonly #peers: () => ServicePeer[];
  readonly #systemToken: () => Promise<string>;
  readonly #logger: Logger;
  readonly #signingKey: ArchiveSigningKey;

  constructor(deps: {
    db: Database; companies: CompanyStore; tenants: TenantService; peers: () => ServicePeer[]; systemToken: () => Promise<string>; logger: Logger;
    signingKey: ArchiveSigningKey;
  } & ImportedSignInDeps) {
    this.#signingKey = deps.signingKey;
    this.#db = deps.db;
    this.#companies = deps.companies;
    this.#tenants = deps.tenants;
    this.#signIn = { provider: deps.provider, openTotp: deps.openTotp };
    this.#peers = deps.peers;
    this.#systemToken = deps.systemToken;
    this.#logger = deps.logger;
  }

  async failInterrupted(): Promise<void> {
    await this.#db.query("UPDATE portal.firm_imports SET status = 'failed', message = 'Interrupted by a restart; import the archive again.' WHERE status = 'running'");
  }

  async get(id: string): Promise<FirmImport> {
    const { rows } = await this.#db.query<ImportRow>('SELECT * FROM portal.firm_imports WHERE id::text = $1', [id]);
    const row = rows[0];
    if (!row) throw new NotFound(IMPORT_NOT_FOUND);
    const company = row.company_id ? await this.#companies.get(row.company_id).catch(() => null) : null;
    return {
      id: row.id, status: row.status, progress: row.progress, message: row.message, shortName: row.short_name, company,
      origin: { signer: row.signer ?? 'unsigned', keyId: row.signer_key_id }, createdAt: new Date(row.created_at).toISOString(),
    };
  }

  /** A temp folder for an upload; the caller removes it when the import ends either way. */
  async tempDir(): Promise<string> {
    return mkdtemp(join(tmpdir(), 'ledgerline-import-'));
  }

  /**
   * Checks the stored archive and the names, then starts the job; refusals create nothing.
   * An archive this installation (or one it trusts) did not sign imports only when the
   * platform admin confirms it: without `confirm`, a 409 says what the archive is.
   */
  async start(archive: string, input: { name: string; shortName: string; confirm: boolean }, cleanup: () => Promise<void>): Promise<FirmImport> {
    const schemaName = tenantSchema(input.shortName);
    if (await this.#companies.findByShortName(input.shortName)) throw new Conflict(SHORT_NAME_TAKEN);
    if (await this.#companies.findBySchema(schemaName) || await this.#schemaExists(schemaName)) throw new Conflict(SCHEMA_NAME_TAKEN);
    const { manifest, origin } = await verifyArchive(archive, this.#signingKey);
    if ((origin.signer === 'unsigned' || origin.signer === 'unknown-installation') && !input.confirm) {
      throw new Conflict(CONFIRM_ORIGIN(origin), { origin });
    }
    await this.#assertKnownVersions(manifest);
    const id = randomUUID();
    await this.#db.query("INSERT INTO portal.firm_imports (id, status, progress, short_name, signer, signer_key_id) VALUES ($1, 'running', 0, $2, $3, $4)",
      [id, input.shortName, origin.signer, origin.keyId]);
    void this.#run(id, archive, manifest, { ...input, schemaName })
      .catch(async (err: unknown) => {
        this.#logger.error({ err, importId: id }, 'firm import failed');
        await this.#discard(schemaName).catch((e: unknown) => this.#logger.error({ err: e }, 'failed import not cleaned up'));
        await this.#db.query("UPDATE portal.firm_imports SET status = 'failed', message = $2 WHERE id = $1", [id, (err as Error).message]);
      })
      .finally(() => cleanup());
    return this.get(id);
  }

  async #run(id: string, archive: string, manifest: FirmManifest, input: { name: string; shortName: string; schemaName: string }): Promise<void> {
    const token = await this.#systemToken();
    const only = Object.fromEntries(Object.values(manifest.services).flatMap((s) => Object.entries(s.migrations)));
    await migrateTenantEverywhere(this.#db, this.#peers(), input.schemaName, token, only);
    const total = (await stat(archive)).size;
    let read = 0;
    const source = createReadStream(archive);
    source.on('data', (chunk) => { read += chunk.length; });
    let current: ImportPart | null = null;
    const finishPart = async () => {
      if (!current) return;
      await current.tar.finish();
      current.body.end();
      await current.imported;
      await this.#db.query('UPDATE portal.firm_imports SET progress = $2 WHERE id = $1', [id, Math.min(95, Math.floor((read / total) * 95))]);
      current = null;
    };
    for await (const entry of readTar(source)) {
      if (entry.name === MANIFEST_ENTRY || entry.name === SIGNATURE_ENTRY) { await drain(entry.body); continue; }
      const slash = entry.name.indexOf('/');
      const service = entry.name.slice(0, slash);
      if (current?.service !== service) {
        await finishPart();
        current = this.#openPart(service, input.schemaName, manifest.firm.schemaName, token);
      }
      await current!.tar.add(entry.name.slice(slash + 1), entry.size, entry.body);
    }
    await finishPart();
    await this.#checkReferences(input.schemaName, token);
    await migrateTenantEverywhere(this.#db, this.#peers(), input.schemaName, token);
    const signIn = await provisionImportedSignIn(this.#signIn, input.shortName, this.#db.forSchema(input.schemaName));
    let company: Company;
    try {
      company = await this.#tenants.register({
        name: input.name, shortName: input.shortName, schemaName: input.schemaName,
        urlPattern: 'path', customDomain: null, customSubdomain: null, isActive: true,
      });
    } catch (err) {
      if (signIn.created) await this.#signIn.provider.discardTenant(input.shortName);
      throw err;
    }
    await this.#db.query("UPDATE portal.firm_imports SET status = 'ready', progress = 100, company_id = $2, message = $3 WHERE id = $1",
      [id, company.id, signIn.withoutPassword ? USERS_WITHOUT_PASSWORD(signIn.withoutPassword) : null]);
  }

  #openPart(service: string, schemaName: string, sourceSchema: string, token: string): ImportPart {
    const peer = this.#peers().find((p) => p.service === service);
    if (!peer) throw new Invalid(`The archive holds data of a service this installation does not run: ${service}.`);
    const body = new PassThrough();
    const query = `schemaName=${encodeURIComponent(schemaName)}&sourceSchema=${encodeURIComponent(sourceSchema)}`;
    const imported = streamRequest(`${peer.url}${INTERNAL_PORTABILITY_PATH}/import?${query}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-tar' }, body,
    }).then((reply) => {
      if (!reply.ok) throw new Invalid(`The ${service} service could not import its part: ${(reply.body as { message?: string } | null)?.message ?? reply.status}`);
    }, () => { throw new Unavailable(`The ${service} service is unavailable; import the archive again shortly.`); });
    // A service that answers early (a refusal) stops reading: the writer fails with its reason instead of waiting.
    imported.catch((err: Error) => body.destroy(err));
    return { service, tar: new TarWriter(body), body, imported };
  }

  /**
   * Access lists may name only clients and report types the archive holds: one naming
   * another would hand its user a record the firm makes later under that id.
   */
  async #checkReferences(schemaName: string, token: string): Promise<void> {
    const known: OwnedIds = {};
    for (const peer of this.#peers()) {
      const reply = await fetch(`${peer.url}${INTERNAL_PORTABILITY_PATH}/ids?schemaName=${encodeURIComponent(schemaName)}`, { headers: { authorization: `Bearer ${token}` } })
        .catch(() => { throw new Unavailable(`The ${peer.service} service is unavailable; import the archive again shortly.`); });
      if (!reply.ok) throw new Unavailable(`The ${peer.service} service could not list what it imported: ${reply.status}`);
      Object.assign(known, await reply.json());
    }
    const db = this.#db.forSchema(schemaName);
    const { rows: clients } = await db.query<{ user_id: number; client_id: number }>(
      'SELECT user_id, client_id FROM user_client_access WHERE NOT (client_id = ANY($1::int[])) ORDER BY id LIMIT 1', [known.clients ?? []]);
    if (clients[0]) throw new Invalid(UNKNOWN_REFERENCE('user_client_access', `the row of user ${clients[0].user_id}`, `client ${clients[0].client_id}`));
    const { rows: types } = await db.query<{ id: number; report_type_id: number }>(
      'SELECT u.id, t AS report_type_id FROM users u, unnest(u.report_type_ids) t WHERE NOT (t = ANY($1::int[])) ORDER BY u.id LIMIT 1', [known.reportTypes ?? []]);
    if (types[0]) throw new Invalid(UNKNOWN_REFERENCE('users', `user ${types[0].id}`, `report type ${types[0].report_type_id}`));
  }

  async #discard(schemaName: string): Promise<void> {
    const token = await this.#systemToken();
    for (const peer of this.#peers()) {
      await fetch(`${peer.url}${INTERNAL_PORTABILITY_PATH}/discard?schemaName=${encodeURIComponent(schemaName)}`, {
        method: 'POST', headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
    // The schema was made for this import and no firm points at it yet.
    await this.#db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schemaName)} CASCADE`);
  }

  async #schemaExists(schemaName: string): Promise<boolean> {
    const { rows } = await this.#db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = $1', [schemaName]);
    return rows[0]!.n > 0;
  }

  /** Every migration the archive was at must be one this installation knows. */
  async #assertKnownVersions(manifest: FirmManifest): Promise<void> {
    if (compareVersions(manifest.productVersion, PRODUCT_VERSION) > 0) throw new Invalid(NEWER_ARCHIVE(manifest.productVersion));
    const token = await this.#systemToken();
    const known: Record<string, string[]> = {};
    for (const peer of this.#peers()) {
      const response = await fetch(`${peer.url}${INTERNAL_PORTABILITY_PATH}/migrations`, { headers: { authorization: `Bearer ${token}` } })
        .catch(() => { throw new Unavailable(`The ${peer.service} service is unavailable; import the archive again shortly.`); });
      Object.assign(known, await response.json());
    }
    for (const part of Object.values(manifest.services)) {
      for (const [set, ids] of Object.entries(part.migrations)) {
        if (ids.some((m) => !known[set]?.includes(m))) throw new Invalid(NEWER_ARCHIVE(manifest.productVersion));
      }
    }
  }
}

/**
 * Reads the archive once: every entry exactly once and listed in the manifest, every listed
 * entry present with its size and SHA-256, and the manifest's signature (the entry after it).
 * A repeated entry is refused even when each copy matches its checksum: the import would
 * restore every copy (a second users table, say).
 */
export async function verifyArchive(file: string, signingKey: ArchiveSigningKey): Promise<{ manifest: FirmManifest; origin: ArchiveOrigin }> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestBytes: Buffer | null = null;
  let signature: Buffer | null = null;
  for await (const entry of readTar(createReadStream(file))) {
    // After the manifest only its signature may follow, once.
    if (signature || (manifestBytes && entry.name !== SIGNATURE_ENTRY)) throw new Invalid(NOT_AN_ARCHIVE);
    if (entry.name === MANIFEST_ENTRY || entry.name === SIGNATURE_ENTRY) {
      const parts: Buffer[] = [];
      for await (const chunk of entry.body) parts.push(chunk as Buffer);
      if (entry.name === MANIFEST_ENTRY) manifestBytes = Buffer.concat(parts);
      else if (!manifestBytes) throw new Invalid(NOT_AN_ARCHIVE);
      else signature = Buffer.concat(parts);
      continue;
    }
    if (seen.has(entry.name)) throw new Invalid(REPEATED_ENTRY(entry.name));
    const hash = createHash('sha256');
    for await (const chunk of entry.body) hash.update(chunk as Buffer);
    seen.set(entry.name, { size: entry.size, sha256: hash.digest('hex') });
  }
  if (!manifestBytes) throw new Invalid(TRUNCATED_ARCHIVE);
  let manifest: FirmManifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as FirmManifest;
  } catch {
    throw new Invalid(NOT_AN_ARCHIVE);
  }
  if (manifest?.format !== FIRM_ARCHIVE_FORMAT || !manifest.files || !manifest.services) throw new Invalid(NOT_AN_ARCHIVE);
  const origin = signingKey.origin(manifestBytes, signature);
  for (const name of seen.keys()) if (!Object.hasOwn(manifest.files, name)) throw new Invalid(UNLISTED_ENTRY(name));
  for (const [name, listed] of Object.entries(manifest.files)) {
    const actual = seen.get(name);
    if (!actual) throw new Invalid(MISSING_ENTRY(name));
    if (actual.sha256 !== listed.sha256 || actual.size !== listed.size) throw new Invalid(CHECKSUM_MISMATCH(name));
  }
  return { manifest, origin };
}

async function drain(body: Readable): Promise<void> {
  for await (const _ of body) { /* the manifest was read in the check */ }
}
