// Lists the shell's style sheets (the theme, PrimeReact's and the shell's own, which the shell's
// start imports) in its index.html, at the end of the body. Requested by the app's start instead,
// one of them (the 240 KB theme) cost 15-20 ms of the processor in that one request, inside the
// task that starts the app (four times that on a phone). Listed after the page's content, they
// do not hold its first paint; the app's start, a deferred script, waits for them, and its style
// loader finds them on the page and does not request them again.
import HtmlWebpackPlugin from 'html-webpack-plugin';

export class AppStylesheetsPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('AppStylesheetsPlugin', (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap('AppStylesheetsPlugin', (tags) => {
        // In the chunk group's order, which is the order the style loader applies them in (the
        // theme first, the app's own rules over it).
        const sheets = new Set();
        // The entry modules' own imports (main.ts imports the app's start): their chunks' CSS.
        for (const [, entry] of compilation.entries) {
          for (const dependency of entry.dependencies) {
            for (const block of compilation.moduleGraph.getModule(dependency)?.blocks ?? []) {
              for (const chunk of compilation.chunkGraph.getBlockChunkGroup(block)?.chunks ?? []) {
                for (const file of chunk.files) if (file.endsWith('.css')) sheets.add(file);
              }
            }
          }
        }
        const publicPath = compilation.outputOptions.publicPath;
        tags.bodyTags.push(...[...sheets].map((file) => HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'stylesheet', href: `${publicPath}${file}` })));
        return tags;
      });
    });
  }
}
