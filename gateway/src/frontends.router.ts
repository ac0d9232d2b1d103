import path from 'node:path';
import express, { type Response } from 'express';

export interface FrontendsRouterOptions {
  /** The repository's frontends folder; each app's build is in {frontendsDir}/{app}/dist. */
  frontendsDir: string;
  /** Remote names the shell loads at run time, each served from /remotes/{name}/. */
  remotes: readonly string[];
}

/** Webpack names built files [name].[contenthash:16].ext; those never change in place. */
const HASHED_FILE = /\.[0-9a-f]{16}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Entry points (index.html, remoteEntry.js, mf-manifest.json) must be revalidated each load. */
const REVALIDATE = 'no-cache';
/** Paths that belong to the API and realtime layers: never answered with the shell page. */
const NOT_SPA = /^\/(api|socket\.io|remotes)(\/|$)/;

/**
 * Serves the built frontends: the remote list the shell reads at boot, each remote's bundle,
 * and the shell with an index.html fallback for client-side routes. Mount it last.
 */
export function createFrontendsRouter(options: FrontendsRouterOptions): express.Router {
  const router = express.Router();
  const remotes = [...options.remotes];
  const shellDist = path.join(options.frontendsDir, 'shell', 'dist');
  const shellIndex = path.join(shellDist, 'index.html');

  router.get('/frontends.json', (_req, res) => {
    res.set('Cache-Control', REVALIDATE);
    res.json({ remotes: remotes.map((name) => ({ name, manifestUrl: `/remotes/${name}/mf-manifest.json` })) });
  });

  for (const name of remotes) {
    router.use(`/remotes/${name}`, staticFiles(path.join(options.frontendsDir, name, 'dist')));
  }

  router.use(staticFiles(shellDist));

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path) || !req.accepts('html')) return next();
    res.set('Cache-Control', REVALIDATE);
    // A shell that is not built yet is a plain 404 from the gateway, not a crash.
    res.sendFile(shellIndex, (error?: Error & { status?: number }) => {
      if (!error || res.headersSent) return;
      next(error.status === 404 ? undefined : error);
    });
  });

  return router;
}

function staticFiles(root: string): express.Handler {
  return express.static(root, {
    // index.html goes out through the fallback, so it always carries the revalidate header.
    index: false,
    setHeaders: (res: Response, filePath: string) => {
      res.set('Cache-Control', HASHED_FILE.test(path.basename(filePath)) ? IMMUTABLE : REVALIDATE);
    },
  });
}
