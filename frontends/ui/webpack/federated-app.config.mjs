// The one webpack + module-federation setup of the shell and every remote, so they agree
// on loaders, hashing and — above all — on which packages are shared singletons.
// webpack is pinned to ~5.111: @module-federation/enhanced 2.9.2 requires internal
// webpack/lib paths (util/semver, util/extractUrlAndGlobal, …) that webpack 5.112 moved.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import MinimizerPlugin from 'minimizer-webpack-plugin';
import { PrecompressPlugin } from './precompress.plugin.mjs';
import { AppStylesheetsPlugin } from './app-stylesheets.plugin.mjs';
import { PreloadLibrariesPlugin } from './preload-libraries.plugin.mjs';
import { UnusedThemeRulesPlugin } from './unused-theme-rules.plugin.mjs';
import { esModuleFile, primeReactImports } from './primereact-imports.mjs';
import { readDeclarations, RoutesManifestPlugin } from './routes-manifest.plugin.mjs';

const require = createRequire(import.meta.url);

/** Hashed names may be cached for ever; the gateway recognises them by this pattern. */
const HASHED = '[name].[contenthash:16]';

// CSS is excluded from sharing: style sheets are global, the shell loads them once.
const NOT_CSS = { request: /\.css$/ };
/**
 * Nor are PrimeReact's icons shared: each is a stateless component of a few hundred bytes, and
 * each shared module costs the federation runtime a registration when the shell starts and a
 * negotiation when a chunk that uses it loads. The home's start negotiated 33 of them. The
 * components that draw them (provided by the shell) carry their own; a remote that imports
 * one directly would carry that one.
 */
const NOT_CSS_OR_ICONS = { request: /\.css$|^icons\// };
// primereact's component folders have package.json files without a version; share them
// under the package's own version so host and remotes can negotiate.
const PRIMEREACT_VERSION = require('primereact/package.json').version;
// The ui package only has subpath exports; naming it and its version spares the plugin a
// lookup of the bare package name, which cannot resolve.
const UI_VERSION = require('../package.json').version;

/** Design §5.7: one copy of each of these per page, whichever bundle loads first provides it. */
export const SHARED_SINGLETONS = {
  react: { singleton: true },
  'react/': { singleton: true },
  'react-dom': { singleton: true },
  'react-dom/': { singleton: true },
  'react-router': { singleton: true },
  'react-router-dom': { singleton: true },
  '@tanstack/react-query': { singleton: true },
  // Not for its state: the contracts' schemas parse with it in every app, and one copy on the
  // page spares each remote 90 KB of script.
  zod: { singleton: true },
  'primereact/': { singleton: true, version: PRIMEREACT_VERSION, exclude: NOT_CSS_OR_ICONS },
  '@ledgerline/ui/': {
    singleton: true,
    packageName: '@ledgerline/ui',
    version: UI_VERSION,
    requiredVersion: `^${UI_VERSION}`,
    exclude: NOT_CSS,
  },
};

/**
 * The shell provides every PrimeReact module any app imports, not only its own, in a few chunks
 * (PRIMEREACT_CHUNK): a page fetches PrimeReact in three requests instead of one per component
 * (on a phone's network the requests, not the bytes, held the dashboard back), and a remote
 * finds each component it needs already provided.
 */
const EVERY_PRIMEREACT_IMPORT = Object.fromEntries(primeReactImports().map((request) => [request, {
  singleton: true,
  version: PRIMEREACT_VERSION,
  // A file, not the bare request: webpack provides a bare request only where the build imports it, a file always.
  import: esModuleFile(request),
}]));
/**
 * A remote carries no PrimeReact of its own: it takes the shell's. With copies of its own, the
 * first remote on a page registered them over the shell's not yet loaded ones ('loaded-first'),
 * and the page fetched a remote's components one request each after all.
 */
const REMOTE_PRIMEREACT = { ...SHARED_SINGLETONS['primereact/'], import: false };
// In about three parts (sizes before minifying): one script of 700 KB took a phone over 400 ms to compile and run, in one go.
// With the transition library PrimeReact's overlays run on (react-transition-group and what it
// imports), which was two more files of its own.
const PRIMEREACT_CHUNK = { test: /[\\/]node_modules[\\/](?:primereact[\\/].*\.js$|react-transition-group[\\/]|dom-helpers[\\/]|prop-types[\\/]|@babel[\\/]runtime[\\/])/, name: 'primereact', chunks: 'async', enforce: true, minSize: 60_000, maxSize: 700_000 };
/**
 * The libraries every page runs on (React, React DOM and its scheduler, the router, TanStack
 * Query), provided by the shell, in four chunks: apart, they were ten files (seven of 0.5-8 KB),
 * and each request costs the processor a millisecond or more in the task that starts the app,
 * besides its round on a phone's network. The group's minSize (here and for PrimeReact's):
 * without it, maxSize cut the group into parts of a few hundred bytes.
 */
const LIBRARIES_CHUNK = { test: /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router|react-router-dom|@tanstack|cookie|set-cookie-parser)[\\/]/, name: 'libraries', chunks: 'async', enforce: true, minSize: 100_000, maxSize: 400_000 };
const UI_SOURCE = /[\\/]frontends[\\/]ui[\\/]src[\\/].*\.tsx?$/;
const CONTRACTS_SOURCE = /[\\/]services[\\/]contracts[\\/]src[\\/]/;
/**
 * The contracts' modules without a schema (storage keys, push event names, a panel's limits),
 * which the ui modules import. Left to webpack, each was a chunk for every set of shared ui
 * modules that used it, several the same file under different names: the home fetched ten
 * files of 1-2 KB, one request each, in two rounds.
 */
const schemaFreeContract = (module) => CONTRACTS_SOURCE.test(module.resource ?? '') && !module.dependencies.some((dependency) => dependency.request === 'zod');
/** Each app's shared @ledgerline/ui modules, with the schema-free contracts they use, in one chunk, for the same reason. */
const UI_CHUNK = { test: (module) => UI_SOURCE.test(module.resource ?? '') || schemaFreeContract(module), name: 'ledgerline-ui', chunks: 'async', enforce: true };

/**
 * @param {object} options
 * @param {string} options.name module-federation container name (a remote's name in frontends.json)
 * @param {string} options.root the package folder; output goes to {root}/dist
 * @param {string} options.publicPath '/' for the shell, 'auto' for remotes served under a prefix
 * @param {string} [options.entry] the shell's entry module; remotes have none
 * @param {Record<string, string>} [options.exposes] a remote's exposed modules
 * @param {string} [options.htmlTemplate] the shell's index.html template
 * @param {string} [options.routes] a remote's page declarations (./src/routes.ts), published as routes.json
 * @returns {(env: unknown, argv: { mode?: 'production' | 'development' | 'none' }) => Promise<import('webpack').Configuration>}
 */
export function federatedAppConfig({ name, root, publicPath, entry, exposes, htmlTemplate, routes }) {
  return async (_env, argv) => {
    const mode = argv.mode ?? 'production';
    const declarations = routes ? await readDeclarations(path.resolve(root, routes)) : null;
    return {
      mode,
      context: root,
      entry: entry ? { main: entry } : {},
      target: 'web',
      devtool: false,
      output: {
        path: path.join(root, 'dist'),
        publicPath,
        // The federation runtime resolves the entry's file name before hashes exist, so the
        // entry stays unhashed (revalidated like index.html); every other file is hashed.
        filename: '[name].js',
        chunkFilename: `${HASHED}.js`,
        assetModuleFilename: `${HASHED}[ext]`,
        uniqueName: name,
        clean: true,
      },
      resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: require.resolve('swc-loader'),
              options: {
                jsc: {
                  target: 'es2022',
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: mode === 'development' } },
                },
              },
            },
          },
          { test: /\.css$/, use: [MiniCssExtractPlugin.loader, require.resolve('css-loader')] },
          { test: /primereact[\\/]resources[\\/]themes[\\/]lara-light-blue[\\/]theme\.css$/, enforce: 'pre', use: [require.resolve('./accessible-colours.loader.cjs')] },
          { test: /\.(woff2?|ttf|eot|svg|png|gif)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          shared: exposes ? { ...SHARED_SINGLETONS, 'primereact/': REMOTE_PRIMEREACT } : { ...SHARED_SINGLETONS, ...EVERY_PRIMEREACT_IMPORT },
          // Every app is built from the one lockfile, so the copy of a shared package already on
          // the page is the right one. The default ('version-first') fetches EVERY registered
          // remote's manifest and entry to compare versions the first time the shell loads a
          // shared module late (a firm's sign-in page would download all thirteen apps' entries).
          shareStrategy: 'loaded-first',
          // Remotes are found through their manifest; the host publishes none.
          manifest: Boolean(exposes),
          // Types are shared through the workspace, not downloaded at run time.
          dts: false,
          // One copy of the federation runtime per page: the shell provides it, every remote's
          // entry uses it instead of carrying its own (about 100 KB of script each, parsed and
          // run again for every remote a page loads).
          experiments: { ...(exposes ? { externalRuntime: true } : { provideExternalRuntime: true }), optimization: { target: 'web' } },
        }),
        // The plugin that provides that runtime is imported by its CommonJS file, which brought
        // the CommonJS build of the runtime with it: a second copy beside the ES build the shell
        // runs (~100 KB of the shell's main.js, parsed and run before anything else). Its ES
        // file imports the same runtime the shell runs.
        ...(exposes ? [] : [new webpack.NormalModuleReplacementPlugin(/[\\/]inject-external-runtime-core-plugin[\\/]dist[\\/]index\.cjs$/, (resource) => { resource.request = resource.request.replace(/\.cjs$/, '.js'); })]),
        new MiniCssExtractPlugin({ filename: `${HASHED}.css`, chunkFilename: `${HASHED}.css` }),
        // The page as text, not as a template file: a file is built by a child compiler, which
        // inherits the federation plugin's provides and wrote every provided PrimeReact module a
        // second time, as Node.js chunks (4 MB).
        ...(htmlTemplate ? [new HtmlWebpackPlugin({ templateContent: readFileSync(path.resolve(root, htmlTemplate), 'utf8'), scriptLoading: 'defer' }), new PreloadLibrariesPlugin(), new AppStylesheetsPlugin(), new UnusedThemeRulesPlugin()] : []),
        ...(declarations ? [new RoutesManifestPlugin(declarations)] : []),
        // Production builds are minified (webpack's default for 'production') and precompressed.
        ...(mode === 'production' ? [new PrecompressPlugin()] : []),
      ],
      // SWC's minifier instead of webpack's default Terser: a third of the build's time for the
      // same size (the shared fallbacks every app carries make a build up to ~1.3 MB of JS).
      optimization: {
        minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, minimizerOptions: { compress: { passes: 2 } } })],
        splitChunks: { cacheGroups: exposes ? { ui: UI_CHUNK } : { primereact: PRIMEREACT_CHUNK, libraries: LIBRARIES_CHUNK, ui: UI_CHUNK } },
      },
      // No persistent cache: module federation's shared chunks came out inconsistent from
      // incremental builds (a shell that never booted), and a full build takes seconds.
      cache: false,
      performance: { hints: false },
      // The filters above only leave out style sheets, which hold no module state, so the
      // "singleton with exclude may duplicate instances" caution does not apply.
      ignoreWarnings: [/"singleton: true" is used together with "exclude\.request/],
      stats: 'errors-warnings',
      // The manifest plugin notes on every remote that publicPath 'auto' resolves chunks beside
      // the manifest at run time: that is the intent (the gateway serves each remote under its own
      // path), and twelve identical notes read like an error to someone starting the product.
      infrastructureLogging: { level: 'error' },
    };
  };
}
