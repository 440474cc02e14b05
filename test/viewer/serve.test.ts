import express from 'express';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { indexHtml, notFoundHtml } from '../../viewer/index-html.ts';
import { ASSET_CACHE_CONTROL, NOT_BUILT_MESSAGE, VIEWER_CSP, viewerRouter } from '../../api/viewer-files.ts';

// The router against a hand-made dist directory, so the test does not depend on a build.

let base = '';
let server: ReturnType<ReturnType<typeof express>['listen']>;
const dist = mkdtempSync(join(tmpdir(), 'viewer-dist-'));

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  const js = Buffer.from('console.log(1);\n'.repeat(50));
  writeFileSync(join(dist, 'assets', 'main-ABC123.js'), js);
  writeFileSync(join(dist, 'assets', 'main-ABC123.js.br'), brotliCompressSync(js));
  writeFileSync(join(dist, 'assets', 'main-ABC123.js.gz'), gzipSync(js));
  writeFileSync(join(dist, 'assets', 'main-ABC123.js.map'), '{"version":3}');
  const assets = { js: 'main-ABC123.js', css: 'style-DEF.css', icon: 'favicon-X.svg' };
  writeFileSync(join(dist, 'index.html'), indexHtml(assets));
  writeFileSync(join(dist, '404.html'), notFoundHtml(assets));
  const app = express();
  // Seeds below 100 may be shown; 666 is blocked; 13 answers as Redis down does.
  const seedShareable = async (seed: number) => {
    if (seed === 13) throw new Error('connection is closed');
    return seed < 100;
  };
  // Mounted before the root one, whose 404 page would answer for them.
  app.use('/sub', viewerRouter({ apiPrefix: '/api/"x', distDir: dist, sourceMaps: true }));
  app.use('/missing', viewerRouter({ apiPrefix: '/api', distDir: join(dist, 'nope') }));
  app.use(viewerRouter({ apiPrefix: '/api', distDir: dist, seedShareable }));
  app.use((_req, res) => void res.status(404).json({ error: 'not found' }));
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** A GET whose body comes back as sent (fetch would decode the content coding). */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

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
    expect(ASSET_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('cache-control')).toBe(ASSET_CACHE_CONTROL);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const missing = await fetch(`${base}/assets/main-OLD.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['identity', null],
    ['', null],
  ])('sends the precompressed copy Accept-Encoding "%s" asks for (%s)', async (accept, coding) => {
    const res = await rawGet(`${base}/assets/main-ABC123.js`, accept);
    expect(res.status).toBe(200);
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-encoding']).toBe(coding ?? undefined);
    const file =
      coding === 'br' ? 'main-ABC123.js.br' : coding === 'gzip' ? 'main-ABC123.js.gz' : 'main-ABC123.js';
    expect(res.body.equals(readFileSync(join(dist, 'assets', file)))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
  });

  it('serves source maps only when asked to, and never the compressed copies by name', async () => {
    expect((await fetch(`${base}/assets/main-ABC123.js.map`)).status).toBe(404);
    expect((await fetch(`${base}/sub/assets/main-ABC123.js.map`)).status).toBe(200);
    expect((await fetch(`${base}/assets/main-ABC123.js.br`)).status).toBe(404);
  });

  it.each(['/nope', '/seed/abc/x', '/assets/nope.js', '/seeds/x', '/sub/nope'])(
    'answers the unknown page %s with an HTML 404 page',
    async (path) => {
      const res = await fetch(base + path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(VIEWER_CSP);
      const html = await res.text();
      expect(html).toContain('<h1>Page not found</h1>');
      expect(html).toContain(`href="${path.startsWith('/sub/') ? '/sub' : ''}/seeds"`);
    },
  );

  it('names a seed that may be shown in its title and share tags, and nothing else', async () => {
    const shown = await (await fetch(`${base}/seed/42`)).text();
    expect(shown).toContain('<title>Seed 42 – SCP: SL map</title>');
    expect(shown).toContain('<meta property="og:title" content="Seed 42 – SCP: SL map" />');
    expect(shown).toMatch(/<meta property="og:description" content="[^"]*seed 42[^"]*"/);
    expect(shown).toContain('<meta name="twitter:title" content="Seed 42 – SCP: SL map" />');
    expect(shown).toMatch(/<meta name="twitter:description" content="[^"]*seed 42[^"]*"/);
    // Blocked, Redis down, not a seed, or no check given: the generic page, no seed in it at all.
    for (const path of ['/seed/666', '/seed/13', '/seed/042x', '/sub/seed/42']) {
      const html = await (await fetch(base + path)).text();
      const seed = /\/seed\/(\d+)/.exec(path)?.[1] ?? '42';
      expect(html, path).not.toContain(seed);
      expect(html, path).toContain('<meta property="og:title" content="seedblock – SCP: SL map viewer" />');
    }
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

  it('leaves paths under the API prefix to the API and its JSON errors', async () => {
    for (const path of ['/api/maps/1', '/api', '/api/']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ error: 'not found' });
    }
  });
});
