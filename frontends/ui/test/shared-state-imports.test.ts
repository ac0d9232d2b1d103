import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Module federation shares the ui package's modules by their package name only: a relative
 * import bundles a private copy into the importing module. For the modules below, which hold
 * the tab's state, a copy is a second state: a second realtime connection (two sockets per
 * tab, seen before this test), a second toast store, or a second ApiError class that
 * `instanceof` no longer recognises. So inside the package they are imported by name.
 */
const HOLDS_TAB_STATE = ['api-client.ts', 'auth-context.tsx', 'file-chat-launcher.ts', 'firm-formats.ts', 'realtime-connection.ts', 'session-end.ts', 'toast-store.ts'];

const SRC = path.resolve(import.meta.dirname, '../src');

describe('ui modules that hold the tab state', () => {
  it('are imported by package name everywhere in the ui package, never by a relative path', () => {
    const relative = readdirSync(SRC)
      .filter((file) => /\.tsx?$/.test(file))
      .flatMap((file) => [...readFileSync(path.join(SRC, file), 'utf8').matchAll(/from '\.\/([^']+)'/g)]
        .filter((match) => HOLDS_TAB_STATE.includes(match[1]!))
        .map((match) => `${file} imports ./${match[1]}`));
    expect(relative).toEqual([]);
  });

  it('name files that exist', () => {
    const files = readdirSync(SRC);
    expect(HOLDS_TAB_STATE.filter((file) => !files.includes(file))).toEqual([]);
  });
});
