import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, env, field, loadConfig } from '@ledgerline/kit/config.ts';

const spec = {
  port: field('PORT', env.port(8080), 'listen port'),
  uploadMaxBytes: field('UPLOAD_MAX_BYTES', env.int(1024, 1), 'largest upload'),
  verbose: field('VERBOSE', env.flag(false), 'log more'),
  name: field('NAME', env.optionalString(), 'a name'),
  mode: field('MODE', z.enum(['a', 'b']).default('a'), 'mode'),
};

describe('loadConfig', () => {
  it('applies defaults and coerces values', () => {
    expect(loadConfig(spec, {})).toEqual({ port: 8080, uploadMaxBytes: 1024, verbose: false, name: undefined, mode: 'a' });
    expect(loadConfig(spec, { PORT: '9000', UPLOAD_MAX_BYTES: '5', VERBOSE: 'true', NAME: 'x', MODE: 'b' }))
      .toEqual({ port: 9000, uploadMaxBytes: 5, verbose: true, name: 'x', mode: 'b' });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(spec, { PORT: '', NAME: '' })).toMatchObject({ port: 8080, name: undefined });
  });

  it('fails fast naming every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig(spec, { PORT: 'http', UPLOAD_MAX_BYTES: '0', MODE: 'c' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT="http"');
    expect(message).toContain('UPLOAD_MAX_BYTES="0"');
    expect(message).toContain('MODE="c"');
    expect(message).toContain('(largest upload)');
  });
});
