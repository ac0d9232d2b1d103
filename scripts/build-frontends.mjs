// Incremental frontend build: a package is rebuilt only when a source, its webpack
// config or the shared ui package changed since its last build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './node-runtime.mjs';

const FRONTENDS = join(ROOT, 'frontends');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export async function buildFrontends(nodeBin, { force = false } = {}) {
  const sharedInputs = Math.max(newestMtime(join(FRONTENDS, 'ui')), newestMtime(join(ROOT, 'package-lock.json')));
  const packages = readdirSync(FRONTENDS).filter((name) => existsSync(join(FRONTENDS, name, 'webpack.config.mjs')));
  const stale = packages.filter((name) => {
    const dir = join(FRONTENDS, name);
    const stamp = join(dir, 'dist', 'index.html');
    const manifest = join(dir, 'dist', 'mf-manifest.json');
    const built = Math.max(existsSync(stamp) ? statSync(stamp).mtimeMs : 0, existsSync(manifest) ? statSync(manifest).mtimeMs : 0);
    return force || built === 0 || built < Math.max(newestMtime(dir), sharedInputs);
  });
  for (const [index, name] of stale.entries()) {
    const dir = join(FRONTENDS, name);
    // One line per step, so a first start shows how far it is.
    console.log(`Building frontend ${name} (${index + 1} of ${stale.length}) ...`);
    const code = await run(nodeBin, [join(ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js'), '--mode', 'production', '--config', join(dir, 'webpack.config.mjs')], { cwd: dir });
    if (code !== 0) throw new Error(`frontend ${name} failed to build`);
  }
}
