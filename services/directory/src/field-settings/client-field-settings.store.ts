import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { isUniqueViolation } from '@ledgerline/kit/db/sql-errors.ts';
import { Conflict, NotFound } from '@ledgerline/kit/errors.ts';
import type { ClientFieldSettings, ClientFieldSettingsInput } from '@ledgerline/contracts/directory.contracts.ts';

interface SettingsRow {
  id: number;
  phone_label: string;
  phone_country: ClientFieldSettingsInput['phoneCountry'];
  phone_pattern: string;
  phone_example: string;
  federal_id_label: string;
  federal_id_pattern: string;
  federal_id_example: string;
  state_id_label: string;
  state_id_pattern: string;
  state_id_example: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const toSettings = (r: SettingsRow): ClientFieldSettings => ({
  id: r.id,
  phoneLabel: r.phone_label,
  phoneCountry: r.phone_country,
  phonePattern: r.phone_pattern,
  phoneExample: r.phone_example,
  federalIdLabel: r.federal_id_label,
  federalIdPattern: r.federal_id_pattern,
  federalIdExample: r.federal_id_example,
  stateIdLabel: r.state_id_label,
  stateIdPattern: r.state_id_pattern,
  stateIdExample: r.state_id_example,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const values = (s: ClientFieldSettingsInput) => [s.phoneLabel, s.phoneCountry, s.phonePattern, s.phoneExample, s.federalIdLabel,
  s.federalIdPattern, s.federalIdExample, s.stateIdLabel, s.stateIdPattern, s.stateIdExample];

export const SETTINGS_EXIST = 'Client field settings already exist. Update them instead.';
export const SETTINGS_NOT_FOUND = 'Client field settings not found. Save them first.';

/** The firm's one set of client field settings (none until an Admin saves them). */
export class ClientFieldSettingsStore {
  async find(db: Queryable): Promise<ClientFieldSettings | null> {
    const { rows } = await db.query<SettingsRow>('SELECT * FROM client_field_settings');
    return rows[0] ? toSettings(rows[0]) : null;
  }

  async create(tx: Queryable, input: ClientFieldSettingsInput): Promise<ClientFieldSettings> {
    try {
      const { rows } = await tx.query<SettingsRow>(
        `INSERT INTO client_field_settings (phone_label, phone_country, phone_pattern, phone_example, federal_id_label,
           federal_id_pattern, federal_id_example, state_id_label, state_id_pattern, state_id_example)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`, values(input),
      );
      return toSettings(rows[0]!);
    } catch (err) {
      if (isUniqueViolation(err)) throw new Conflict(SETTINGS_EXIST);
      throw err;
    }
  }

  /** Updates the firm's settings; `id`, when given, must be theirs. */
  async update(tx: Queryable, input: ClientFieldSettingsInput, id?: number): Promise<ClientFieldSettings> {
    const { rows } = await tx.query<SettingsRow>(
      `UPDATE client_field_settings SET phone_label = $1, phone_country = $2, phone_pattern = $3, phone_example = $4,
         federal_id_label = $5, federal_id_pattern = $6, federal_id_example = $7, state_id_label = $8, state_id_pattern = $9,
         state_id_example = $10, updated_at = now()
       WHERE $11::int IS NULL OR id = $11 RETURNING *`, [...values(input), id ?? null],
    );
    if (!rows[0]) throw new NotFound(SETTINGS_NOT_FOUND);
    return toSettings(rows[0]);
  }
}
