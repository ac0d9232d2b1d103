import express, { type Router } from 'express';

/**
 * The chrome every page a public link opens shares (a document request's upload page, a
 * signer's signing page): one narrow column that reads on a 390 px phone, the firm's name and
 * the subject in the header, cards, 44 px touch targets, muted text, errors and the final
 * message. Each page adds its own rules after these.
 */
export const PUBLIC_LINK_PAGE_STYLES = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2937; background: #f3f4f6; }
  main { max-width: 560px; margin: 0 auto; padding: 16px; }
  header h1 { font-size: 1.1rem; margin: 0 0 4px; color: #2563eb; }
  header h2 { font-size: 1.35rem; margin: 0 0 8px; }
  .muted { color: #6b7280; font-size: .9rem; }
  button, .button { font: inherit; border: 0; border-radius: 8px; padding: 10px 14px; min-height: 44px; cursor: pointer; background: #2563eb; color: #fff; display: inline-flex; align-items: center; }
  button.secondary { background: #e5e7eb; color: #1f2937; }
  .error { color: #b91c1c; font-size: .9rem; margin-top: 6px; }
  .message { padding: 12px; border-radius: 8px; background: #fff; }
  .message.done { background: #dcfce7; color: #166534; }`;

/** The whole page: no data of its own (its script reads the link from the address and calls the public calls), so it needs no sign-in, shell or federated remote. */
export function publicLinkPageHtml(page: { title: string; styles: string; scriptPath: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${page.title}</title>
<style>${PUBLIC_LINK_PAGE_STYLES}
${page.styles}
</style>
</head>
<body>
<main id="app"><p class="muted">Loading…</p></main>
<script src="${page.scriptPath}"></script>
</body>
</html>
`;
}

/**
 * Serves a public link page under `basePath` (e.g. "/sign/"): its script at
 * `{basePath}assets/page.js` and the page at each of `pagePaths` (relative to basePath, e.g.
 * ":token"). The page is never cached and never sends the link on as a referrer.
 */
export function createPublicLinkPageRouter(page: { basePath: string; title: string; styles: string; script: string; pagePaths: readonly string[] }): Router {
  const router = express.Router();
  const scriptPath = `${page.basePath}assets/page.js`;
  const html = publicLinkPageHtml({ title: page.title, styles: page.styles, scriptPath });
  router.get(scriptPath, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(page.script);
  });
  for (const path of page.pagePaths) {
    router.get(`${page.basePath}${path}`, (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.type('html').send(html);
    });
  }
  return router;
}
