// Issue 30, points 2, 3 and 8: link previews with the seed's picture (and none for a seed that
// may not be shown), the home page's ways in, Surface's places and the nearest exit.
import { beforeAll, describe, expect, it } from 'vitest';
import { AXE_CONTEXT, axeViolations } from '../support/viewer-axe.ts';
import { waitForState } from '../support/viewer-page.ts';
import { blockByRound, viewerStack } from '../support/viewer-stack.ts';

const MAIN = 224593721;
const OTHER = 5_300_011;
const WINDOWED = 5_300_012;
const FOREVER = 5_300_013;

const stack = viewerStack({ name: 'share', seeds: [OTHER, MAIN, WINDOWED] });

beforeAll(async () => {
  await blockByRound(stack.api, WINDOWED);
  await stack.api.store.addToBlocklist(FOREVER);
});

/** The page shell as a crawler gets it: no script run. */
const shell = async (path: string) => (await fetch(`${stack.api.url}${path}`)).text();
const tag = (html: string, name: string): string | undefined =>
  new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)" />`).exec(html)?.[1];

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('link previews (issue 30.8)', () => {
  it('give /seed/N and /?seed=N a title, a description and the map as a large picture', async () => {
    const images: string[] = [];
    for (const path of [`/seed/${MAIN}`, `/?seed=${MAIN}`, `/?seed=${MAIN}&floor=hcz`]) {
      const html = await shell(path);
      expect(tag(html, 'og:title'), path).toContain(String(MAIN));
      expect(tag(html, 'og:description'), path).toContain(String(MAIN));
      expect(tag(html, 'twitter:card'), path).toBe('summary_large_image');
      const image = tag(html, 'og:image')!;
      expect(image, path).toBe(`${stack.api.url}/seed/${MAIN}/preview.png`);
      expect(tag(html, 'twitter:image')).toBe(image);
      images.push(image);
    }
    const res = await fetch(images[0]!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    // Made once: the same bytes again, and a revalidation confirms them.
    const again = await fetch(images[0]!);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(png);
    const etag = again.headers.get('etag')!;
    expect((await fetch(images[0]!, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Another seed, another picture.
    const other = Buffer.from(
      await (await fetch(`${stack.api.url}/seed/${OTHER}/preview.png`)).arrayBuffer(),
    );
    expect(pngSize(other).width).toBe(1200);
    expect(other.equals(png)).toBe(false);
  });

  it('shows the picture in the browser: it draws the facility', async () => {
    const page = await stack.openPage(`/seed/${MAIN}/preview.png`);
    const size = await page.evaluate(() => {
      const img = document.querySelector('img')!;
      return { w: img.naturalWidth, h: img.naturalHeight };
    });
    expect(size).toEqual({ w: 1200, h: 630 });
  });

  it('names no blocked, permanently blocked or invalid seed, and its picture never answers 200', async () => {
    for (const [seed, status] of [
      [WINDOWED, 403],
      [FOREVER, 403],
    ] as const) {
      for (const path of [`/seed/${seed}`, `/?seed=${seed}`]) {
        const html = await shell(path);
        expect(html, path).not.toContain(String(seed));
        expect(tag(html, 'og:image'), path).toBeUndefined();
        expect(tag(html, 'twitter:card'), path).toBe('summary');
      }
      const res = await fetch(`${stack.api.url}/seed/${seed}/preview.png`);
      expect(res.status, `picture of ${seed}`).toBe(status);
      expect(await res.json()).toMatchObject({ error: 'blocked' });
      // As the map read answers.
      expect((await fetch(`${stack.api.base}/maps/${seed}`)).status).toBe(status);
    }
    for (const bad of ['0', '12ab', '99999999999']) {
      const res = await fetch(`${stack.api.url}/seed/${bad}/preview.png`);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid seed' });
      expect(tag(await shell(`/?seed=${bad}`), 'og:image')).toBeUndefined();
    }
  });

  it('stops the picture once a report opens a window on a seed it has made', async () => {
    const url = `${stack.api.url}/seed/${OTHER}/preview.png`;
    expect((await fetch(url)).status).toBe(200);
    await blockByRound(stack.api, OTHER);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(tag(await shell(`/seed/${OTHER}`), 'og:image')).toBeUndefined();
  });
});

describe('the home page (issue 30.2)', () => {
  it('leads somewhere: what a seed is, a seed box with an example, the newest seeds and all of them', async () => {
    const page = await stack.openPage('/', AXE_CONTEXT);
    await waitForState(page, 'idle', { page: 'home' });
    await page.locator('ol.home-seeds[data-state="ready"]').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.locator('[data-what-is-a-seed]').textContent()).toMatch(/^A seed is /);
    // The newest seeds first, each a link to its map, as GET /seeds lists them.
    const links = await page
      .locator('main a')
      .evaluateAll((as) =>
        as.map((a) => ({ text: a.textContent ?? '', href: new URL((a as HTMLAnchorElement).href).pathname })),
      );
    const newest = links.filter((l) => l.text.startsWith('Seed '));
    const listed = (await (await fetch(`${stack.api.base}/seeds?limit=8`)).json()) as {
      items: { seed: number }[];
    };
    expect(listed.items.length).toBeGreaterThan(0);
    expect(newest.map((l) => l.href)).toEqual(listed.items.map((i) => `/seed/${i.seed}`));
    expect(links).toContainEqual(expect.objectContaining({ href: '/seeds' }));
    expect(links).toContainEqual({ text: 'seed 224593721', href: '/seed/224593721' });

    // The example opens its map; so does the box.
    await page.locator('[data-example]').click();
    await waitForState(page, 'ready', { page: 'map' });
    await page.goBack();
    await waitForState(page, 'idle', { page: 'home' });
    await page.locator('#seed-input').fill('12ab');
    await page.keyboard.press('Enter');
    await waitForState(page, 'invalid', { page: 'home' });
    expect(await page.locator('#seed-error').textContent()).toMatch(/whole number/);
    await page.locator('#seed-input').fill(String(MAIN));
    await page.keyboard.press('Enter');
    await waitForState(page, 'ready', { page: 'map' });
    expect(new URL(page.url()).searchParams.get('seed')).toBe(String(MAIN));
    await page.locator('a[data-nav="seeds"]').click();
    await waitForState(page, 'ready', { page: 'seeds' });
  });
});

describe("Surface's places and the nearest exit (issue 30.3)", () => {
  it('finds the escape and the gates, on Surface', async () => {
    const page = await stack.openPage(`/seed/${MAIN}`);
    await waitForState(page, 'ready', { page: 'map' });
    const box = page.getByRole('combobox', { name: 'Find on this map' });
    const list = page.getByRole('listbox', { name: 'Matches on this map', includeHidden: true });
    const options = async (query: string) => {
      await box.fill(query);
      await list.waitFor({ state: 'visible' });
      return list
        .getByRole('option')
        .evaluateAll((els) => els.map((el) => [el.getAttribute('data-find'), el.getAttribute('data-floor')]));
    };
    expect(await options('escape')).toEqual([['room:escape', 'surface']]);
    expect((await options('gate a')).slice(0, 2)).toEqual([
      ['room:gate-a', 'hcz'],
      ['room:gate-a-surface', 'surface'],
    ]);
    expect(await options('d-class')).toEqual([['room:class-d-cells', 'lcz']]);
    await box.fill('escape');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('floor')).toBe('surface');
    expect(new URL(page.url()).searchParams.get('find')).toBe('room:escape');
  });

  it('routes from Class-D to the nearest exit and names it with metres', async () => {
    const page = await stack.openPage(`/seed/${MAIN}?route=room:class-d-cells~exit`);
    await waitForState(page, 'ready', { page: 'map' });
    const status = page.locator('#route-status');
    await expect
      .poll(() => status.textContent())
      .toMatch(/^Nearest exit: (Gate A|Gate B|Escape), \d+ s, \d+ m /);
    expect(Number(await page.locator('#map-canvas').getAttribute('data-route'))).toBeGreaterThan(5);
  });
});

describe('Copy link (issue 30.8)', () => {
  it('puts the address of the view on the clipboard', async () => {
    const c = await stack.context({ permissions: ['clipboard-read', 'clipboard-write'], ...AXE_CONTEXT });
    const page = await c.newPage();
    await page.goto(`${stack.api.url}/seed/${MAIN}?floor=surface&find=room:escape`);
    await waitForState(page, 'ready', { page: 'map' });
    await page.getByRole('button', { name: 'Copy link to this view' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    // The Surface floor with its places, checked by axe as it stands.
    expect(await axeViolations(page)).toEqual([]);
  });
});
