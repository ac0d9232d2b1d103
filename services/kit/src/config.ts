import { z } from 'zod';

/**
 * One config pattern for every service: a map of fields, each naming its env variable
 * and a zod schema carrying the default. Names carry their unit (`uploadMaxBytes`,
 * `tokenTtlSeconds`). Loading validates everything at start and fails fast with one
 * readable message listing every bad variable.
 */
export interface ConfigField<S extends z.ZodType = z.ZodType> {
  env: string;
  schema: S;
  /** Shown in the generated configuration reference (docs/running/configuration.md). */
  doc: string;
}

export type ConfigSpec = Record<string, ConfigField>;
export type ConfigOf<S extends ConfigSpec> = { [K in keyof S]: z.output<S[K]['schema']> };

export class ConfigError extends Error {}

export function field<S extends z.ZodType>(env: string, schema: S, doc: string): ConfigField<S> {
  return { env, schema, doc };
}

export function loadConfig<S extends ConfigSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, f] of Object.entries(spec)) {
    const raw = env[f.env];
    const parsed = f.schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) out[key] = parsed.data;
    else problems.push(`  ${f.env}=${raw === undefined ? '(unset)' : JSON.stringify(raw)}: ${parsed.error.issues.map((i) => i.message).join('; ')} (${f.doc})`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return out as ConfigOf<S>;
}

/** Common field shapes, so every service reads numbers and flags the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  string: (fallback: string) => z.string().min(1).default(fallback),
  optionalString: () => z.string().min(1).optional(),
  optionalUrl: () => z.url().optional(),
  flag: (fallback: boolean) =>
    z.enum(['true', 'false', '1', '0']).default(fallback ? 'true' : 'false').transform((v) => v === 'true' || v === '1'),
};
