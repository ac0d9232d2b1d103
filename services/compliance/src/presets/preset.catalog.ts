import { readFileSync } from 'node:fs';
import { JURISDICTIONS, presetSchema, type CompliancePreset } from '@ledgerline/contracts/compliance.contracts.ts';

/**
 * The statutory calendars, one data file per jurisdiction (./data/{id}.json), checked against the
 * contract at start: a broken file stops the service rather than misleading a firm.
 */
export const PRESETS: readonly CompliancePreset[] = JURISDICTIONS.map((id) => {
  const preset = presetSchema.parse(JSON.parse(readFileSync(new URL(`./data/${id}.json`, import.meta.url), 'utf8')));
  if (preset.id !== id) throw new Error(`Preset file ${id}.json names itself ${preset.id}`);
  return preset;
});
