// `npm start`: the product on the embedded defaults, on any machine with Node and npm.
// Ensures a recent Node, installs dependencies if needed, builds what changed, then runs
// every service and the gateway in one process (arguments pass through: --target=…).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNode, ROOT, run } from './node-runtime.mjs';
import { buildFrontends } from './build-frontends.mjs';

const args = process.argv.slice(2);
const nodeBin = ensureNode();
if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) {
  const code = await run('npm', ['install'], { env: { ...process.env, PATH: `${join(nodeBin, '..')}:${process.env.PATH}` } });
  if (code !== 0) process.exit(code);
}
await buildFrontends(nodeBin, { force: args.includes('--rebuild') });
if (args.includes('--build-only')) process.exit(0);
process.exit(await run(nodeBin, [join(ROOT, 'services', 'server', 'src', 'main.ts'), ...args.filter((a) => a !== '--rebuild')]));
