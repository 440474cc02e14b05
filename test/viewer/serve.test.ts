import express from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexHtml } from '../../viewer/index-html.ts';
import { NOT_BUILT_MESSAGE, VIEWER_CSP, viewerRouter } from '../../api/viewer-files.ts';

// The router against a hand-made dist directory, so the test does not depend on a build.

let base = '';
let server: ReturnType<ReturnType<typeof express>['listen']>;
const dist = mkdtempSync(join(tmpdir(), 'viewer-dist-'));

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'main-ABC123.js'), 'console.log(1);\n');
  writeFileSync(
    join(dist, 'index.html'),
    indexHtml({ js: 'main-ABC123.js', css: 'style-DEF.css', icon: 'favicon-X.svg' }),
  );
  const app = express();
  app.use(viewerRouter({ apiPrefix: '/api', distDir: dist }));
  app.use('/sub', viewerRouter({ apiPrefix: '/api/"x', distDir: dist }));
  app.use('/missing', viewerRouter({ apiPrefix: '/api', distDir: join(dist, 'nope') }));
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('viewerRouter', () => {
  it.each(['/', '/seed/224593721', '/seeds', '/stats', '/seed/not-a-number'])(
    'serves the page shell at %s with CSP, nosniff and no-cache',
    async (path) => {
      const res = await fetch(base + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(VIEWER_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      expect(html).toContain('<meta name="api-prefix" content="/api" />');
      expect(html).toContain('src="/assets/main-ABC123.js"');
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|\sstyle=/);
    },
  );

  it('uses a strict policy: self only, no inline code, images also from data: and blob:', () => {
    expect(VIEWER_CSP).toContain("default-src 'self'");
    expect(VIEWER_CSP).toContain("connect-src 'self'");
    expect(VIEWER_CSP).toContain("img-src 'self' data: blob:");
    expect(VIEWER_CSP).not.toContain('unsafe-inline');
  });

  it('serves hashed assets with a long immutable cache and 404s unknown ones', async () => {
    const res = await fetch(`${base}/assets/main-ABC123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await fetch(`${base}/assets/main-OLD.js`);
    expect(missing.status).toBe(404);
  });

  it('follows its mount point and escapes the API prefix', async () => {
    const html = await (await fetch(`${base}/sub/seeds`)).text();
    expect(html).toContain('<meta name="viewer-base" content="/sub" />');
    expect(html).toContain('src="/sub/assets/main-ABC123.js"');
    expect(html).toContain('content="/api/&quot;x"');
  });

  it('answers 503 with a build hint when dist is missing', async () => {
    for (const path of ['/missing/', '/missing/assets/main-ABC123.js']) {
      const res = await fetch(base + path);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe(NOT_BUILT_MESSAGE);
    }
  });

  it('leaves other paths to the rest of the app', async () => {
    expect((await fetch(`${base}/api/maps/1`)).status).toBe(404);
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(404);
  });
});
