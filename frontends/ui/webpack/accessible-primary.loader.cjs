// The PrimeReact theme's primary blue (#3b82f6) has a contrast of 3.7:1 on white, below the
// 4.5:1 WCAG AA asks of text (buttons, links, tabs, tags, the avatar): every use of it in the
// theme is one shade darker (#2563eb, 5.2:1), and its hover shade darker again (#1d4ed8).
// Plain string replacement: the theme writes these colours as literal hex values.
module.exports = function accessiblePrimary(source) {
  return source.replace(/#2563eb/gi, '#1d4ed8').replace(/#3b82f6/gi, '#2563eb');
};
