import { roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { ROLE_UPSERTED } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { RoleUpsertedEvent } from '@ledgerline/contracts/identity.contracts.ts';

const CONSUMER = 'directory.role-permissions';

/**
 * What each role of the firm may do with clients' tax IDs, as identity last announced it
 * (role.upserted; DESIGN §2: identity's tables are its own). A role never announced since
 * the permission exists has identity's default: the Admin role may reveal, others may not.
 */
export function followRolePermissions(deps: TenantConsumerDeps): Promise<Subscription> {
  return consumeTenantEvents(deps, CONSUMER, [ROLE_UPSERTED], async (tx, event) => {
    const role = event.payload as Partial<RoleUpsertedEvent> & { id: number; name: string };
    // Events from before the permission carry none: nothing to learn from them.
    if (typeof role.revealTaxIds !== 'boolean') return;
    await tx.query(
      `INSERT INTO role_permissions (role_id, reveal_tax_ids, version) VALUES ($1, $2, $3)
       ON CONFLICT (role_id) DO UPDATE SET reveal_tax_ids = EXCLUDED.reveal_tax_ids, version = EXCLUDED.version
       WHERE role_permissions.version <= EXCLUDED.version`,
      [role.id, role.revealTaxIds, event.occurredAt],
    );
  });
}

export class RolePermissions {
  readonly #userAccessTable: string;

  /** `userAccessTable`: the service's user-access read model's table (it knows each user's role id). */
  constructor(userAccessTable: string) {
    this.#userAccessTable = userAccessTable;
  }

  /** Whether the user (of role `roleName`) may see clients' whole tax IDs. */
  async mayRevealTaxIds(db: Queryable, userId: number, roleName: string): Promise<boolean> {
    const { rows } = await db.query<{ reveal_tax_ids: boolean | null }>(
      `SELECT p.reveal_tax_ids FROM ${this.#userAccessTable} u LEFT JOIN role_permissions p ON p.role_id = u.role_id
       WHERE u.user_id = $1 AND NOT u.deleted`, [userId]);
    return rows[0]?.reveal_tax_ids ?? roleIs(roleName, ROLES.admin);
  }
}
