import express, { type RequestHandler, type Response, type Router } from 'express';
import { hasRole, roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import {
  CLIENT_PEOPLE_IMPORT_PATH, clientPeopleImportSchema,
  type ClientPeopleImport as PeopleImportInput, type ClientPeopleImportResult, type ImportedContact, type ImportError,
} from '@ledgerline/contracts/client-import.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { storedUserOf } from '../auth/authenticate-caller.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import { userEvent } from './user.service.ts';
import type { UserStore } from './user.store.ts';

type Row = PeopleImportInput['rows'][number];

export const IMPORT_PEOPLE_DENIED = 'Access denied. Only Admin and DTA users can import clients.';
const contactField = (c: ImportedContact) => `contact${c.slot}Email`;

/**
 * The people side of the client import (issue 40), called by the directory on this
 * service's port: a row's contacts become Client users of its client (their username and
 * e-mail the address they gave), and the staff it names get the client on their access
 * lists and its report types. Each row commits alone; a row with a problem writes nothing.
 *
 * Contacts get no password and no provider account here: a Client user signs in with a
 * code e-mailed to that address, and the provider account is made when a password is
 * first set (invitations). That also keeps 10,000 contacts clear of 10,000 password hashes.
 */
export class ClientPeopleImport {
  readonly #users: UserStore;

  constructor(users: UserStore) {
    this.#users = users;
  }

  async run(t: TenantRequest, input: PeopleImportInput): Promise<ClientPeopleImportResult> {
    const errors: ImportError[] = [];
    const clientRole = await roleIdNamed(t.db, ROLES.client);
    // An address on two rows of one file would make one person the user of two clients.
    const seen = new Map<string, number>();
    let contactsCreated = 0;
    for (const row of input.rows) {
      const problems = await this.#check(t.db, row, seen);
      if (problems.length) {
        errors.push(...problems);
        continue;
      }
      if (input.dryRun || row.clientId === null) {
        contactsCreated += await this.#newContacts(t.db, row);
        continue;
      }
      try {
        contactsCreated += await t.db.transaction((tx) => this.#write(tx, t, row, clientRole));
      } catch (err) {
        // Another request took an address or name in between: the row is reported, not half made.
        errors.push({ row: row.row, field: 'contacts', message: err instanceof Error ? err.message : 'The contacts could not be saved.' });
      }
    }
    // Seam for invitations (issue 40, made in another change): contacts of rows with `invite`
    // are to be sent an invitation here once identity can create and invite users without a password.
    return { errors, contactsCreated };
  }

  async #check(db: Queryable, row: Row, seen: Map<string, number>): Promise<ImportError[]> {
    const problems: ImportError[] = [];
    for (const contact of row.contacts) {
      const earlier = seen.get(contact.email);
      if (earlier !== undefined && earlier !== row.row) {
        problems.push({ row: row.row, field: contactField(contact), message: `The same e-mail address is a contact on row ${earlier}` });
        continue;
      }
      seen.set(contact.email, row.row);
      const existing = await this.#users.findByEmail(db, contact.email) ?? await this.#users.findByUsername(db, contact.email);
      if (existing && !(row.clientId !== null && isClientUserOf(existing, row.clientId))) {
        problems.push({ row: row.row, field: contactField(contact), message: 'Another user of this firm has this email address' });
      }
    }
    for (const name of row.staff) {
      const user = await this.#staffNamed(db, name);
      if (!user) problems.push({ row: row.row, field: 'staff', message: `No user of this firm has the username or e-mail ${name}` });
      else if (roleIs(user.roleName, ROLES.client)) problems.push({ row: row.row, field: 'staff', message: `${name} is a Client user, not staff` });
    }
    return problems;
  }

  /** How many of the row's contacts are not users yet. */
  async #newContacts(db: Queryable, row: Row): Promise<number> {
    let count = 0;
    for (const c of row.contacts) if (!(await this.#users.findByEmail(db, c.email))) count += 1;
    return count;
  }

  async #write(tx: Queryable, t: TenantRequest, row: Row, clientRole: number): Promise<number> {
    const clientId = row.clientId!;
    const changed: User[] = [];
    let created = 0;
    for (const c of row.contacts) {
      const fullName = `${c.firstName} ${c.lastName}`.trim() || c.email;
      const existing = await this.#users.findByEmail(tx, c.email);
      if (existing) {
        if (existing.fullName !== fullName) {
          changed.push((await this.#users.update(tx, t.company.schemaName, existing.id, {
            username: existing.username, fullName, roleId: existing.roleId, clientIds: existing.clientIds, reportTypeIds: existing.reportTypeIds, email: existing.email,
          })).after);
        }
        continue;
      }
      changed.push(await this.#users.create(tx, t.company.schemaName, {
        username: await freeUsername(tx, c.email, t.company.shortName), fullName, roleId: clientRole, clientIds: [clientId], reportTypeIds: null, email: c.email,
      }));
      created += 1;
    }
    for (const name of row.staff) {
      const user = (await this.#staffNamed(tx, name))!;
      const isAllClientsRole = roleIs(user.roleName, ROLES.admin, ROLES.dta);
      let after = user;
      if (!isAllClientsRole && !(user.clientIds ?? []).includes(clientId)) {
        after = (await this.#users.update(tx, t.company.schemaName, user.id, {
          username: user.username, fullName: user.fullName, roleId: user.roleId, clientIds: [...(user.clientIds ?? []), clientId],
          reportTypeIds: user.reportTypeIds, email: user.email,
        })).after;
      }
      if (!isAllClientsRole && row.reportTypeIds.length) after = (await this.#users.grantReportTypes(tx, user.id, row.reportTypeIds)).after;
      if (after !== user) changed.push(after);
    }
    if (changed.length) await enqueueEvents(tx, changed.map((u) => userEvent(t.company.shortName, u)));
    return created;
  }

  async #staffNamed(db: Queryable, name: string): Promise<User | null> {
    return (await this.#users.findByUsername(db, name)) ?? (name.includes('@') ? this.#users.findByEmail(db, name) : null);
  }
}

const isClientUserOf = (u: User, clientId: number) => roleIs(u.roleName, ROLES.client) && u.clientIds?.[0] === clientId;

/**
 * Usernames are unique across the platform (the generic sign-in finds a firm by them): a
 * contact's address already a username elsewhere gets the firm's short name after it. A
 * Client user signs in with a code sent to the address, which stays theirs unchanged.
 */
async function freeUsername(tx: Queryable, email: string, shortName: string): Promise<string> {
  for (const candidate of [email, `${email}.${shortName}`, ...[2, 3, 4, 5].map((n) => `${email}.${shortName}${n}`)]) {
    const { rows } = await tx.query(
      'SELECT 1 FROM portal.user_logins WHERE username = $1 UNION ALL SELECT 1 FROM portal.platform_admins WHERE username = $1', [candidate]);
    if (!rows.length) return candidate;
  }
  return `${email}.${shortName}.${Date.now().toString(36)}`;
}

async function roleIdNamed(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM roles WHERE lower(name) = lower($1) ORDER BY id LIMIT 1', [name]);
  if (!rows[0]) throw new Forbidden('The firm has no Client role.');
  return rows[0].id;
}

/** POST CLIENT_PEOPLE_IMPORT_PATH on the service port: Admin and DTA (the importing user's own token). */
export function createClientPeopleImportRouter(deps: { people: ClientPeopleImport; authenticated: RequestHandler[]; tenantOf: (res: Response) => Promise<TenantRequest> }): Router {
  const router = express.Router();
  router.post(CLIENT_PEOPLE_IMPORT_PATH, ...deps.authenticated, async (req, res) => {
    const t = await deps.tenantOf(res);
    const caller = storedUserOf(res);
    const allowed = t.claims.platformAdmin || (caller ? roleIs(caller.roleName, ROLES.admin, ROLES.dta) : hasRole(t.claims, ROLES.admin, ROLES.dta));
    if (!allowed) throw new Forbidden(IMPORT_PEOPLE_DENIED);
    res.json(await deps.people.run(t, parseInput(clientPeopleImportSchema, req.body)));
  });
  return router;
}
