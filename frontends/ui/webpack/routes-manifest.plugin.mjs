// Publishes a remote's page declarations (its src/routes.ts) as routes.json in its build,
// which the gateway and the frontend image list in /frontends.json: the shell learns every
// remote's pages without loading any remote's code.
import { pathToFileURL } from 'node:url';

/** @param {string} routesFile absolute path of the remote's routes.ts (plain data; Node strips its types) */
export async function readDeclarations(routesFile) {
  const module = await import(pathToFileURL(routesFile).href);
  if (!module.ROUTES) throw new Error(`${routesFile} exports no ROUTES`);
  return { routes: Object.values(module.ROUTES), navItems: module.NAV_ITEMS ?? [], loadOnSignIn: module.LOAD_ON_SIGN_IN === true };
}

export class RoutesManifestPlugin {
  /** @param {{ routes: unknown[], navItems: unknown[] }} declarations */
  constructor(declarations) {
    this.json = `${JSON.stringify(declarations)}\n`;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RoutesManifestPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'RoutesManifestPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset('routes.json', new compiler.webpack.sources.RawSource(this.json));
      });
    });
  }
}
