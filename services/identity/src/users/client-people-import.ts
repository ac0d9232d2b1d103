import express, { type RequestHandler, type Response, type Router } from 'express';
import { hasRole, roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { inSavepoint } from '@ledgerline/kit/db/savepoint.ts';
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
import type { InvitationService } from './invitation.service.ts';
import { userEvent, usersEvent } from './user.service.ts';
import { claimFreeUsername, type UserStore } from './user.store.ts';

type Row = PeopleImportInput['rows'][number];

export const IMPORT_PEOPLE_DENIED = 'Access denied. Only Admin and DTA users can import clients.';
const contactField = (c: ImportedContact) => `contact${c.slot}Email`;

/**
 * The people side of the client import (issue 40), called by the directory on this
 * service's port: a row's contacts become Client users of its client (their username and
 * e-mail the address they gave), and the staff it names get the client on their access
 * lists and its report types. Rows commit together, each in a savepoint: a row with a problem writes nothing.
 *
 * Contacts get no password and no provider account here: a Client user signs in with a
 * code e-mailed to that address, or, on a row marked `invite`, is e-mailed an invitation to
 * set a password; the provider account is made when a password is first set. That also keeps 10,000 contacts clear of 10,000 password hashes.
 */
export class ClientPeopleImport {
  readonly #users: UserStore;
  readonly #invitations: Pick<InvitationService, 'sendIn'>;

  constructor(users: UserStore, invitations: Pick<InvitationService, 'sendIn'>) {
    this.#users = users;
    this.#invitations = invitations;
  }

  async run(t: TenantRequest, input: PeopleImportInput): Promise<ClientPeopleImportResult> {
    const errors: ImportError[] = [];
    const invited: { row: number; user: User }[] = [];
    const clientRole = await roleIdNamed(t.db, ROLES.client);
    // Everyone the request names, found at once: contacts by address, staff by username or address.
    const named = [...new Set(input.rows.flatMap((r) => [...r.contacts.map((c) => c.email), ...r.staff.map((s) => s.toLowerCase()), ...r.staff]))];
    const known = new Map<string, User>();
    for (const u of await this.#users.findByEmailsOrUsernames(t.db, named)) {
      known.set(u.username, u);
      if (u.email) known.set(u.email.toLowerCase(), u);
    }
    const staffNamed = (name: string) => known.get(name) ?? (name.includes('@') ? known.get(name.toLowerCase()) : undefined);
    // An address on two rows of one file would make one person the user of two clients.
    const seen = new Map<string, number>();
    const newContactsByRow: [number, number][] = [];
    const assignments = new Map<number, { user: User; clientIds: number[]; reportTypeIds: Set<number> }>();
    let contactsCreated = 0;
    // The request's rows are written in one transaction, each row in a savepoint of its own:
    // a row is still all or nothing, and the import waits for the database once per request.
    const writing = (work: (tx: Queryable | null) => Promise<void>) => (input.dryRun ? work(null) : t.db.transaction(work));
    await writing(async (tx) => {
      const changedUsers: User[] = [];
      for (const row of input.rows) {
        const problems = this.#check(row, seen, known, staffNamed);
        if (problems.length) {
          errors.push(...problems);
          continue;
        }
        const fresh = row.contacts.filter((c) => !known.has(c.email));
        if (!tx || row.clientId === null) {
          newContactsByRow.push([row.row, fresh.length]);
          continue;
        }
        try {
          const { created: made, changed } = await inSavepoint(tx, (sp) => this.#writeContacts(sp, t, row, clientRole, known));
          changedUsers.push(...changed);
          contactsCreated += made.length;
          if (row.invite) invited.push(...made);
        } catch (err) {
          // Another request took an address in between: the row is reported, not half made.
          errors.push({ row: row.row, field: 'contacts', message: err instanceof Error ? err.message : 'The contacts could not be saved.' });
          continue;
        }
        for (const name of row.staff) {
          const user = staffNamed(name)!;
          if (roleIs(user.roleName, ROLES.admin, ROLES.dta)) continue; // they see every client already
          const a = assignments.get(user.id) ?? { user, clientIds: [], reportTypeIds: new Set<number>() };
          a.clientIds.push(row.clientId);
          for (const r of row.reportTypeIds) a.reportTypeIds.add(r);
          assignments.set(user.id, a);
        }
      }
      // The written rows' users announced in one event, committed with them: every other
      // service takes the request's users in with one write instead of one per user.
      if (tx) await enqueueEvents(tx, usersEvent(t.company.shortName, changedUsers));
    });
    // Staff get the request's clients in one change each (one event each, not one per row).
    for (const a of assignments.values()) {
      await t.db.transaction(async (tx) => {
        await this.#users.appendClients(tx, a.user.id, a.clientIds);
        if (a.reportTypeIds.size) await this.#users.grantReportTypes(tx, a.user.id, [...a.reportTypeIds]);
        await enqueueEvents(tx, [userEvent(t.company.shortName, await this.#users.get(tx, a.user.id))]);
      });
    }
    // Contacts of rows marked `invite` are e-mailed an invitation once their row is in; one that
    // cannot be sent (no address) is reported on its row, and the row's client and contacts stay.
    if (invited.length) {
      await t.db.transaction(async (tx) => {
        for (const { row, user } of invited) {
          try {
            await inSavepoint(tx, (sp) => this.#invitations.sendIn(sp, t, user.id));
          } catch (err) {
            errors.push({ row, field: 'invite', message: err instanceof Error ? err.message : 'The invitation could not be sent.' });
          }
        }
      });
    }
    return { errors, contactsCreated, newContactsByRow };
  }

  #check(row: Row, seen: Map<string, number>, known: Map<string, User>, staffNamed: (name: string) => User | undefined): ImportError[] {
    const problems: ImportError[] = [];
    for (const contact of row.contacts) {
      const earlier = seen.get(contact.email);
      if (earlier !== undefined && earlier !== row.row) {
        problems.push({ row: row.row, field: contactField(contact), message: `The same e-mail address is a contact on row ${earlier}` });
        continue;
      }
      seen.set(contact.email, row.row);
      const existing = known.get(contact.email);
      if (existing && !(row.clientId !== null && isClientUserOf(existing, row.clientId))) {
        problems.push({ row: row.row, field: contactField(contact), message: 'Another user of this firm has this email address' });
      }
    }
    for (const name of row.staff) {
      const user = staffNamed(name);
      if (!user) problems.push({ row: row.row, field: 'staff', message: `No user of this firm has the username or e-mail ${name}` });
      else if (roleIs(user.roleName, ROLES.client)) problems.push({ row: row.row, field: 'staff', message: `${name} is a Client user, not staff` });
    }
    return problems;
  }

  /** The row's contacts: new ones made Client users of its client, known ones renamed if the sheet says so (the caller announces `changed`). */
  async #writeContacts(tx: Queryable, t: TenantRequest, row: Row, clientRole: number, known: Map<string, User>): Promise<{ created: { row: number; user: User }[]; changed: User[] }> {
    const clientId = row.clientId!;
    const changed: User[] = [];
    const created: { row: number; user: User }[] = [];
    for (const c of row.contacts) {
      const fullName = `${c.firstName} ${c.lastName}`.trim() || c.email;
      // Looked up with the request's other names; one made since fails its insert (unique address).
      const existing = known.get(c.email);
      if (existing) {
        if (existing.fullName !== fullName) {
          changed.push((await this.#users.update(tx, t.company.schemaName, existing.id, {
            username: existing.username, fullName, roleId: existing.roleId, clientIds: existing.clientIds, reportTypeIds: existing.reportTypeIds, email: existing.email,
          })).after);
        }
        continue;
      }
      // A Client user signs in with a code sent to the address, which stays theirs whatever the username.
      const shortName = t.company.shortName;
      const username = await claimFreeUsername(tx, [c.email, `${c.email}.${shortName}`, ...[2, 3, 4].map((n) => `${c.email}.${shortName}${n}`)], t.company.schemaName);
      if (!username) throw new Error(`No username is free for ${c.email}`);
      const user = await this.#users.createClientContact(tx, { username, fullName, roleId: clientRole, roleName: ROLES.client, clientId, email: c.email });
      changed.push(user);
      created.push({ row: row.row, user });
    }
    return { created, changed };
  }
}

const isClientUserOf = (u: User, clientId: number) => roleIs(u.roleName, ROLES.client) && u.clientIds?.[0] === clientId;

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
