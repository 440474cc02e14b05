// The viewer as sent, read and shared (issue 19, points 7 to 11): its bytes on the wire, axe-core
// on every page and state, a phone in portrait, controls that say what they can do in each state,
// and the link-preview tags of seed pages. Same stack as viewer.test.ts (real API, Redis,
// generator worker, Debian's Chromium).
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/api.ts';
import { AXE_CONTEXT, axeViolations } from '../support/viewer-axe.ts';
import {
  afterDraw,
  boxesOverlap,
  downloadedBytes,
  drawnLabels,
  floorBox,
  screenshot,
  saveArtifact,
  waitForState,
} from '../support/viewer-page.ts';
import { blockByRound, viewerStack } from '../support/viewer-stack.ts';
import { startPrivateRedis } from '../support/private-redis.ts';

const MAIN = 224593721;
const OLDEST = 5_300_001;
const WINDOWED = 5_300_002;
const FOREVER = 5_300_003;
const QUEUED = 5_300_004;
const QUEUED_TOO = 5_300_005;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
/** First visits measured against this (issue 19.7). */
const FIRST_VISIT_MAX = 30 * 1024;

const stack = viewerStack({ name: 'ux', seeds: [OLDEST, MAIN, WINDOWED] });
const { context } = stack;

// A seed in a round's window and one on the permanent blocklist, for every test below.
beforeAll(async () => {
  await blockByRound(stack.api, WINDOWED);
  await stack.api.store.addToBlocklist(FOREVER);
});

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
    // The stylesheet, the script and the chunks it imports; the seed list and statistics pages
    // load theirs only when opened.
    const paths = assets.map((r) => new URL(r.url()).pathname);
    expect(paths.filter((p) => /\/style-\w+\.css$/.test(p))).toHaveLength(1);
    expect(paths.filter((p) => /\/main-\w+\.js$/.test(p))).toHaveLength(1);
    expect(paths.filter((p) => /(seeds|stats)-page/.test(p))).toEqual([]);
    let wire = 0;
    for (const r of assets) {
      const headers = await r.allHeaders();
      expect(r.status()).toBe(200);
      expect(new URL(r.url()).pathname).toMatch(/^\/assets\/[a-z-]+-[A-Z0-9]{8}\.(js|css)$/);
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
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Open the map viewer' }).click();
    await waitForState(page, 'idle', { page: 'home' });
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

    for (const seed of [WINDOWED, FOREVER]) {
      const html = await shell(seed);
      expect(html, `page of blocked ${seed}`).not.toContain(String(seed));
      expect(html).toContain('<meta property="og:title" content="seedblock – SCP: SL map viewer" />');
    }
  });
});

describe('zero axe-core violations (issue 19.8)', () => {
  // One test per page or state: each check loads a page and runs axe (about a second or two on a
  // loaded machine), so together they would not fit one test's time.
  /** Opens `path` in a fresh page, waits for `state` and returns its violations (and a screenshot). */
  async function violationsOf(name: string, path: string, state: string, pageId = 'map'): Promise<string[]> {
    const page = await (await context(AXE_CONTEXT)).newPage();
    if (state === 'none') await page.goto(`${stack.api.url}${path}`);
    else await openIn(page, path, state, pageId);
    if (pageId === 'stats') await page.locator('section[data-section="overview"]').waitFor();
    const found = await axeViolations(page);
    await screenshot(page, `axe-${name}`);
    return found;
  }

  it.each([
    ['map-ready', `/seed/${MAIN}`, 'ready', 'map'],
    ['invalid', '/seed/12ab', 'invalid', 'map'],
    ['blocked-permanent', `/seed/${FOREVER}`, 'blocked-permanent', 'map'],
    ['blocked', `/seed/${WINDOWED}`, 'blocked', 'map'],
    ['seeds', '/seeds', 'ready', 'seeds'],
    ['stats', '/stats', 'ready', 'stats'],
    ['not-found', '/nope', 'none', 'map'],
  ])('on %s (%s)', async (name, path, state, pageId) => {
    expect(await violationsOf(name, path, state, pageId)).toEqual([]);
  });

  it('on a map still generating', async () => {
    await stack.stopWorker();
    try {
      expect(await violationsOf('generating', `/seed/${QUEUED}`, 'generating')).toEqual([]);
    } finally {
      await stack.startWorker();
    }
  });

  it('on the phone with the panel open', async () => {
    const phone = await (await context({ ...PHONE, ...AXE_CONTEXT })).newPage();
    await phone.goto(`${stack.api.url}/seed/${MAIN}`);
    await waitForState(phone, 'ready', { page: 'map' });
    await phone.getByRole('button', { name: 'Seed & filters' }).tap();
    await phone.locator('#seed-input').waitFor({ state: 'visible' });
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'axe-phone-panel');
  });
});

/** The controls that act on a map, and whether each is enabled now. */
function mapControls(page: Page) {
  return page.evaluate(() => {
    const on = (sel: string) => !(document.querySelector(sel) as HTMLInputElement | null)?.disabled;
    return {
      zoomIn: on('.view-actions button[aria-label="Zoom in"]'),
      zoomOut: on('.view-actions button[aria-label="Zoom out"]'),
      reset: on('.view-actions button[aria-label="Reset view"]'),
      png: on('.view-actions button[aria-label^="Download"]'),
      find: on('#find-input'),
      items: on('#item-filter'),
      structures: on('#struct-filter'),
      layers: on('#layer-doors') && on('#layer-items'),
    };
  });
}
const ALL_ON = {
  zoomIn: true,
  zoomOut: true,
  reset: true,
  png: true,
  find: true,
  items: true,
  structures: true,
  layers: true,
};
const ALL_OFF = Object.fromEntries(Object.keys(ALL_ON).map((k) => [k, false]));

describe('honest controls (issue 19.10)', () => {
  it('disables what needs a map while there is none, and Next on the oldest seed', async () => {
    const page = await (await context()).newPage();
    await openIn(page, `/seed/${MAIN}`, 'ready');
    expect(await mapControls(page)).toEqual(ALL_ON);
    const next = page.getByRole('button', { name: 'Next seed' });
    expect(await next.isEnabled()).toBe(true);

    await openIn(page, `/seed/${FOREVER}`, 'blocked-permanent');
    expect(await mapControls(page)).toEqual(ALL_OFF);
    await openIn(page, '/seed/12ab', 'invalid');
    expect(await mapControls(page)).toEqual(ALL_OFF);

    // The oldest seed of the list: Next has nowhere to go, and the page says so.
    await openIn(page, `/seed/${OLDEST}`, 'ready');
    await expect.poll(() => next.isDisabled()).toBe(true);
    expect(await page.locator('.seed-note').textContent()).toContain('oldest');
    expect(await mapControls(page)).toEqual(ALL_ON);
    await page.getByRole('button', { name: 'Previous seed' }).click();
    await page.waitForURL((u) => u.pathname !== `/seed/${OLDEST}`);
    await waitForState(page, 'ready', { page: 'map' });
    expect(await next.isEnabled()).toBe(true);
  });

  it('shows a queued map’s place in the queue as a bar, with the controls off', async () => {
    await stack.stopWorker();
    try {
      const page = await (await context()).newPage();
      await openIn(page, `/seed/${QUEUED_TOO}`, 'generating');
      const bar = page.locator('.status progress');
      await bar.waitFor();
      expect(await mapControls(page)).toEqual(ALL_OFF);
      const status = page.locator('.status[data-kind="generating"]');
      await expect.poll(() => status.getAttribute('data-ahead')).toMatch(/^\d+$/);
      const ahead = Number(await status.getAttribute('data-ahead'));
      const [value, max] = await bar.evaluate((p: HTMLProgressElement) => [p.value, p.max]);
      expect(max).toBeGreaterThanOrEqual(ahead + 1);
      expect(value).toBe(max - ahead);
      await screenshot(page, 'queued-progress');
    } finally {
      await stack.startWorker();
    }
  });

  it('during a database outage says the service is unavailable, names no seed, and /seeds heals by itself', async () => {
    const redis = await startPrivateRedis({ name: 'viewer-ux' });
    const down = await startTestApi({ REDIS_URL: redis.url });
    try {
      await redis.kill();
      const html = await (await fetch(`${down.url}/seed/${MAIN}`)).text();
      expect(html).not.toContain(String(MAIN));

      const c = await context();
      const map = await c.newPage();
      await map.goto(`${down.url}/seed/${MAIN}`);
      await waitForState(map, 'unavailable', { page: 'map' });
      // The rarer states' words arrive with their lazy chunk, just after the state itself.
      await expect.poll(() => map.locator('.status-message').textContent()).toContain('unavailable');
      expect(await map.locator('.status-message').textContent()).not.toContain('busy');
      expect(await mapControls(map)).toEqual(ALL_OFF);
      await map.close();

      const seeds = await c.newPage();
      await seeds.goto(`${down.url}/seeds`);
      await waitForState(seeds, 'error', { page: 'seeds' });
      expect(await seeds.locator('button.load-more').textContent()).toBe('Try again');
      await screenshot(seeds, 'seeds-outage');
      // Redis is back: the list loads without a click.
      await redis.restart();
      await waitForState(seeds, 'ready', { page: 'seeds', timeout: 30_000 });
      expect(await seeds.locator('button.load-more').textContent()).toBe('Load more seeds');
      await seeds.close();
    } finally {
      await down.close();
      await redis.stop();
    }
  });
});

describe('keyboard, touch and forced colours (issue 19.8)', () => {
  it('the skip link moves focus to the map', async () => {
    const page = await (await context()).newPage();
    await openIn(page, `/seed/${MAIN}`, 'ready');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('map-canvas');
    expect(new URL(page.url()).pathname).toBe(`/seed/${MAIN}`);
  });

  it('on a phone every control is at least 44×44 px, elevator icons included', async () => {
    const page = await (await context(PHONE)).newPage();
    await openIn(page, `/seed/${MAIN}`, 'ready');
    const small = async () =>
      page.evaluate(() =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            'button, select, input:not([type="radio"]):not([type="checkbox"]), label.seg, label.chip, .site-header a',
          ),
        )
          .filter((el) => el.getClientRects().length > 0 && !el.closest('[hidden]'))
          .map((el) => ({ el: el.outerHTML.slice(0, 80), r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width < 44 || r.height < 44)
          .map(({ el, r }) => `${el} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`),
      );
    expect(await small()).toEqual([]);
    await page.getByRole('button', { name: 'Seed & filters' }).tap();
    await page.locator('#seed-input').waitFor({ state: 'visible' });
    expect(await small()).toEqual([]);
    await page.getByRole('button', { name: 'Seed & filters' }).tap();

    // An elevator answers a tap 20 px beside its icon's centre: the floor changes.
    const canvas = page.locator('#map-canvas');
    const box = (await canvas.boundingBox())!;
    const elevators = JSON.parse((await canvas.getAttribute('data-symbol-boxes')) ?? '[]') as [
      string,
      number,
      number,
      number,
      number,
    ][];
    const icon = elevators.find(([kind, x0, y0, x1, y1]) => {
      const cx = (x0 + x1) / 2;
      const cy = (y0 + y1) / 2;
      return (
        kind === 'elevator' &&
        x1 - x0 < 44 &&
        cx > 30 &&
        cx < box.width - 70 &&
        cy > 30 &&
        cy < box.height - 30
      );
    });
    expect(icon, 'an elevator icon away from the edges').toBeDefined();
    const [, x0, y0, x1, y1] = icon!;
    const floor = await canvas.getAttribute('data-floor');
    const d = await afterDraw(page, () =>
      page.touchscreen.tap(box.x + (x0 + x1) / 2 + 20, box.y + (y0 + y1) / 2),
    );
    expect(d.floor).not.toBe(floor);
  });

  it('in forced colours shows which floor and layers are on by a check mark and border, not colour', async () => {
    const page = await (await context()).newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await openIn(page, `/seed/${MAIN}`, 'ready');
    const look = (id: string) =>
      page
        .locator(`label[for="${id}"] > span`)
        .first()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            mark: getComputedStyle(el, '::before').content,
            border: `${s.borderTopStyle} ${s.borderTopWidth}`,
          };
        });
    // Doors are on by default, items off; LCZ is the floor shown.
    const [on, off] = [await look('layer-doors'), await look('layer-items')];
    expect(on.mark).toContain('✓');
    expect(off.mark).not.toContain('✓');
    expect(on.border).not.toBe(off.border);
    const [floorOn, floorOff] = [await look('floor-lcz'), await look('floor-hcz')];
    expect(floorOn.mark).toContain('✓');
    expect(floorOff.mark).not.toContain('✓');
    expect(floorOn.border).not.toBe(floorOff.border);
    await screenshot(page, 'forced-colors');
    // Toggling follows.
    await page.check('#layer-items');
    expect((await look('layer-items')).mark).toContain('✓');
  });
});

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('PNG and print (issue 19.11)', () => {
  it('"PNG" saves the whole floor at 2× with the seed and the legend, whatever the view', async () => {
    const page = await (await context()).newPage();
    await openIn(page, `/seed/${MAIN}?floor=hcz`, 'ready');
    const save = async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the whole floor as PNG' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`seed-${MAIN}-hcz.png`);
      return downloadedBytes(download);
    };
    const fit = await save();
    saveArtifact('png-download-hcz.png', fit);
    const size = pngSize(fit);
    // The floor’s longer side is 1100 CSS px, the legend 300 beside it: at 2×.
    expect(size.width).toBeGreaterThanOrEqual(2 * (400 + 300));
    expect(size.width % 2).toBe(0);
    expect(Math.max(size.width - 2 * 300, size.height)).toBeGreaterThanOrEqual(2 * 1100);
    // Zoomed in and moved, the picture is still the whole floor: the same bytes.
    await afterDraw(page, () => page.getByRole('button', { name: 'Zoom in' }).click());
    await afterDraw(page, () => page.getByRole('button', { name: 'Zoom in' }).click());
    expect((await save()).equals(fit)).toBe(true);
  });

  it('prints one floor on one page in light colours, with its seed and legend, without the controls', async () => {
    const page = await (await context()).newPage();
    await openIn(page, `/seed/${MAIN}?floor=hcz&zoom=3`, 'ready');
    await page.emulateMedia({ media: 'print' });
    const picture = page.locator('img.print-map');
    await picture.waitFor({ state: 'visible' });
    const seen = await page.evaluate(() => {
      const visible = (sel: string) => {
        const el = document.querySelector(sel);
        return !!el && el.getClientRects().length > 0;
      };
      const img = document.querySelector<HTMLImageElement>('img.print-map')!;
      // The picture's share of light pixels, read back through a canvas.
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, c.width, c.height).data;
      let light = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! > 600) light++;
      return {
        canvas: visible('#map-canvas'),
        panel: visible('#map-panel'),
        header: visible('.site-header'),
        zoom: visible('.view-actions'),
        alt: img.alt,
        width: img.naturalWidth,
        light: light / (data.length / 4),
      };
    });
    expect(seen).toMatchObject({ canvas: false, panel: false, header: false, zoom: false });
    expect(seen.alt).toBe(`seedblock · seed ${MAIN} · Heavy Containment + Entrance`);
    // The whole floor at 2× (the PNG's picture), not the zoomed view; mostly light.
    expect(seen.width).toBeGreaterThanOrEqual(2 * 1100);
    expect(seen.light).toBeGreaterThan(0.6);
    const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages).toHaveLength(1);
    await screenshot(page, 'print');
  });
});

describe('phone portrait (issue 19.9)', () => {
  it('turns the wide HCZ + EZ floor to use at least 70 % of the map box at fit, labels upright and clear of the buttons', async () => {
    const page = await (await context(PHONE)).newPage();
    await openIn(page, `/seed/${MAIN}?floor=hcz`, 'ready');
    const canvas = page.locator('#map-canvas');
    const box = (await canvas.boundingBox())!;
    const fit = await floorBox(page);
    const used = ((fit.x1 - fit.x0) * (fit.y1 - fit.y0)) / (box.width * box.height);
    console.log(`HCZ + EZ at 390×844: ${(100 * used).toFixed(0)} % of the map box used at fit`);
    expect(await canvas.getAttribute('data-turn')).toBe('90');
    expect(used).toBeGreaterThanOrEqual(0.7);
    await screenshot(page, 'phone-portrait-hcz');

    // No label under the zoom buttons, at fit and zoomed in.
    const buttons = (await page.locator('.view-actions').boundingBox())!;
    const under = async () =>
      (await drawnLabels(page)).labels.filter((l) =>
        boxesOverlap(l, {
          x0: buttons.x - box.x,
          y0: buttons.y - box.y,
          x1: buttons.x - box.x + buttons.width,
          y1: buttons.y - box.y + buttons.height,
        }),
      );
    expect(await under()).toEqual([]);
    await afterDraw(page, () => page.getByRole('button', { name: 'Zoom in' }).tap());
    await afterDraw(page, () => page.getByRole('button', { name: 'Zoom in' }).tap());
    expect(await under()).toEqual([]);
    await screenshot(page, 'phone-portrait-hcz-zoomed');

    // Tapping a room label names that room; the view's deep link reopens the same picture.
    const label = (await drawnLabels(page)).labels.find(
      (l) => !/^(to |Open area)/.test(l.text) && l.x0 > 10 && l.y0 > 10 && l.x1 < box.width - 60,
    );
    expect(label, 'a room label in view').toBeDefined();
    await page.touchscreen.tap(box.x + (label!.x0 + label!.x1) / 2, box.y + (label!.y0 + label!.y1) / 2);
    await page.locator('#map-info:not([hidden])').waitFor();
    expect(await page.locator('#map-info').textContent()).toContain(label!.text.slice(0, 4));
    await page.waitForURL((u) => u.searchParams.has('zoom'));
    const url = page.url();
    const again = await (await context(PHONE)).newPage();
    await again.goto(url);
    await waitForState(again, 'ready', { page: 'map' });
    // The same view, to the rounding of the link's numbers.
    const [a, b] = [await floorBox(again), await floorBox(page)];
    for (const k of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(a[k] - b[k]), k).toBeLessThan(1);
    expect(await again.locator('#map-canvas').getAttribute('data-turn')).toBe('90');
  });
});
