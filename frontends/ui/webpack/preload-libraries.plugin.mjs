// Lists, in the shell's index.html, the scripts of the libraries every page runs on (React,
// React DOM, the router, the query cache, PrimeReact) as preloads: the browser fetches them
// beside main.js instead of after it, when the federation runtime asks for them. On a phone's
// network that is one round of requests fewer before the first page shows. At low priority, as
// main.js (a deferred script) has: the page's first paint waits for its style sheets, not for
// these, and a phone's network should bring those first. (At the preloads' default, high, they
// shared the line with the style sheets, and Lighthouse's phone model counted each one that
// happened to arrive before the first paint as blocking it: its first paint then fell at
// 2-2.5 s instead of 0.7-1.2 s, from one run to the next.)
import HtmlWebpackPlugin from 'html-webpack-plugin';

/** Share keys of the libraries every page runs on. */
const EVERY_PAGE = /^(?:react|react-dom|react-router|react-router-dom|@tanstack\/react-query|primereact)(?:\/|$)/;

export class PreloadLibrariesPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadLibrariesPlugin', (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap('PreloadLibrariesPlugin', (tags) => {
        const scripts = new Set();
        for (const module of compilation.modules) {
          // The shell's own copy of a shared library is what the page runs (it is provided first):
          // the chunks of its 'provide' module, not those of the fallbacks webpack also writes.
          if (module.constructor.name !== 'ProvideSharedModule' || !EVERY_PAGE.test(module._name)) continue;
          for (const block of module.blocks) {
            for (const chunk of compilation.chunkGraph.getBlockChunkGroup(block)?.chunks ?? []) {
              for (const file of chunk.files) if (file.endsWith('.js')) scripts.add(file);
            }
          }
        }
        const publicPath = compilation.outputOptions.publicPath;
        // After main.js, which starts the page and is wanted first.
        tags.headTags.push(...[...scripts].sort().map((file) => HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href: `${publicPath}${file}`, fetchpriority: 'low' })));
        return tags;
      });
    });
  }
}
