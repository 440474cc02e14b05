// Serves the built viewer: hashed assets under /assets (cached for a year) and the page shell for
// the app's routes (never cached), all with a strict Content-Security-Policy.

import express from 'express';
import type { NextFunction, Request, Response, Router } from 'express';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_DIR } from '../viewer/dist-dir.ts';
import { API_PREFIX_TOKEN, BASE_TOKEN } from '../viewer/index-html.ts';

export interface ViewerRouterOptions {
  /** Path prefix of the read API as the browser must call it, e.g. "/api". */
  apiPrefix: string;
  /** Build output; defaults to viewer/dist. */
  distDir?: string;
}

/** Page routes of the single-page app (history routing), relative to the mount point. */
export const VIEWER_ROUTES = ['/', '/seed/:seed', '/seeds', '/stats'] as const;

// No inline script or style anywhere; data: and blob: images serve the PNG download.
export const VIEWER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const NOT_BUILT_MESSAGE =
  'The map viewer is not built. Run its build script (npm run build:viewer, i.e. tsx viewer/build.ts) and reload.\n';

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', VIEWER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
}

/** Reads a file of the build, re-reading only when it changed (a rebuild while running). */
export function builtFileLoader(file: string): () => string | undefined {
  let cached: { mtimeMs: number; html: string } | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      cached = undefined;
      return undefined;
    }
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(file, 'utf8') };
    return cached.html;
  };
}

function notBuilt(res: Response): void {
  securityHeaders(res);
  res.status(503).setHeader('Cache-Control', 'no-store').type('text/plain').send(NOT_BUILT_MESSAGE);
}

export function viewerRouter(opts: ViewerRouterOptions): Router {
  const distDir = opts.distDir ?? DIST_DIR;
  const assetsDir = join(distDir, 'assets');
  const shell = builtFileLoader(join(distDir, 'index.html'));
  const apiPrefix = escapeAttr(opts.apiPrefix.replace(/\/+$/, ''));
  const router = express.Router();

  router.use(
    '/assets',
    (_req: Request, res: Response, next: NextFunction) => {
      if (shell() === undefined) return notBuilt(res);
      securityHeaders(res);
      next();
    },
    express.static(assetsDir, {
      index: false,
      dotfiles: 'ignore',
      fallthrough: true,
      // File names carry a content hash, so a year-long immutable cache is safe.
      immutable: true,
      maxAge: '365d',
    }),
    (_req: Request, res: Response) => {
      res.status(404).setHeader('Cache-Control', 'no-store').type('text/plain').send('Not found\n');
    },
  );

  const sendShell = (req: Request, res: Response): void => {
    const html = shell();
    if (html === undefined) return notBuilt(res);
    const base = escapeAttr(req.baseUrl.replace(/\/+$/, ''));
    securityHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    res
      .status(200)
      .type('html')
      .send(html.split(BASE_TOKEN).join(base).split(API_PREFIX_TOKEN).join(apiPrefix));
  };
  router.get([...VIEWER_ROUTES], sendShell);
  return router;
}
