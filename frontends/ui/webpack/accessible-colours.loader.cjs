// The PrimeReact theme's text-on-colour pairs are below the 4.5:1 contrast WCAG AA asks of
// text: white on its primary blue (#3b82f6, 3.7:1: buttons, tabs, the avatar, links) and on
// its severity colours (tags, severity buttons: green 2.3:1, sky 2.8:1, orange 2.8:1, red
// 3.8:1). Each is moved two Tailwind shades darker (500 → 700; hover and active 600/700 →
// 800), all at least 4.8:1 with white. Plain string replacement, darkest first so a shade is
// moved once: the theme writes these colours as literal hex values.
const SHADES = [
  // [500, 600, 700, 800] of blue, green, sky, orange, red
  ['#3b82f6', '#2563eb', '#1d4ed8', '#1e40af'],
  ['#22c55e', '#16a34a', '#15803d', '#166534'],
  ['#0ea5e9', '#0284c7', '#0369a1', '#075985'],
  ['#f97316', '#ea580c', '#c2410c', '#9a3412'],
  ['#ef4444', '#dc2626', '#b91c1c', '#991b1b'],
];

module.exports = function accessibleColours(source) {
  let css = source;
  for (const [s500, s600, s700, s800] of SHADES) {
    css = css.replace(new RegExp(`${s700}|${s600}`, 'gi'), s800).replace(new RegExp(s500, 'gi'), s700);
  }
  return css;
};
