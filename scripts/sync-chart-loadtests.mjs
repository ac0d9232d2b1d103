// The chart's load-test Job runs the k6 suite from a ConfigMap rendered from
// charts/portal/files/loadtests/: a generated copy of loadtests/k6/, the one source.
//   node scripts/sync-chart-loadtests.mjs           copy loadtests/k6/*.ts into the chart
//   node scripts/sync-chart-loadtests.mjs --check   exit 1 when the copy differs (the chart test does the same)
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
export const SOURCE = join(ROOT, 'loadtests', 'k6');
export const CHART_COPY = join(ROOT, 'charts', 'portal', 'files', 'loadtests');

/** The scripts by name, of a folder (flat: a ConfigMap's keys cannot hold folders). */
export const scriptsIn = (dir) => Object.fromEntries(readdirSync(dir).filter((name) => name.endsWith('.ts')).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const source = scriptsIn(SOURCE);
  if (process.argv.includes('--check')) {
    const copy = scriptsIn(CHART_COPY);
    const differ = [...new Set([...Object.keys(source), ...Object.keys(copy)])].filter((name) => source[name] !== copy[name]);
    if (differ.length) {
      console.error(`charts/portal/files/loadtests differs from loadtests/k6 (${differ.join(', ')}): run node scripts/sync-chart-loadtests.mjs`);
      process.exit(1);
    }
  } else {
    rmSync(CHART_COPY, { recursive: true, force: true });
    mkdirSync(CHART_COPY, { recursive: true });
    for (const [name, text] of Object.entries(source)) writeFileSync(join(CHART_COPY, name), text);
    console.log(`copied ${Object.keys(source).length} scripts into charts/portal/files/loadtests`);
  }
}
