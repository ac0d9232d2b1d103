import { describe, expect, it } from '@jest/globals';
// @ts-expect-error: a plain ES module of the build, without type declarations
import { withoutUnusedComponentRules } from '../webpack/unused-theme-rules.plugin.mjs';

const THEME = `@layer primereact {
  .p-button { color: blue; }
  .p-button:enabled:hover .p-button-label { color: navy; }
  .p-megamenu { display: flex; }
  .p-megamenu .p-megamenu-root-list > .p-menuitem { padding: 0; }
  .p-megamenu, .p-button-group { margin: 0; }
  .p-treenode { padding: 1px; }
  .p-tree-toggler { width: 2rem; }
  @media screen and (max-width: 960px) {
    .p-megamenu.p-megamenu-mobile .p-megamenu-button { display: flex; }
  }
  .p-component { font-size: 1rem; }
}
.pi-check:before { content: "\\e909"; }
`;

describe('the theme without the rules of components no app shows', () => {
  const kept = withoutUnusedComponentRules(THEME, ['button', 'megamenu', 'tree'], 'className: "p-button p-component"');

  it('drops a rule only when each of its selectors names an unused component', () => {
    expect(kept).not.toContain('.p-megamenu {');
    expect(kept).not.toContain('.p-megamenu-root-list');
    expect(kept).not.toContain('.p-tree-toggler');
    // A selector list that also names a shown part stays whole.
    expect(kept).toContain('.p-megamenu, .p-button-group');
  });

  it('keeps the rules of shown components, of classes that only start like a component, and of everything else', () => {
    expect(kept).toContain('.p-button { color: blue; }');
    expect(kept).toContain('.p-button:enabled:hover .p-button-label');
    expect(kept).toContain('.p-treenode');
    expect(kept).toContain('.p-component');
    expect(kept).toContain('.pi-check:before');
  });

  it('drops an at-rule left empty', () => {
    expect(kept).not.toContain('@media');
    expect(kept).toContain('@layer primereact');
  });

  it('changes nothing when every component is shown', () => {
    expect(withoutUnusedComponentRules(THEME, ['button', 'megamenu', 'tree'], 'p-button p-megamenu p-tree')).toBe(THEME);
  });
});
