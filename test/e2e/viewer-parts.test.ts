// The map page from parts (issue 30): the route in the PNG, the phone's route bar, a pinned card
// that stays with its room, the north marker, and spawns that name themselves. Same stack as the
// other viewer tests (real API, Redis, generator worker, Debian's Chromium).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  afterDraw,
  downloadedBytes,
  drawnLabels,
  screenshot,
  waitForState,
  type ScreenBox,
} from '../support/viewer-page.ts';
import { viewerStack } from '../support/viewer-stack.ts';

const MAIN = 224593721;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const ROUTE = 'route=room:class-d-cells~room:gate-a';

const stack = viewerStack({ name: 'parts', seeds: [MAIN] });
const { context } = stack;

async function openMap(path: string, options?: Parameters<typeof context>[0]): Promise<Page> {
  const page = await (await context(options)).newPage();
  await page.goto(`${stack.api.url}${path}`);
  await waitForState(page, 'ready', { page: 'map' });
  return page;
}

async function savePng(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the whole floor as PNG' }).click(),
  ]);
  return downloadedBytes(download);
}

const centre = (b: ScreenBox): [number, number] => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];

describe('the route everywhere it is shown (issue 30.4)', () => {
  it('the PNG of a floor with a route differs from the same floor without', async () => {
    const plain = await savePng(await openMap(`/seed/${MAIN}?floor=lcz`));
    const routed = await openMap(`/seed/${MAIN}?floor=lcz&${ROUTE}`);
    await routed.locator('#route-status', { hasText: 'Route:' }).waitFor();
    const withRoute = await savePng(routed);
    expect(withRoute.subarray(1, 4).toString()).toBe('PNG');
    expect(withRoute.equals(plain)).toBe(false);
    // The summary line under the caption makes the picture taller.
    expect(withRoute.readUInt32BE(20)).toBeGreaterThan(plain.readUInt32BE(20));
  });
});

describe('phone (issue 30.5)', () => {
  it('folds the route panel to a bar covering at most 15 % of the map box', async () => {
    const page = await openMap(`/seed/${MAIN}?floor=lcz&${ROUTE}`, PHONE);
    const status = page.locator('#route-status');
    await expect.poll(() => status.textContent()).toMatch(/^Route: \d+ m, about \d+ s/);
    const map = (await page.locator('.map-area').boundingBox())!;
    const bar = (await page.locator('.map-area > .route').boundingBox())!;
    const share = (bar.width * bar.height) / (map.width * map.height);
    console.log(`route bar at 390×844: ${(100 * share).toFixed(1)} % of the map box`);
    expect(share).toBeLessThanOrEqual(0.15);
    // Unfolded it says everything, and folds again.
    await page.getByRole('button', { name: 'More' }).tap();
    expect(await page.getByRole('button', { name: 'Clear route' }).isVisible()).toBe(true);
    await screenshot(page, 'route-bar-unfolded');
    await page.getByRole('button', { name: 'Less' }).tap();
    expect(await page.getByRole('button', { name: 'Clear route' }).isVisible()).toBe(false);
  });

  it('keeps a pinned card with its room through Find, Reset and a floor change', async () => {
    const page = await openMap(`/seed/${MAIN}?floor=lcz`);
    const label = (await drawnLabels(page)).labels.find((l) => /^Class-D/.test(l.text));
    expect(label, 'Class-D label').toBeDefined();
    const box = (await page.locator('#map-canvas').boundingBox())!;
    const [x, y] = centre(label!);
    await afterDraw(page, () => page.mouse.click(box.x + x, box.y + y));
    const title = page.locator('#map-info .room-card h2');
    await expect.poll(() => title.textContent()).toBe('Class-D Cells');
    const find = page.getByRole('combobox', { name: 'Find on this map' });
    await find.fill('SCP-914');
    await page.locator('[role="option"][data-find="room:scp-914"]').first().waitFor();
    await afterDraw(page, () => find.press('Enter'));
    expect(await title.textContent()).toBe('Class-D Cells');
    await afterDraw(page, () => page.getByRole('button', { name: 'Reset view' }).click());
    expect(await title.textContent()).toBe('Class-D Cells');
    await afterDraw(page, () => page.getByRole('radio', { name: 'Heavy Containment + Entrance' }).click());
    expect(await title.textContent()).toBe('Class-D Cells');
    await page.getByRole('button', { name: 'Close room card' }).click();
    await page.locator('#map-info .room-card').waitFor({ state: 'hidden' });
  });

  it('shows a north marker: turned on the phone with the turned floor, up on the desktop', async () => {
    const phone = await openMap(`/seed/${MAIN}?floor=hcz`, PHONE);
    expect(await phone.locator('#map-canvas').getAttribute('data-turn')).toBe('90');
    const north = phone.getByRole('img', { name: /^North is to the right/ });
    expect(await north.isVisible()).toBe(true);
    const desk = await openMap(`/seed/${MAIN}?floor=hcz`);
    expect(await desk.getByRole('img', { name: 'North is up' }).isVisible()).toBe(true);
  });
});

describe('spawns you can read (issue 30.6)', () => {
  it('names an item spawn and its category on hover, and a structure with what it may hold', async () => {
    const page = await openMap(`/seed/${MAIN}?floor=lcz&layers=items,structures&zoom=3`);
    const box = (await page.locator('#map-canvas').boundingBox())!;
    const onScreen = (s: ScreenBox) =>
      s.x0 > 20 && s.y0 > 20 && s.x1 < box.width - 60 && s.y1 < box.height - 20;
    const spawns = (await drawnLabels(page)).symbols.filter((s) => s.kind === 'spawn' && onScreen(s));
    expect(spawns.length).toBeGreaterThan(0);
    const texts = new Set<string>();
    for (const s of spawns.slice(0, 12)) {
      const [x, y] = centre(s);
      await afterDraw(page, () => page.mouse.move(box.x + x, box.y + y));
      texts.add((await page.locator('#map-info .info-lines').textContent()) ?? '');
    }
    const all = [...texts].join('\n');
    expect(all).toMatch(/Item spawn \((weapon|ammo|medical|keycard or pass|armour|grenade|scp item|other)/);
    expect(all).toMatch(/Structure spawn.*\((may hold |what it may hold: unknown)/);
    // The legend shows one symbol per item category.
    expect(await page.locator('.legend li', { hasText: /^Item spawn: / }).count()).toBe(8);
  });
});
