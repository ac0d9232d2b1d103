// Builds the frontend apps (frontends/<name> with a webpack.config.mjs) in ONE webpack process,
// a multi-compiler: webpack, module federation and swc load once instead of once per app, and
// while one app's JavaScript is being compiled another's is minified (swc) or compressed
// (brotli) on the other cores. Only apps whose inputs changed since their last build are built.
//
//   node frontends/ui/webpack/build-apps.mjs [--all] [app ...]
//
// With no app named, every app is considered; --all builds them whether changed or not. One
// line per app as it finishes ("built tasks (4 of 13)"), so a first start shows how far it is.
// `npm start`, `npm test` (scripts/build-frontends.mjs), the browser tests
// (kit/testing/browser.ts) and the frontend image all build through it.
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const FRONTENDS = path.resolve(import.meta.dirname, '../..');
const ROOT = path.resolve(FRONTENDS, '..');
/** Besides an app's own folder, what every app is built from: the shared ui and contracts packages and the installed versions. */
const SHARED_INPUTS = [path.join(FRONTENDS, 'ui'), path.join(ROOT, 'services', 'contracts', 'src'), path.join(ROOT, 'package-lock.json')];
/** Not inputs of a build: its output, installed packages and the tests. */
const NOT_INPUTS = new Set(['dist', 'node_modules', 'test']);

/** Every folder under frontends/ with a webpack config. */
export function allApps() {
  return readdirSync(FRONTENDS).filter((name) => existsSync(path.join(FRONTENDS, name, 'webpack.config.mjs'))).sort();
}

/** The file each build writes last and is dated by: the shell's page, a remote's manifest. */
const marker = (app) => path.join(FRONTENDS, app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json');

function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const st = statSync(file);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(file)) {
    if (!NOT_INPUTS.has(entry)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** The apps among `apps` whose build is missing or older than any of their inputs. */
export function staleApps(apps = allApps()) {
  const shared = Math.max(...SHARED_INPUTS.map(newestMtime));
  return apps.filter((app) => {
    const builtAt = existsSync(marker(app)) ? statSync(marker(app)).mtimeMs : 0;
    return builtAt === 0 || builtAt < Math.max(newestMtime(path.join(FRONTENDS, app)), shared);
  });
}

/**
 * Production builds of `apps` in one multi-compiler. Resolves when all are written; rejects
 * with webpack's errors when any fails (the others are still written). `onBuilt(app, done, total)`
 * is called as each finishes.
 */
export async function buildApps(apps, { onBuilt = () => {} } = {}) {
  if (apps.length === 0) return;
  const { default: webpack } = await import('webpack');
  const configs = await Promise.all(apps.map(async (app) => {
    const { default: config } = await import(pathToFileURL(path.join(FRONTENDS, app, 'webpack.config.mjs')).href);
    return { ...(await config({}, { mode: 'production' })), name: app };
  }));
  // A few at a time: enough to keep every core busy (one compiles while others minify and
  // compress), few enough that apps finish one after another (a line each) in bounded memory.
  const compiler = webpack(Object.assign(configs, { parallelism: availableParallelism() + 1 }));
  let done = 0;
  for (const child of compiler.compilers) {
    child.hooks.done.tap('build-apps', (stats) => {
      if (stats.hasErrors()) return;
      // webpack leaves a file whose content did not change untouched: date the build itself.
      const now = new Date();
      utimesSync(marker(child.name), now, now);
      done += 1;
      onBuilt(child.name, done, apps.length);
    });
  }
  const stats = await new Promise((resolve, reject) => {
    compiler.run((error, result) => compiler.close((closeError) => (error ?? closeError ? reject(error ?? closeError) : resolve(result))));
  });
  if (stats.hasErrors() || stats.hasWarnings()) console.log(stats.toString('errors-warnings'));
  if (stats.hasErrors()) throw new Error(`frontend build failed: ${stats.stats.filter((s) => s.hasErrors()).map((s) => s.compilation.name).join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const named = args.filter((a) => !a.startsWith('--'));
  const considered = named.length ? named : allApps();
  const apps = args.includes('--all') ? considered : staleApps(considered);
  if (apps.length) {
    console.log(`Building ${apps.length} of ${considered.length} frontends in one webpack process: ${apps.join(', ')} ...`);
    const started = Date.now();
    await buildApps(apps, { onBuilt: (app, done, total) => console.log(`  built ${app} (${done} of ${total}, ${Math.round((Date.now() - started) / 1000)} s)`) });
  }
}
