import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
// @ts-expect-error: a plain ES module of the build, without type declarations
import { esModuleFile, primeReactImports } from '../webpack/primereact-imports.mjs';

/**
 * Remotes carry no PrimeReact of their own: the shell provides every module that the scan finds
 * (webpack/federated-app.config.mjs). A module the scan misses is missing on the page ("Can not
 * get 'primereact/chart'" was the dashboard's charts before the scan read on-demand imports).
 */
describe('the PrimeReact modules the shell provides', () => {
  const found: string[] = primeReactImports();

  it('include those imported on demand as well as by import statements', () => {
    expect(found).toEqual(expect.arrayContaining(['primereact/chart', 'primereact/datatable', 'primereact/button', 'primereact/api']));
  });

  it('are components, never style sheets', () => {
    expect(found.filter((request) => !/^primereact\/[a-z]+$/.test(request))).toEqual([]);
  });

  it('each have the ES module file the shell provides', () => {
    const missing = found.filter((request) => !existsSync(esModuleFile(request)));
    expect(missing).toEqual([]);
  });
});
