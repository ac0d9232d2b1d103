// Leaves out of the shell's style sheets the rules of PrimeReact's components that no app
// shows. PrimeReact's theme styles all ~90 components (240 KB with PrimeIcons); a page's browser
// parses all of it before its first paint, and on a phone that was one of the longest tasks of
// the home's start. The apps use about half of them.
//
// A component counts as shown when its class name (`p-<component>`) appears in any script the
// shell bundles (every PrimeReact module any app uses is provided by the shell, with the class
// names it renders) or in any app's sources (markup that borrows a component's look). A rule goes
// only when each of its selectors names a component nothing shows.
import { globSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import postcss from 'postcss';

const require = createRequire(import.meta.url);
const FRONTENDS = path.resolve(import.meta.dirname, '../..');
const PRIMEREACT = path.dirname(require.resolve('primereact/package.json'));

/** PrimeReact's component folders (button, datatable, megamenu, ...): the names of their root classes. */
function primeReactComponents() {
  return readdirSync(PRIMEREACT, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * `css` without the rules whose every selector names a class `p-<component>` (or `p-<component>-…`)
 * of a component in `components` that `referencing` never mentions.
 */
export function withoutUnusedComponentRules(css, components, referencing) {
  const unused = components.filter((component) => !new RegExp(`p-${component}(?![a-z])`).test(referencing));
  if (!unused.length) return css;
  const namesUnused = new RegExp(`\\.p-(?:${unused.join('|')})(?![a-z])`);
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (rule.selectors.every((selector) => namesUnused.test(selector))) rule.remove();
  });
  // An at-rule (@media, @layer) left without rules goes too.
  root.walkAtRules((atRule) => {
    if (atRule.nodes && atRule.nodes.length === 0) atRule.remove();
  });
  return root.toString();
}

export class UnusedThemeRulesPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.compilation.tap('UnusedThemeRulesPlugin', (compilation) => {
      // Before the hashes in the file names are computed from the content.
      compilation.hooks.processAssets.tap({ name: 'UnusedThemeRulesPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE }, (assets) => {
        const names = Object.keys(assets);
        const referencing = [
          ...names.filter((name) => name.endsWith('.js')).map((name) => assets[name].source().toString()),
          ...globSync('*/src/**/*.{ts,tsx,css}', { cwd: FRONTENDS }).map((file) => readFileSync(path.join(FRONTENDS, file), 'utf8')),
        ].join('\n');
        const components = primeReactComponents();
        for (const name of names.filter((file) => file.endsWith('.css'))) {
          const css = assets[name].source().toString();
          const kept = withoutUnusedComponentRules(css, components, referencing);
          if (kept !== css) compilation.updateAsset(name, new sources.RawSource(kept));
        }
      });
    });
  }
}
