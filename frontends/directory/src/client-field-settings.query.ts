import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_CLIENT_FIELD_SETTINGS,
  type ClientFieldSettings,
  type ClientFieldSettingsInput,
} from '@ledgerline/contracts/directory.contracts.ts';
import { clientFieldSettingsPath } from './directory.api.ts';

/** The firm's client field settings; GET answers the defaults with id null until some are saved. */
export function useClientFieldSettings() {
  return useQuery<ClientFieldSettings>({ queryKey: [clientFieldSettingsPath()] });
}

/**
 * The settings the client form validates with: the firm's own once saved, else none, which
 * selects the spec's fallback rules and messages (spec 000 §5).
 */
export function savedFieldRules(settings: ClientFieldSettings | null | undefined): ClientFieldSettingsInput | null {
  return settings && settings.id !== null ? settings : null;
}

export interface ClientFieldTexts {
  phoneLabel: string;
  phoneExample: string;
  federalIdLabel: string;
  federalIdExample: string;
  stateIdLabel: string;
  stateIdExample: string;
}

/** Labels and examples of the three firm-specific fields; the defaults while settings load or fail. */
export function clientFieldTexts(settings: ClientFieldSettings | null | undefined): ClientFieldTexts {
  const { phoneLabel, phoneExample, federalIdLabel, federalIdExample, stateIdLabel, stateIdExample } = settings ?? DEFAULT_CLIENT_FIELD_SETTINGS;
  return { phoneLabel, phoneExample, federalIdLabel, federalIdExample, stateIdLabel, stateIdExample };
}
