// Lays the built frontends out as the gateway serves them in the all-in-one mode, so the
// frontend image answers the same URLs: the shell's dist at /, each remote's dist at
// /remotes/<name>/, and /frontends.json listing the remotes' manifests for the shell.
// Usage: node docker/assemble-frontends.mjs <output dir>
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? 'site');
const frontends = resolve(import.meta.dirname, '..', 'frontends');
const HOST = 'shell';

const shellDist = join(frontends, HOST, 'dist');
if (!existsSync(join(shellDist, 'index.html'))) {
  throw new Error(`${shellDist}/index.html is missing: did the shell build run?`);
}
mkdirSync(out, { recursive: true });
cpSync(shellDist, out, { recursive: true });

// A remote is any other frontend whose build produced a module federation manifest
// (shared packages such as ui produce none).
const remotes = readdirSync(frontends)
  .filter((name) => name !== HOST && existsSync(join(frontends, name, 'dist', 'mf-manifest.json')))
  .sort();
for (const name of remotes) {
  cpSync(join(frontends, name, 'dist'), join(out, 'remotes', name), { recursive: true });
}

// Each remote's declared pages (routes.json of its build) go with it, so the shell loads a
// remote only when one of its pages is visited, as with the gateway's own list.
const declarations = (name) => {
  const file = join(frontends, name, 'dist', 'routes.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
};
const list = { remotes: remotes.map((name) => ({ name, manifestUrl: `/remotes/${name}/mf-manifest.json`, ...declarations(name) })) };
writeFileSync(join(out, 'frontends.json'), `${JSON.stringify(list, null, 2)}\n`);
console.log(`Assembled shell + ${remotes.length} remote(s) [${remotes.join(', ')}] into ${out}`);
