// GET /docs, the API reference page (docs-page/page.ts), with its stylesheet and the icon: plain
// HTML with the viewer's built stylesheet and a few rules of its own, no script, no third-party
// host, the viewer's strict Content-Security-Policy; compressed once with the viewer's build
// settings and sent br or gzip as the client accepts, as the viewer's own files are.

import express, { type Router } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_DIR } from '../viewer/dist-dir.ts';
import type { BuiltAssets } from '../viewer/index-html.ts';
import { compressText } from '../viewer/precompress.ts';
import { docsPageHtml, VIEWER_STYLES } from './docs-page/page.ts';
import type { OpenApiDocument } from './openapi-types.ts';
import { loadOnChange, type ViewerAsset } from './viewer-build.ts';
import { securityHeaders, sendCoded } from './viewer-files.ts';

const STYLESHEET = readFileSync(new URL('./docs-page.css', import.meta.url), 'utf8');
/** The viewer's icon, as the image holds it: served with the page whether or not the viewer is built. */
const ICON = readFileSync(new URL('../viewer/favicon.svg', import.meta.url));
/** Pages kept, one per viewer stylesheet (one per build). */
const PAGES_MAX = 8;

/** A text as the viewer's build files are held: as is, and br and gzip. */
function coded(text: string, type: string): ViewerAsset {
  const identity = Buffer.from(text);
  const { br, gz } = compressText(identity);
  return { type, identity, br, gzip: gz };
}

/** GET /docs, its stylesheet and the icon (also at /favicon.ico), outside the API prefix. */
export function docsPageRouter(document: OpenApiDocument, distDir = DIST_DIR): Router {
  const html = docsPageHtml(document);
  const manifestFile = join(distDir, 'manifest.json');
  const manifest = loadOnChange(manifestFile, () => readFileSync(manifestFile, 'utf8'));
  const pages = new Map<string, ViewerAsset>();
  /** The page naming the viewer's current stylesheet; without a build, unstyled but whole. */
  const page = (): ViewerAsset => {
    const built = manifest();
    const css = built === undefined ? '' : (JSON.parse(built) as BuiltAssets).css;
    let made = pages.get(css);
    if (!made) {
      if (pages.size > PAGES_MAX) pages.clear();
      const link = css ? `<link rel="stylesheet" href="/assets/${css}" />` : '';
      made = coded(html.replace(VIEWER_STYLES, link), 'text/html; charset=utf-8');
      pages.set(css, made);
    }
    return made;
  };
  const stylesheet = coded(STYLESHEET, 'text/css; charset=utf-8');
  const router = express.Router();
  router.get('/docs', (req, res) => sendCoded(req, res, page(), 'no-cache'));
  router.get('/docs/docs.css', (req, res) => sendCoded(req, res, stylesheet, 'public, max-age=300'));
  // Browsers ask /favicon.ico of any page without an icon link: never a 404.
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    securityHeaders(res);
    res.set('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(ICON);
  });
  return router;
}
