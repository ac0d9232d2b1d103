import { builtInRoleNamed, sameRoleName } from '@ledgerline/kit/auth/roles.ts';
import type { Queryable, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { isUniqueViolation } from '@ledgerline/kit/db/sql-errors.ts';
import { Conflict, NotFound } from '@ledgerline/kit/errors.ts';
import type { Role } from '@ledgerline/contracts/identity.contracts.ts';

/** Present in every new tenant (migration 001 inserts them). */
export const DEFAULT_ROLES = ['Admin', 'DTA', 'CPA', 'Client'] as const;
/**
 * The server's own rules name these two (Admin may administer, Client sees only its own
 * client), so they cannot be renamed or deleted; DTA, CPA and custom roles can.
 */
const PROTECTED_ROLES = new Set(['admin', 'client']);

export const ROLE_NOT_FOUND = 'Role not found';
const COLUMNS = 'id, name, reveal_tax_ids AS "revealTaxIds"';
const ROLE_TAKEN = 'A role with this name already exists';

export class RoleStore {
  async list(db: SchemaDb): Promise<Role[]> {
    const { rows } = await db.query<Role>(`SELECT ${COLUMNS} FROM roles ORDER BY id`);
    return rows;
  }

  async get(db: Queryable, id: number): Promise<Role> {
    const { rows } = await db.query<Role>(`SELECT ${COLUMNS} FROM roles WHERE id = $1`, [id]);
    if (!rows[0]) throw new NotFound(ROLE_NOT_FOUND);
    return rows[0];
  }

  async create(db: Queryable, name: string, revealTaxIds = false): Promise<Role> {
    await assertNameFree(db, name, null);
    const { rows } = await uniqueRole(db.query<Role>(`INSERT INTO roles (name, reveal_tax_ids) VALUES ($1, $2) RETURNING ${COLUMNS}`, [name, revealTaxIds]));
    return rows[0]!;
  }

  /** Renames the role and, when given, sets its permission to reveal tax IDs. */
  async update(db: Queryable, id: number, input: { name: string; revealTaxIds?: boolean | undefined }): Promise<{ before: Role; after: Role }> {
    const before = await this.get(db, id);
    if (before.name !== input.name) assertChangeable(before);
    await assertNameFree(db, input.name, before);
    const { rows } = await uniqueRole(db.query<Role>(
      `UPDATE roles SET name = $2, reveal_tax_ids = coalesce($3, reveal_tax_ids) WHERE id = $1 RETURNING ${COLUMNS}`, [id, input.name, input.revealTaxIds ?? null]));
    return { before, after: rows[0]! };
  }

  /** Whether the user's role may reveal whole tax IDs (false for an unknown user). */
  async mayRevealTaxIds(db: Queryable, userId: number): Promise<boolean> {
    const { rows } = await db.query<{ reveal_tax_ids: boolean }>('SELECT r.reveal_tax_ids FROM users u JOIN roles r ON r.id = u.role_id WHERE u.id = $1', [userId]);
    return rows[0]?.reveal_tax_ids ?? false;
  }

  async delete(db: Queryable, id: number): Promise<Role> {
    const role = await this.get(db, id);
    assertChangeable(role);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE role_id = $1', [id]);
    const users = rows[0]?.n ?? 0;
    if (users > 0) throw new Conflict(`The role "${role.name}" is assigned to ${users} user(s) and cannot be deleted.`);
    await db.query('DELETE FROM roles WHERE id = $1', [id]);
    return role;
  }
}

/** Migration 001 inserts the default roles in this order into a new serial: their ids. */
const builtInRoleId = (name: string): number => DEFAULT_ROLES.findIndex((r) => sameRoleName(r, name)) + 1;

/**
 * Every service compares role names without regard to case (kit's sameRoleName), so a role
 * may not differ from another only in case, nor take a built-in role's name: 'admin' would
 * silently hold Admin's powers. A renamed DTA or CPA role may take its own name back.
 */
async function assertNameFree(db: Queryable, name: string, role: Role | null): Promise<void> {
  const { rows } = await db.query<Role>('SELECT id, name FROM roles WHERE lower(name) = lower($1) AND id <> $2', [name.trim(), role?.id ?? 0]);
  if (rows[0]) throw new Conflict(ROLE_TAKEN);
  const builtIn = builtInRoleNamed(name);
  if (builtIn && role?.id !== builtInRoleId(builtIn)) throw new Conflict(`"${name}" is the name of the built-in ${builtIn} role. Please choose another name.`);
}

function assertChangeable(role: Role): void {
  if (PROTECTED_ROLES.has(role.name.toLowerCase())) throw new Conflict(`The ${role.name} role is built in and cannot be renamed or deleted.`);
}

async function uniqueRole<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(ROLE_TAKEN);
    throw err;
  }
}
