// The viewer as sent, read and shared (issue 19, points 7 to 11): its bytes on the wire, axe-core
// on every page and state, a phone in portrait, controls that say what they can do in each state,
// and the link-preview tags of seed pages. Same stack as viewer.test.ts (real API, Redis,
// generator worker, Debian's Chromium).
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bearer, call } from '../support/http.ts';
import { newKey } from '../support/keys.ts';
import { AXE_CONTEXT, axeViolations } from '../support/viewer-axe.ts';
import { screenshot, waitForState } from '../support/viewer-page.ts';
import { viewerStack } from '../support/viewer-stack.ts';

const MAIN = 224593721;
const OLDEST = 5_300_001;
const WINDOWED = 5_300_002;
const FOREVER = 5_300_003;
const QUEUED = 5_300_004;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
/** First visits measured against this (issue 19.7). */
const FIRST_VISIT_MAX = 30 * 1024;

const stack = viewerStack({ name: 'ux', seeds: [OLDEST, MAIN, WINDOWED] });
const { context, openPage } = stack;

/** Opens a window on a seed through the plugin API, as a game server does. */
async function blockByRound(seed: number): Promise<void> {
  const key = await newKey(stack.api, 'http');
  const report = await call(`${stack.api.base}/plugin/v1/report`, {
    headers: bearer(key.credential),
    body: { event: 'round_start', seed, port: 7777 },
  });
  expect(report.status).toBe(200);
}

async function openIn(page: Page, path: string, state: string, pageId = 'map'): Promise<void> {
  await page.goto(`${stack.api.url}${path}`);
  await waitForState(page, state, { page: pageId });
}

describe('assets sent compressed (issue 19.7)', () => {
  it('a first visit gets its JS and CSS precompressed, hashed, cached for a year, in at most 30 KB', async () => {
    const c = await context();
    const page = await c.newPage();
    const assets: Response[] = [];
    page.on('response', (r) => {
      if (/\/assets\/[^/]+\.(js|css)$/.test(new URL(r.url()).pathname)) assets.push(r);
    });
    await openIn(page, `/seed/${MAIN}`, 'ready');
    expect(assets.map((r) => new URL(r.url()).pathname.split('.').pop()).sort()).toEqual(['css', 'js']);
    let wire = 0;
    for (const r of assets) {
      const headers = await r.allHeaders();
      expect(r.status()).toBe(200);
      expect(new URL(r.url()).pathname).toMatch(/^\/assets\/(main|style)-[A-Z0-9]{8}\.(js|css)$/);
      expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(headers['vary']).toBe('Accept-Encoding');
      expect(['br', 'gzip']).toContain(headers['content-encoding']);
      const sizes = await r.request().sizes();
      expect(sizes.responseBodySize).toBe(Number(headers['content-length']));
      wire += sizes.responseBodySize;
    }
    // Chromium asks for br only over https; the same files as a br client gets them.
    let brWire = 0;
    for (const r of assets) {
      const res = await fetch(r.url(), { headers: { 'accept-encoding': 'br' } });
      expect(res.headers.get('content-encoding')).toBe('br');
      brWire += Number(res.headers.get('content-length'));
      await res.arrayBuffer();
    }
    console.log(`first visit JS + CSS on the wire: ${wire} B as Chromium asked, ${brWire} B with br`);
    expect(brWire).toBeGreaterThan(0);
    expect(brWire).toBeLessThanOrEqual(FIRST_VISIT_MAX);
    // No source map is served or named.
    for (const r of assets) {
      expect(await r.text()).not.toContain('sourceMappingURL');
      expect((await fetch(`${r.url()}.map`)).status).toBe(404);
    }
  });

  it('answers an unknown page with an HTML 404 page, and unknown API paths with JSON', async () => {
    const c = await context();
    const page = await c.newPage();
    for (const path of ['/assets/nope.js', '/seed/abc/x', '/nope']) {
      const res = await page.goto(`${stack.api.url}${path}`);
      expect(res?.status(), path).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Page not found');
    }
    await page.getByRole('link', { name: 'Open the map viewer' }).click();
    await waitForState(page, 'idle', { page: 'map' });
    const api = await fetch(`${stack.api.base}/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'not found' });
  });
});

describe('share (issue 19.11)', () => {
  /** The page shell as a crawler gets it: no script run. */
  const shell = async (seed: number) => (await fetch(`${stack.api.url}/seed/${seed}`)).text();

  it('names a seed in its Open Graph and Twitter tags, never a blocked one', async () => {
    const shown = await shell(MAIN);
    for (const tag of ['og:title', 'og:description'])
      expect(shown).toMatch(new RegExp(`<meta property="${tag}" content="[^"]*${MAIN}[^"]*" />`));
    for (const tag of ['twitter:title', 'twitter:description'])
      expect(shown).toMatch(new RegExp(`<meta name="${tag}" content="[^"]*${MAIN}[^"]*" />`));

    await blockByRound(WINDOWED);
    await stack.api.store.addToBlocklist(FOREVER);
    for (const seed of [WINDOWED, FOREVER]) {
      const html = await shell(seed);
      expect(html, `page of blocked ${seed}`).not.toContain(String(seed));
      expect(html).toContain('<meta property="og:title" content="seedblock – SCP: SL map viewer" />');
    }
  });
});

describe('zero axe-core violations (issue 19.8)', () => {
  it('on every page and state', async () => {
    const c = await context(AXE_CONTEXT);
    const page = await c.newPage();
    const found: Record<string, string[]> = {};
    const check = async (name: string) => {
      found[name] = await axeViolations(page);
      await screenshot(page, `axe-${name}`);
    };
    await openIn(page, `/seed/${MAIN}`, 'ready');
    await check('map-ready');
    await openIn(page, '/seed/12ab', 'invalid');
    await check('invalid');
    await openIn(page, `/seed/${FOREVER}`, 'blocked-permanent');
    await check('blocked-permanent');
    await openIn(page, `/seed/${WINDOWED}`, 'blocked');
    await check('blocked');
    await stack.stopWorker();
    try {
      await openIn(page, `/seed/${QUEUED}`, 'generating');
      await check('generating');
    } finally {
      await stack.startWorker();
    }
    await openIn(page, '/seeds', 'ready', 'seeds');
    await check('seeds');
    await openIn(page, '/stats', 'ready', 'stats');
    await page.locator('section[data-section="overview"]').waitFor();
    await check('stats');

    const phone = await (await context({ ...PHONE, ...AXE_CONTEXT })).newPage();
    await phone.goto(`${stack.api.url}/seed/${MAIN}`);
    await waitForState(phone, 'ready', { page: 'map' });
    await phone.getByRole('button', { name: 'Seed & filters' }).tap();
    await phone.locator('#seed-input').waitFor({ state: 'visible' });
    found['phone-panel'] = await axeViolations(phone);
    await screenshot(phone, 'axe-phone-panel');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });
});
