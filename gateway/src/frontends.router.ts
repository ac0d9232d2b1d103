import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Response } from 'express';
import { SHORT_NAME_PATTERN } from '@ledgerline/contracts/identity.contracts.ts';
import { precompressedFiles, sendCompressed } from './precompressed.ts';
import { homePage } from './home-page.ts';
import { firmSignInPage, type FirmSignInInfo } from './sign-in-page.ts';

export interface FrontendsRouterOptions {
  /** The repository's frontends folder; each app's build is in {frontendsDir}/{app}/dist. */
  frontendsDir: string;
  /** Remote names the shell loads at run time, each served from /remotes/{name}/. */
  remotes: readonly string[];
  /**
   * A firm's public facts (identity's /api/{tenant}/info), null for an unknown or inactive firm:
   * with it, /{tenant}/login is served with the firm's sign-in page in its first HTML.
   */
  firmSignIn?: (shortName: string) => Promise<FirmSignInInfo | null>;
}

/** Webpack names built files [name].[contenthash:16].ext; those never change in place. */
const HASHED_FILE = /\.[0-9a-f]{16}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Entry points (index.html, remoteEntry.js, mf-manifest.json) must be revalidated each load. */
const REVALIDATE = 'no-cache';
/** Paths that belong to the API and realtime layers: never answered with the shell page. */
const NOT_SPA = /^\/(api|socket\.io|remotes)(\/|$)/;
/** A firm's own sign-in page (the access remote's /:tenant/login; /admin/login is the platform's). */
const FIRM_SIGN_IN = /^\/([^/]+)\/login\/?$/;
/** The home every sign-in lands on: the Dashboard, at / or /{tenant}/dashboard. */
const HOME = /^\/(?:([^/]+)\/dashboard\/?)?$/;

/** A firm's short name in a path: in the form firms are created with, and not the platform's own 'admin'. */
function isFirmShortName(shortName: string): boolean {
  return shortName !== 'admin' && SHORT_NAME_PATTERN.test(shortName);
}

/**
 * Serves the built frontends: the remote list the shell reads at boot, each remote's bundle,
 * and the shell with an index.html fallback for client-side routes. Mount it last.
 */
export function createFrontendsRouter(options: FrontendsRouterOptions): express.Router {
  const router = express.Router();
  const remotes = [...options.remotes];
  const shellDist = path.join(options.frontendsDir, 'shell', 'dist');
  const shellIndex = path.join(shellDist, 'index.html');

  router.get('/frontends.json', async (req, res) => {
    const entries = await Promise.all(
      remotes.map(async (name) => ({ name, manifestUrl: `/remotes/${name}/mf-manifest.json`, ...(await readDeclarations(options.frontendsDir, name)) })),
    );
    res.set('Cache-Control', REVALIDATE);
    sendCompressed(req, res, JSON.stringify({ remotes: entries }), 'json');
  });

  for (const name of remotes) {
    router.use(`/remotes/${name}`, staticFiles(path.join(options.frontendsDir, name, 'dist')));
  }

  router.use(staticFiles(shellDist));

  router.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path) || !req.accepts('html')) return next();
    res.set('Cache-Control', REVALIDATE);
    const page = await pageWithFirstScreen(req.path).catch(() => null);
    if (page) return sendCompressed(req, res, page, 'html');
    // A shell that is not built yet is a plain 404 from the gateway, not a crash.
    res.sendFile(shellIndex, (error?: Error & { status?: number }) => {
      if (!error || res.headersSent) return;
      next(error.status === 404 ? undefined : error);
    });
  });

  /**
   * The shell's page with the first screen of `urlPath` in it (a firm's sign-in, the home), or
   * null to serve the plain shell; it rejects when the shell is not built.
   */
  function pageWithFirstScreen(urlPath: string): Promise<string | null> {
    const signIn = FIRM_SIGN_IN.exec(urlPath);
    if (signIn) return firmSignInHtml(signIn[1]!);
    const home = HOME.exec(urlPath);
    return home ? homeHtml(home[1]) : Promise.resolve(null);
  }

  /** The shell's page with the firm's sign-in in it; null for no such firm, or for the platform's own sign-in. */
  async function firmSignInHtml(shortName: string): Promise<string | null> {
    if (!options.firmSignIn || !isFirmShortName(shortName)) return null;
    const [firm, indexHtml] = await Promise.all([options.firmSignIn(shortName), readFile(shellIndex, 'utf8')]);
    return firm?.isActive ? firmSignInPage(indexHtml, firm) : null;
  }

  /**
   * The shell's page with the home's first screen in it (`shortName` undefined for /); null for
   * the platform's dashboard. index.html is read per page: it is small, and a rebuild while the
   * gateway runs is picked up.
   */
  async function homeHtml(shortName: string | undefined): Promise<string | null> {
    if (shortName !== undefined && !isFirmShortName(shortName)) return null;
    return homePage(await readFile(shellIndex, 'utf8'));
  }

  return router;
}

/**
 * A remote's page declarations (routes.json of its build: routes and nav items), which let
 * the shell load the remote only when one of its pages is visited; nothing when the build
 * has none, and the shell then loads that remote at boot. Read per request: a rebuild
 * while the gateway runs is picked up, and the file is small.
 */
async function readDeclarations(frontendsDir: string, remote: string): Promise<{ routes?: unknown; navItems?: unknown; loadOnSignIn?: true }> {
  try {
    const { routes, navItems, loadOnSignIn } = JSON.parse(await readFile(path.join(frontendsDir, remote, 'dist', 'routes.json'), 'utf8')) as { routes?: unknown; navItems?: unknown; loadOnSignIn?: unknown };
    if (!Array.isArray(routes)) return {};
    return { routes, navItems: Array.isArray(navItems) ? navItems : [], ...(loadOnSignIn === true ? { loadOnSignIn } : {}) };
  } catch {
    return {};
  }
}

function cacheControl(fileName: string): string {
  return HASHED_FILE.test(fileName) ? IMMUTABLE : REVALIDATE;
}

/** The build's brotli/gzip copies first (see precompressed.ts), else the file itself. */
function staticFiles(root: string): express.Handler {
  const plain = express.static(root, {
    // index.html goes out through the fallback, so it always carries the revalidate header.
    index: false,
    setHeaders: (res: Response, filePath: string) => {
      res.set('Cache-Control', cacheControl(path.basename(filePath)));
    },
  });
  const compressed = precompressedFiles(root, cacheControl);
  return (req, res, next) => compressed(req, res, (error?: unknown) => (error ? next(error) : plain(req, res, next)));
}
