// The PrimeReact modules the apps import, found in their sources: the shell provides every one
// of them to the page (federated-app.config.mjs), so a remote never falls back to its own copy.
import { globSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

const FRONTENDS = path.resolve(import.meta.dirname, '../..');
/** `from 'primereact/x'` and `import('primereact/x')`, in either quotes; not its style sheets (paths with more parts). */
const IMPORT = /(?:\bfrom|\bimport\()\s*['"](primereact\/[a-z]+)['"]/g;

/**
 * Every `primereact/<component>` imported (statically or on demand) under frontends/<folder>/src,
 * sorted. Every folder, not build-apps.mjs's allApps(): the ui package is no app of its own, but
 * its components are bundled into the apps that use them.
 */
export function primeReactImports() {
  const found = new Set();
  for (const file of globSync('*/src/**/*.{ts,tsx}', { cwd: FRONTENDS })) {
    for (const match of readFileSync(path.join(FRONTENDS, file), 'utf8').matchAll(IMPORT)) found.add(match[1]);
  }
  return [...found].sort();
}

/** The ES module file of `primereact/<component>`, as webpack resolves the bare request (its package.json "module"). */
export function esModuleFile(request) {
  const manifest = require.resolve(`${request}/package.json`);
  return path.join(path.dirname(manifest), require(manifest).module);
}
