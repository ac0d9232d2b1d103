// The frontends as `npm start` and `npm test` need them: the apps whose inputs changed since
// their last build are built, all in one webpack process (frontends/ui/webpack/build-apps.mjs),
// on the recent Node the product runs on (the apps' webpack configs read TypeScript).
import { join } from 'node:path';
import { ROOT, run } from './node-runtime.mjs';

export async function buildFrontends(nodeBin, { force = false } = {}) {
  const code = await run(nodeBin, [join(ROOT, 'frontends', 'ui', 'webpack', 'build-apps.mjs'), ...(force ? ['--all'] : [])]);
  if (code !== 0) throw new Error('the frontends failed to build (webpack\'s errors are above)');
}
