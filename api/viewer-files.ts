// Serves the built viewer: hashed assets under /assets (cached for a year, br or gzip as the
// browser accepts), the page shell for the app's routes (never cached) with its title and share
// tags, and an HTML 404 page for any other path outside the API, all with a strict
// Content-Security-Policy.

import express from 'express';
import type { NextFunction, Request, Response, Router } from 'express';
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { DIST_DIR } from '../viewer/dist-dir.ts';
import { API_PREFIX_TOKEN, BASE_TOKEN, SHARE_TOKEN } from '../viewer/index-html.ts';
import { SeedParamSchema } from './schemas.ts';
import { mapCoding } from './http/content-coding.ts';
import { RETRY_SOON_SECONDS } from './http/http-error.ts';
import { viewerBuildLoader, type ViewerAsset, type ViewerBuild } from './viewer-build.ts';
import { previewPath } from './routes/preview.ts';
import { escapeHtml, shareTags, type SharedSeed } from './viewer-share.ts';

export interface ViewerRouterOptions {
  /** Path prefix of the read API as the browser must call it, e.g. "/api". */
  apiPrefix: string;
  /** Build output; defaults to viewer/dist. */
  distDir?: string;
  /** Serve the build's source maps (VIEWER_SOURCE_MAPS); off, a request for one is a 404. */
  sourceMaps?: boolean;
  /**
   * Whether a seed may be named in its page's share tags now; false on any doubt (a blocked seed,
   * Redis down). Without it, no page names its seed.
   */
  seedShareable?: (seed: number) => Promise<boolean>;
  /**
   * The origin a page's absolute URLs (its share tags) are written with, or null to write none
   * (http/public-origin.ts). Without it, no page writes any.
   */
  publicOrigin?: (req: IncomingMessage) => string | null;
}

/** VIEWER_DIST_DIR, else viewer/dist. */
export const viewerDistDir = (configured: string | undefined): string => configured ?? DIST_DIR;

/** Whether a viewer build is there to serve (its page shell exists). */
export const viewerBuilt = (distDir: string): boolean => existsSync(join(distDir, 'index.html'));

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

/** File names carry a content hash, so a year-long immutable cache is safe. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const NOT_BUILT_MESSAGE =
  'The map viewer is not built. Run its build script (npm run build:viewer, i.e. tsx viewer/build.ts) and reload.\n';

export function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', VIEWER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
}

function notBuilt(res: Response): void {
  securityHeaders(res);
  res
    .status(503)
    .set({ 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_SOON_SECONDS) })
    .type('text/plain')
    .send(NOT_BUILT_MESSAGE);
}

/** The asset's bytes in the coding the request accepts: br, else gzip, else as built. */
function pickBody(req: Request, asset: ViewerAsset): { body: Buffer; coding?: 'br' | 'gzip' } {
  const coding = asset.br || asset.gzip ? mapCoding(req) : null;
  if (coding === 'br' && asset.br) return { body: asset.br, coding };
  if (coding && asset.gzip) return { body: asset.gzip, coding: 'gzip' };
  return { body: asset.identity };
}

/**
 * Sends a file of the build, or a text made like one (the API reference page), in the coding the
 * request accepts, with the viewer's headers.
 */
export function sendCoded(req: Request, res: Response, asset: ViewerAsset, cacheControl: string): void {
  const { body, coding } = pickBody(req, asset);
  securityHeaders(res);
  res.setHeader('Cache-Control', cacheControl);
  if (asset.br || asset.gzip) res.setHeader('Vary', 'Accept-Encoding');
  if (coding) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Content-Length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

function sendAsset(req: Request, res: Response, build: ViewerBuild): void {
  const asset = build.assets.get(req.path.slice('/assets/'.length));
  if (asset === undefined) return notFoundPage(req, res, build);
  sendCoded(req, res, asset, ASSET_CACHE_CONTROL);
}

const fillBase = (html: string, req: Request): string =>
  html.split(BASE_TOKEN).join(escapeHtml(req.baseUrl.replace(/\/+$/, '')));

function notFoundPage(req: Request, res: Response, build: ViewerBuild): void {
  securityHeaders(res);
  res.status(404).setHeader('Cache-Control', 'no-store');
  if (build.notFound === undefined) res.type('text/plain').send('Not found\n');
  else res.type('html').send(fillBase(build.notFound, req));
}

export function viewerRouter(opts: ViewerRouterOptions): Router {
  const load = viewerBuildLoader(opts.distDir ?? DIST_DIR, opts.sourceMaps ?? false);
  const apiPrefix = opts.apiPrefix.replace(/\/+$/, '');
  const apiPath = apiPrefix.toLowerCase();
  const router = express.Router();

  const withBuild =
    (handler: (req: Request, res: Response, build: ViewerBuild) => void | Promise<void>) =>
    (req: Request, res: Response): void | Promise<void> => {
      const build = load();
      return build === undefined ? notBuilt(res) : handler(req, res, build);
    };

  /** The seed a page names (/seed/N or /?seed=N): only a valid one the server may show now. */
  const shareableSeed = async (req: Request): Promise<SharedSeed | undefined> => {
    const raw = req.params.seed ?? (req.path === '/' ? req.query.seed : undefined);
    if (raw === undefined) return undefined;
    const parsed = SeedParamSchema.safeParse(raw);
    if (!parsed.success || !opts.seedShareable) return undefined;
    const shareable = await opts.seedShareable(parsed.data).catch(() => false);
    if (!shareable) return undefined;
    const seed = parsed.data;
    const origin = opts.publicOrigin?.(req) ?? null;
    if (origin === null) return { seed, urls: null };
    const base = origin + req.baseUrl.replace(/\/+$/, '');
    return { seed, urls: { page: `${base}/seed/${seed}`, image: base + previewPath(seed) } };
  };

  const sendShell = async (req: Request, res: Response, build: ViewerBuild): Promise<void> => {
    const shared = await shareableSeed(req);
    securityHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    const html = fillBase(build.shell, req)
      .split(API_PREFIX_TOKEN)
      .join(escapeHtml(apiPrefix))
      .replace(SHARE_TOKEN, shareTags(shared));
    res.status(200).type('html').send(html);
  };

  router.get('/assets/*path', withBuild(sendAsset));
  router.get([...VIEWER_ROUTES], withBuild(sendShell));
  // Any other page outside the API does not exist; the API (and any other method) keeps the
  // JSON errors.
  router.use((req: Request, res: Response, next: NextFunction) => {
    // Lower case, as express matches the API's prefix.
    const path = (req.baseUrl + req.path).toLowerCase();
    const inApi = apiPath === '' || path === apiPath || path.startsWith(`${apiPath}/`);
    if (inApi || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    return withBuild(notFoundPage)(req, res);
  });
  return router;
}
