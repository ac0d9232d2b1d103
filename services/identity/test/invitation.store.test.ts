import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { hashToken } from '@ledgerline/kit/crypto/hashed-token.ts';
import { identityPlatformMigrations, identityTenantMigrations } from '../src/identity.migrations.ts';
import { InvitationStore } from '../src/users/invitation.store.ts';
import { UserStore } from '../src/users/user.store.ts';

// The store has no clock of its own (the database's now() decides): expiry is tested by
// ageing a stored invitation past its 7 days.
describe.each(databaseTargets())('invitation store ($name)', (target) => {
  const invitations = new InvitationStore();
  const users = new UserStore();
  let scratch: TestDatabase;
  let db: SchemaDb;
  let userId: number;

  beforeAll(async () => {
    scratch = await target.open();
    const schema = `inv_${randomBytes(4).toString('hex')}`;
    // As at start-up: the platform's tables first (a firm's migrations may read them).
    await migratePlatform(scratch.db, [identityPlatformMigrations]);
    await migrateTenant(scratch.db, schema, [identityTenantMigrations]);
    db = scratch.db.forSchema(schema);
    const { rows } = await db.query<{ id: number }>("INSERT INTO users (username, full_name, role_id) VALUES ('ivy', 'Ivy', 4) RETURNING id");
    userId = rows[0]!.id;
  });
  afterAll(async () => { await scratch?.drop(); });

  it('stores only the hash, lives 7 days, and an expired one is refused and leaves the user disabled', async () => {
    const issued = await db.transaction((tx) => invitations.issue(tx, userId));
    const { rows } = await db.query<{ token_hash: string }>('SELECT token_hash FROM invitations WHERE user_id = $1', [userId]);
    expect(rows.map((r) => r.token_hash)).toEqual([hashToken(issued.token)]);
    expect((issued.expiresAt.getTime() - issued.createdAt.getTime()) / 86_400_000).toBe(7);
    expect(await invitations.find(db, issued.token)).toMatchObject({ userId });
    expect((await users.get(db, userId)).status).toBe('invited');

    await db.query("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE user_id = $1", [userId]);
    expect(await invitations.find(db, issued.token)).toBeNull();
    expect((await users.get(db, userId)).status).toBe('disabled');
  });

  it('a used invitation is refused, and a new one revokes the old', async () => {
    const first = await db.transaction((tx) => invitations.issue(tx, userId));
    const second = await db.transaction((tx) => invitations.issue(tx, userId));
    expect(await invitations.find(db, first.token)).toBeNull();
    const live = (await invitations.find(db, second.token))!;
    await invitations.markUsed(db, live.id);
    expect(await invitations.find(db, second.token)).toBeNull();
    expect(await invitations.find(db, 'not-a-token-at-all-xxxxxxxx')).toBeNull();
  });
});
