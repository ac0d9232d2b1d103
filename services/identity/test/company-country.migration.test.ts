import { afterEach, describe, expect, it } from '@jest/globals';
import { migratePlatform } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { identityPlatformMigrations } from '../src/identity.migrations.ts';

const COUNTRY_MIGRATION = '010_company_country';

/** The platform migrations as they stood before firms had a country. */
const before = { ...identityPlatformMigrations, migrations: identityPlatformMigrations.migrations.filter((m) => m.id < COUNTRY_MIGRATION) };
/** …and with it (later migrations are other tests' business). */
const withCountry = { ...identityPlatformMigrations, migrations: identityPlatformMigrations.migrations.filter((m) => m.id <= COUNTRY_MIGRATION) };

describe.each(databaseTargets())('firms that exist before the country ($name)', (target) => {
  let scratch: TestDatabase | undefined;
  afterEach(async () => { await scratch?.drop(); });

  it('take the country their time zone names, and none when the zone names none of the five', async () => {
    scratch = await target.open();
    const { db } = scratch;
    await migratePlatform(db, [before]);
    const zones: [string, string | null][] = [
      ['nyc', 'America/New_York'], ['hawaii', 'Pacific/Honolulu'], ['indy', 'America/Indiana/Indianapolis'], ['toronto', 'America/Toronto'],
      ['kolkata', 'Asia/Kolkata'], ['london', 'Europe/London'], ['sydney', 'Australia/Sydney'], ['paris', 'Europe/Paris'],
      ['mexico', 'America/Mexico_City'], ['platform', null],
    ];
    for (const [shortName, zone] of zones) {
      await db.query('INSERT INTO portal.companies (name, short_name, schema_name, time_zone) VALUES ($1, $1, $1, $2)', [shortName, zone]);
    }
    expect(await migratePlatform(db, [withCountry])).toEqual([`identity: ${COUNTRY_MIGRATION}`]);
    const { rows } = await db.query<{ short_name: string; country: string | null }>('SELECT short_name, country FROM portal.companies ORDER BY id');
    expect(Object.fromEntries(rows.map((r) => [r.short_name, r.country]))).toEqual({
      nyc: 'US', hawaii: 'US', indy: 'US', toronto: 'CA', kolkata: 'IN', london: 'GB', sydney: 'AU', paris: null, mexico: null, platform: null,
    });
    // Only the five countries the portal has calendars for.
    await expect(db.query("UPDATE portal.companies SET country = 'FR' WHERE short_name = 'paris'")).rejects.toThrow();
  });
});
