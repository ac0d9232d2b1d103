import { pino, type Logger } from 'pino';

export type { Logger };

/** One logger per process; services take a child with their name. JSON lines to stdout. */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info')): Logger {
  return pino({ name, level, base: { service: name } });
}
