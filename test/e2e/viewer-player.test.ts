// The map viewer as a player uses it (issue 14): the map owns the window on a desktop and on a
// phone, finding things on the map, moving between seeds, readable labels, statistics as
// pictures, and no console error in any state. Same stack as viewer.test.ts (real API, Redis,
// generator worker, Debian's Chromium); expectations come from the API's own answers.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapData } from '../../renderer/map-types.ts';
import type { SeedPage } from '../../viewer/src/api/types.ts';
import { parseMap } from '../../renderer/parse-map.ts';
import { buildFindIndex } from '../../viewer/src/map/find.ts';
import { checkpointSplit, roomLabel } from '../../renderer/labels.ts';
import { MATCH, ROUTE } from '../../renderer/palette.ts';
import { buildRouteGraph, roomsOf, shortestRoute } from '../../viewer/src/map/route.ts';
import { startTestApi } from '../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../support/clock.ts';
import { bearer, send, get } from '../support/http.ts';
import { closeWindow, openWindow } from '../support/read-api.ts';
import {
  accessibleControls,
  afterDraw,
  boxesOverlap,
  canvasPixels,
  drawn,
  drawnLabels,
  floorBox,
  paintedBox,
  screenshot,
  touchGesture,
  waitForState,
  type ScreenBox,
} from '../support/viewer-page.ts';
import { FLOOR_IDS, onFloor, type FloorId } from '../support/viewer-spec.ts';
import { E2E_T0, viewerStack } from '../support/viewer-stack.ts';

const MAIN = 224593721;
/** Generated after MAIN: the seed list (newest dump first) has them before it. */
const WALK = [5_200_001, 5_200_002, 5_200_003, 5_200_004, 5_200_005];
const ADMIN_TOKEN = 'viewer-e2e-admin-token-0123';
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

const stack = viewerStack({ name: 'player', seeds: [MAIN, ...WALK], env: { ADMIN_TOKEN } });
const { context, openPage, recordDraw } = stack;
let main: MapData;

beforeAll(async () => {
  main = await stack.mapJson(MAIN);
});

async function openMap(path: string, options?: Parameters<typeof openPage>[1]): Promise<Page> {
  const page = await openPage(path, options);
  await waitForState(page, 'ready', { page: 'map' });
  return page;
}

/** Where the page's main parts are, in CSS pixels, and how far the document scrolls. */
function layout(page: Page) {
  return page.evaluate(() => {
    const rect = (sel: string) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r ? { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom } : undefined;
    };
    const canvas = document.getElementById('map-canvas') as HTMLCanvasElement;
    return {
      canvas: rect('#map-canvas')!,
      panel: rect('#map-panel'),
      header: rect('.site-header')!,
      pixels: { width: canvas.width, height: canvas.height, dpr: window.devicePixelRatio },
      scroll: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
    };
  });
}

const width = (b: ScreenBox) => b.x1 - b.x0;
const height = (b: ScreenBox) => b.y1 - b.y0;

/** Hovers the canvas point (CSS px of the canvas) and returns the info panel's text. */
async function infoAt(page: Page, x: number, y: number): Promise<string> {
  const box = (await page.locator('#map-canvas').boundingBox())!;
  await page.mouse.move(box.x + x, box.y + y);
  const info = page.locator('#map-info:not([hidden])');
  await info.waitFor();
  return (await info.textContent()) ?? '';
}

async function seedOrder(): Promise<number[]> {
  const res = await get<SeedPage>(`${stack.api.base}/seeds?limit=500`);
  expect(res.status).toBe(200);
  return res.body.items.map((i) => i.seed);
}

describe('the map owns the window (issue 14.1)', () => {
  it('takes all the space the controls leave at 1280×800 and 1920×1080, and follows resizes', async () => {
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      const page = await openMap(`/seed/${MAIN}`, { viewport: { width: w, height: h } });
      recordDraw(`firstMap${w}`, await drawn(page));
      const l = await layout(page);
      // The side column and the header are all that is not map; nothing scrolls.
      expect(l.canvas.x0).toBeCloseTo(l.panel!.x1, 0);
      expect(l.canvas.y0).toBeCloseTo(l.header.y1, 0);
      expect(l.canvas.x1).toBeCloseTo(w, 0);
      expect(l.canvas.y1).toBeCloseTo(h, 0);
      expect(width(l.panel!)).toBeLessThanOrEqual(0.26 * w);
      expect(l.scroll).toEqual({ width: w, height: h });
      // Drawn at the screen's own resolution, not stretched.
      expect(l.pixels.width).toBe(Math.round(width(l.canvas) * l.pixels.dpr));
      await screenshot(page, `fill-${w}`);
    }

    const page = await openMap(`/seed/${MAIN}?floor=hcz`);
    const rooms = onFloor(main, 'hcz').rooms.length;
    await page.setViewportSize({ width: 1100, height: 700 });
    await page.waitForFunction(() => {
      const c = document.getElementById('map-canvas') as HTMLCanvasElement;
      const r = c.getBoundingClientRect();
      return r.right === 1100 && r.bottom === 700 && c.width === Math.round(r.width * devicePixelRatio);
    });
    const l = await layout(page);
    expect(l.canvas.x0).toBeCloseTo(l.panel!.x1, 0);
    expect(l.scroll).toEqual({ width: 1100, height: 700 });
    expect(await drawn(page)).toMatchObject({ floor: 'hcz', rooms });
  });

  it('fits every floor into at least 85 % of the map box’s smaller side, also after Fit', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      // One page per size, loading each floor's URL in turn (a fresh renderer costs Chromium a
      // CPU-second more than a navigation).
      const page = await (await context({ viewport })).newPage();
      for (const floor of FLOOR_IDS) {
        await page.goto(`${stack.api.url}/seed/${MAIN}?floor=${floor}`);
        await waitForState(page, 'ready', { page: 'map' });
        const box = (await layout(page)).canvas;
        const smaller = Math.min(width(box), height(box));
        const fit = await floorBox(page);
        // The floor reaches across 85 % of the smaller side, and the canvas really shows that much.
        expect(Math.max(width(fit), height(fit)), `${floor} at ${viewport.width}`).toBeGreaterThanOrEqual(
          0.85 * smaller,
        );
        const painted = await paintedBox(page);
        expect(Math.max(width(painted), height(painted))).toBeGreaterThanOrEqual(0.85 * smaller);
        // Constrained by one side, the floor fills at least 85 % of that side.
        expect(Math.max(width(fit) / width(box), height(fit) / height(box))).toBeGreaterThanOrEqual(0.85);

        // Zoomed in and out again with the Fit button: the same fit.
        await afterDraw(page, () => page.getByRole('button', { name: 'Zoom in' }).click());
        expect((await drawn(page)).zoom).toBeGreaterThan(1);
        expect(
          (await afterDraw(page, () => page.getByRole('button', { name: 'Reset view' }).click())).zoom,
        ).toBe(1);
        expect(await floorBox(page)).toEqual(fit);
      }
    }
  });
});

describe('phone first (issue 14.2)', () => {
  it('shows the map without scrolling on half the screen or more; the controls fold into a panel', async () => {
    const page = await openMap(`/seed/${MAIN}`, PHONE);
    recordDraw('firstMap390', await drawn(page));
    const l = await layout(page);
    expect(l.canvas.y0).toBeGreaterThanOrEqual(0);
    expect(l.canvas.y1).toBeLessThanOrEqual(844);
    expect(width(l.canvas) * height(l.canvas)).toBeGreaterThanOrEqual(0.5 * 390 * 844);
    expect(l.scroll).toEqual({ width: 390, height: 844 });
    expect((await canvasPixels(page)).painted).toBeGreaterThan(0.05);
    // Floors and layers stay at hand; the seed box and the filters are folded away.
    expect(await page.locator('label[for="floor-hcz"]').isVisible()).toBe(true);
    expect(await page.locator('#seed-input').isVisible()).toBe(false);
    expect(await page.locator('#item-filter').isVisible()).toBe(false);
    await screenshot(page, 'phone-390');

    const toggle = page.getByRole('button', { name: 'Seed & filters' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.tap();
    await page.locator('#seed-input').waitFor({ state: 'visible' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#item-filter').isVisible()).toBe(true);
    expect((await layout(page)).scroll).toEqual({ width: 390, height: 844 });
    await screenshot(page, 'phone-390-panel');
    await toggle.tap();
    await page.locator('#seed-input').waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // The floor switch works by touch, and the map stays on screen.
    expect(await afterDraw(page, () => page.locator('label[for="floor-hcz"]').tap())).toMatchObject({
      floor: 'hcz',
      rooms: onFloor(main, 'hcz').rooms.length,
    });
  });

  it('pans with one finger and zooms with a pinch', async () => {
    const page = await openMap(`/seed/${MAIN}`, PHONE);
    const box = (await layout(page)).canvas;
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    const before = await canvasPixels(page);
    const fitBefore = await floorBox(page);
    const steps = (from: number, to: number) =>
      Array.from({ length: 9 }, (_, i) => from + ((to - from) * i) / 8);

    // One finger drags the map 120 px to the right: the view moves west (smaller x).
    await touchGesture(page, [steps(cx - 60, cx + 60).map((x) => [x, cy] as const)]);
    await page.waitForURL((u) => u.searchParams.has('cx'));
    const moved = new URL(page.url());
    // The floor followed the finger.
    expect((await floorBox(page)).x0 - fitBefore.x0).toBeCloseTo(120, -1);
    expect((await drawn(page)).zoom).toBe(1);
    expect((await canvasPixels(page)).hash).not.toBe(before.hash);
    expect(Number(moved.searchParams.get('cx'))).toBeLessThan(
      (Math.min(...main.rooms.filter((r) => r.zone === 'LightContainment').map((r) => r.x)) +
        Math.max(...main.rooms.filter((r) => r.zone === 'LightContainment').map((r) => r.x))) /
        2,
    );

    // Two fingers spread from 80 to 240 px apart: three times closer.
    await touchGesture(page, [
      steps(cx - 40, cx - 120).map((x) => [x, cy] as const),
      steps(cx + 40, cx + 120).map((x) => [x, cy] as const),
    ]);
    await page.waitForFunction(() => Number(document.getElementById('map-canvas')?.dataset.zoom) > 2.5);
    expect((await drawn(page)).zoom).toBeCloseTo(3, 0);
    await page.waitForURL((u) => Number(u.searchParams.get('zoom')) > 2.5);
  });
});

describe('find on this map (issue 14.3)', () => {
  const keycardsOn = (floor: FloorId) =>
    onFloor(main, floor).items.filter((s) => s.cat.startsWith('item:Keycard')).length;

  it('lists rooms, zones and item types on every floor with counts; Enter goes to the choice', async () => {
    const page = await openMap(`/seed/${MAIN}`);
    const box = page.getByRole('combobox', { name: 'Find on this map' });
    const list = page.getByRole('listbox', { name: 'Matches on this map', includeHidden: true });
    expect(await box.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    expect(await box.getAttribute('aria-expanded')).toBe('false');

    const options = async (query: string) => {
      await box.fill(query);
      await list.waitFor({ state: 'visible' });
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      return list.getByRole('option').evaluateAll((els) =>
        els.map((el) => ({
          find: el.getAttribute('data-find'),
          floor: el.getAttribute('data-floor'),
          count: Number(el.getAttribute('data-count')),
          text: el.textContent ?? '',
        })),
      );
    };

    // An item type: one line per floor that has it, counted as the API's map counts it.
    const keycards = (await options('keycard')).filter((o) => o.find === 'item:any-keycard');
    const floorsWithKeycards = FLOOR_IDS.filter((f) => keycardsOn(f) > 0);
    expect(floorsWithKeycards.length).toBeGreaterThan(1);
    expect(keycards.map((o) => [o.floor, o.count])).toEqual(
      floorsWithKeycards.map((f) => [f, keycardsOn(f)]),
    );
    for (const o of keycards) expect(o.text).toContain(`${o.count} spawn point`);
    await screenshot(page, 'find-keycard');

    // A room name on two floors, and a zone with its rooms.
    expect((await options('Armory')).map((o) => [o.text.split('Room')[0], o.floor])).toEqual([
      ['HCZ Armory', 'hcz'],
      ['LCZ Armory', 'lcz'],
    ]);
    const ez = (await options('Entrance'))[0];
    expect(ez).toMatchObject({
      find: 'zone:Entrance',
      count: main.rooms.filter((r) => r.zone === 'Entrance').length,
    });
    expect((await options('Micro-HID')).map((o) => o.find)).toContain('room:micro-hid');

    // Keyboard: arrows move the active option, Enter goes there.
    const scp079 = await options('SCP-079');
    expect(scp079[0]).toMatchObject({ find: 'room:scp-079', floor: 'hcz', count: 1 });
    expect(scp079[0]?.text).toContain('Heavy Containment + Entrance');
    await box.press('ArrowDown');
    const active = await box.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`#${active}`).getAttribute('data-find')).toBe('room:scp-079');
    const d = await afterDraw(page, () => box.press('Enter'));
    expect(d).toMatchObject({ floor: 'hcz', rooms: onFloor(main, 'hcz').rooms.length });
    expect(await list.isHidden()).toBe(true);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.inputValue()).toBe('SCP-079');
    expect(await page.locator('#map-canvas').getAttribute('data-selected')).toBe('1');
    // Centred and highlighted: the room under the middle of the map is SCP-079, outlined.
    const canvas = (await layout(page)).canvas;
    expect(await infoAt(page, width(canvas) / 2, height(canvas) / 2)).toContain('SCP-079');
    expect((await canvasPixels(page, [MATCH])).counts[MATCH]).toBeGreaterThan(200);
    await page.waitForURL((u) => u.searchParams.get('find') === 'room:scp-079');
    expect(new URL(page.url()).searchParams.get('floor')).toBe('hcz');
    await screenshot(page, 'find-scp-079');

    // A click on an item line: every keycard of that floor is ringed.
    await options('keycard');
    const lcz = list.locator('[role="option"][data-find="item:any-keycard"][data-floor="lcz"]');
    expect((await afterDraw(page, () => lcz.click())).floor).toBe('lcz');
    expect(await page.locator('#map-canvas').getAttribute('data-selected')).toBe(String(keycardsOn('lcz')));
    await page.waitForURL((u) => u.searchParams.get('find') === 'item:any-keycard');

    // Escape closes the list, then clears the box and the choice.
    await box.fill('scp');
    await list.waitFor({ state: 'visible' });
    await box.press('Escape');
    expect(await list.isHidden()).toBe(true);
    await afterDraw(page, () => box.press('Escape'));
    expect(await box.inputValue()).toBe('');
    expect(await page.locator('#map-canvas').getAttribute('data-selected')).toBe('0');
    await page.waitForURL((u) => !u.searchParams.has('find'));

    const named = await accessibleControls(page, '#find-input');
    expect(named).toEqual([expect.objectContaining({ role: 'combobox', name: 'Find on this map' })]);
  });

  it('opens a shared link on what was found: floor, centre and highlight', async () => {
    const page = await openMap(`/seed/${MAIN}`);
    const box = page.getByRole('combobox', { name: 'Find on this map' });
    await box.fill('SCP-079');
    await page.getByRole('option').first().waitFor();
    await afterDraw(page, () => box.press('Enter'));
    await page.waitForURL((u) => u.searchParams.has('cx') && u.searchParams.get('find') === 'room:scp-079');
    const shared = page.url();
    const picture = await canvasPixels(page);

    for (const link of [shared, `${stack.api.url}/seed/${MAIN}?floor=hcz&find=room:scp-079`]) {
      const other = await (await context()).newPage();
      await other.goto(link);
      await waitForState(other, 'ready', { page: 'map' });
      expect(await drawn(other)).toMatchObject({ floor: 'hcz' });
      // Drawn highlighted and centred once the find is applied and the layout has settled.
      await expect.poll(() => other.locator('#map-canvas').getAttribute('data-selected')).toBe('1');
      expect(await other.getByRole('combobox', { name: 'Find on this map' }).inputValue()).toBe('SCP-079');
      await expect
        .poll(async () => {
          const c = (await layout(other)).canvas;
          return infoAt(other, width(c) / 2, height(c) / 2);
        })
        .toContain('SCP-079');
      // The link is left as it was shared.
      expect(other.url()).toBe(link);
    }
    // The very same picture as where it was shared (same window size).
    const again = await (await context()).newPage();
    await again.goto(shared);
    await waitForState(again, 'ready', { page: 'map' });
    // Once its layout has settled (a loaded machine may lay the page out again after it is ready).
    await expect.poll(async () => (await canvasPixels(again)).hash).toBe(picture.hash);
  });

  it('works on a phone: the search is on top and its list over the map', async () => {
    const page = await openMap(`/seed/${MAIN}`, PHONE);
    const box = page.getByRole('combobox', { name: 'Find on this map' });
    expect((await box.boundingBox())!.y).toBeLessThan((await layout(page)).canvas.y0);
    await box.tap();
    await box.fill('keycard');
    await page.getByRole('listbox').waitFor({ state: 'visible' });
    await screenshot(page, 'phone-find');
    const d = await afterDraw(page, () =>
      page.locator('[role="option"][data-find="item:any-keycard"]').first().tap(),
    );
    expect(d.floor).toBe(FLOOR_IDS.find((f) => keycardsOn(f) > 0));
  });
});

describe('moving between seeds (issue 14.4)', () => {
  it('steps to the previous and next seed of the list, and to a random one', async () => {
    const order = await seedOrder();
    expect(order.slice(0, WALK.length + 1)).toEqual([...WALK].reverse().concat(MAIN));
    const page = await openMap(`/seed/${order[2]}`);
    const go = async (name: string, seed: number | undefined) => {
      await page.getByRole('button', { name }).click();
      await page.waitForURL((u) => u.pathname === `/seed/${seed}`);
      await waitForState(page, 'ready', { page: 'map' });
      expect((await drawn(page)).seed).toBe(String(seed));
    };
    await go('Next seed', order[3]);
    await go('Previous seed', order[2]);
    await go('Previous seed', order[1]);
    await go('Previous seed', order[0]);
    // Nothing newer than the newest: the page says so and stays.
    await page.getByRole('button', { name: 'Previous seed' }).click();
    await expect.poll(() => page.locator('.seed-note').textContent()).toContain('newest');
    expect(new URL(page.url()).pathname).toBe(`/seed/${order[0]}`);

    // The keys do the same: n and p.
    await page.locator('#map-canvas').focus();
    await page.keyboard.press('n');
    await page.waitForURL((u) => u.pathname === `/seed/${order[1]}`);
    await waitForState(page, 'ready', { page: 'map' });
    await page.keyboard.press('p');
    await page.waitForURL((u) => u.pathname === `/seed/${order[0]}`);
    await waitForState(page, 'ready', { page: 'map' });

    // A random seed: another one of the list, with its map.
    for (let i = 0; i < 3; i++) {
      const current = Number(new URL(page.url()).pathname.split('/').pop());
      await page.getByRole('button', { name: 'Random seed' }).click();
      await page.waitForURL((u) => u.pathname !== `/seed/${current}`);
      await waitForState(page, 'ready', { page: 'map' });
      const seed = Number(new URL(page.url()).pathname.split('/').pop());
      expect(order).toContain(seed);
      expect((await drawn(page)).seed).toBe(String(seed));
    }
  });

  it('shows the keyboard shortcuts on ?', async () => {
    const page = await openMap(`/seed/${MAIN}`);
    await page.locator('#map-canvas').focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor({ state: 'visible' });
    const text = (await dialog.textContent()) ?? '';
    for (const what of ['Find on this map', 'Previous or next seed', 'A random seed', 'Zoom in or out']) {
      expect(text).toContain(what);
    }
    await screenshot(page, 'shortcuts');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // / goes to the search box.
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('find-input');
  });
});

describe('readable labels (issue 14.5)', () => {
  const views: [string, Parameters<typeof openPage>[1]][] = [
    ['1280', { viewport: { width: 1280, height: 800 } }],
    ['390', PHONE],
  ];
  for (const [name, options] of views) {
    it(`at the fit zoom no label overlaps another label or a symbol (${name} px wide)`, async () => {
      for (const floor of FLOOR_IDS) {
        const page = await openMap(`/seed/${MAIN}?floor=${floor}`, options);
        const { labels, symbols } = await drawnLabels(page);
        const want = onFloor(main, floor);
        // The symbols the labels keep clear of are the ones on the map.
        expect(symbols.filter((s) => s.kind === 'door')).toHaveLength(want.doors.length);
        expect(symbols.filter((s) => s.kind === 'tesla')).toHaveLength(want.teslas.length);
        expect(labels.length, `labels on ${floor}`).toBeGreaterThan(floor === 'surface' ? 1 : 10);
        const canvas = (await layout(page)).canvas;
        for (const [i, l] of labels.entries()) {
          expect(l.x0 >= 0 && l.y0 >= 0 && l.x1 <= width(canvas) && l.y1 <= height(canvas), l.text).toBe(
            true,
          );
          expect(
            symbols.filter((s) => boxesOverlap(s, l)),
            `${l.text} on ${floor} over a symbol`,
          ).toEqual([]);
          expect(
            labels.slice(i + 1).filter((o) => boxesOverlap(o, l)),
            `${l.text} on ${floor} over a label`,
          ).toEqual([]);
        }
        // One naming style per zoom (issue 30.7): short names or full names, never both.
        const split = checkpointSplit(main.rooms);
        const names = want.rooms.map((r) => roomLabel(r, split)).filter((n) => !!n && n.short !== n.full);
        const texts = labels.map((l) => l.text);
        const short = texts.filter((t) => names.some((n) => n!.short === t));
        const full = texts.filter((t) => names.some((n) => n!.full === t));
        expect(short.length && full.length, `short ${short.join(', ')} beside full ${full.join(', ')}`).toBe(
          0,
        );
        if (name === '1280' && floor === 'hcz') {
          // The rooms the issue found covered: drawn now, and clear of their doors and teslas.
          for (const pair of [
            ['SCP-096', '096'],
            ['HCZ–EZ Checkpoint A', 'Chkp A'],
            ['HCZ–EZ Checkpoint B', 'Chkp B'],
          ])
            expect(
              texts.filter((t) => pair.includes(t)),
              pair.join(' or '),
            ).toHaveLength(1);
        }
        await screenshot(page, `labels-${floor}-${name}`);
        await page.context().close();
      }
    });
  }

  it('names a room in full on hover where its label is short', async () => {
    // Zoomed out to where rooms go by their short names.
    const page = await openMap(`/seed/${MAIN}?floor=lcz&zoom=0.6`);
    const { labels } = await drawnLabels(page);
    const chkp = labels.find((l) => l.text === 'Chkp A');
    expect(chkp, 'the LCZ checkpoint is labelled short').toBeDefined();
    expect(await infoAt(page, (chkp!.x0 + chkp!.x1) / 2, (chkp!.y0 + chkp!.y1) / 2)).toContain(
      'LCZ Checkpoint A',
    );
  });
});

describe('statistics as pictures (issue 14.6)', () => {
  it('draws the recent windows as a timeline and the counts as charts, each with a text alternative', async () => {
    const api = stack.api;
    // Three block windows of 3, 12 and 7 minutes, an hour apart; two detections.
    const lengths = [3, 12, 7];
    for (const [i, minutes] of lengths.entries()) {
      const w = await openWindow(api, 6_100_001 + i);
      await advanceClock(api, minutes * MINUTE);
      await closeWindow(api, w);
      await advanceClock(api, 60 * MINUTE);
    }
    for (const seed of [6_100_001, 6_100_002]) {
      const res = await send(`${api.base}/admin/v1/detections`, {
        headers: bearer(ADMIN_TOKEN),
        json: { seed },
      });
      expect(res.status).toBe(200);
    }
    const protection = (
      await get<{ recent: { seed: number; at: string; endedAt: string; keyKind?: string }[] }>(
        `${api.base}/stats/protection`,
      )
    ).body;
    const overview = (
      await get<{ seedsTracked: number; seedsDumped: number; detections: Record<string, number> }>(
        `${api.base}/stats/overview`,
      )
    ).body;
    expect(protection.recent.map((w) => w.seed)).toEqual([6_100_003, 6_100_002, 6_100_001]);

    const page = await openPage('/stats');
    await waitForState(page, 'ready', { page: 'stats' });
    const timeline = page.locator('figure[data-chart="windows"]');
    const bars = timeline.locator('g.window');
    expect(await bars.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-seed'))))).toEqual(
      protection.recent.map((w) => w.seed),
    );
    // From start to end: later windows start further right; bar lengths follow the window lengths.
    const rects = await bars
      .locator('rect.bar-fill')
      .evaluateAll((rs) =>
        rs.map((r) => ({ x: Number(r.getAttribute('x')), w: Number(r.getAttribute('width')) })),
      );
    expect(rects[0]!.x).toBeGreaterThan(rects[1]!.x);
    expect(rects[1]!.x).toBeGreaterThan(rects[2]!.x);
    const [newest, middle, oldest] = rects.map((r) => r.w);
    expect(middle! / oldest!).toBeCloseTo(12 / 3, 0);
    expect(newest! / oldest!).toBeCloseTo(7 / 3, 0);

    // Hovering a bar tells its seed and length.
    await bars.nth(1).locator('rect.bar-fill').hover();
    const tip = timeline.getByRole('tooltip');
    await tip.waitFor({ state: 'visible' });
    expect(await tip.textContent()).toMatch(/^Seed 6100002: blocked 12m 0s by HTTP key/);
    // By kind of key: each bar carries the kind the API names, and the legend names each kind shown.
    expect(protection.recent.map((w) => w.keyKind)).toEqual(['http', 'http', 'http']);
    expect(await bars.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-kind')))).toEqual(
      protection.recent.map((w) => w.keyKind),
    );
    expect(
      await timeline.getByRole('list', { name: 'Kinds of key' }).getByRole('listitem').allTextContents(),
    ).toEqual(['HTTP key']);
    await screenshot(page, 'stats-timeline');

    // Every picture is an image with a text alternative that carries its numbers.
    const pictures = await accessibleControls(page, 'svg');
    expect(pictures.map((p) => p.role)).toEqual(['image', 'image', 'image']);
    const alt = (chart: string) =>
      page.locator(`figure[data-chart="${chart}"] svg`).getAttribute('aria-label');
    expect(await alt('seeds')).toContain(
      `Known ${overview.seedsTracked}, Maps generated ${overview.seedsDumped}`,
    );
    expect(await alt('detections')).toBe(
      `Detections: Last 24 h ${overview.detections['24h']}, Last 7 days ${overview.detections['7d']}.`,
    );
    expect(overview.detections['7d']).toBe(2);
    expect(await alt('windows')).toContain('seed 6100002 for 12m 0s');
    for (const p of pictures) expect(p.name.length).toBeGreaterThan(20);

    const phone = await openPage('/stats', PHONE);
    await waitForState(phone, 'ready', { page: 'stats' });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'stats-390', true);
  });
});

describe('kept light (issue 14.7)', () => {
  // Two tests: each state is a fresh browser context and page load (seconds on a loaded machine).
  it('shows no console error in any state: idle, invalid, blocked for good', async () => {
    // Idle, and a seed that is not one.
    const idle = await openPage('/');
    await waitForState(idle, 'idle', { page: 'home' });
    const invalid = await openPage('/seed/12ab');
    await waitForState(invalid, 'invalid', { page: 'map' });
    await screenshot(invalid, 'invalid');

    // On the permanent blocklist.
    await stack.api.store.addToBlocklist(6_300_001);
    const blocked = await openPage('/seed/6300001');
    await waitForState(blocked, 'blocked-permanent', { page: 'map' });
    // The page errors of every context are checked after each test (viewer-stack.ts).
  });

  it('shows no console error in any state: rate limited, busy', async () => {
    // On APIs of their own (no worker: what is queued stays queued).
    const limited = await startTestApi();
    const busy = await startTestApi({ QUEUE_MAX: '1' });
    try {
      await setClock(limited, E2E_T0);
      await setClock(busy, E2E_T0);
      for (let i = 0; i < 20; i++)
        expect((await get(`${limited.base}/maps/${6_400_000 + i}`)).status).toBe(202);
      const page = await (await context()).newPage();
      await page.goto(`${limited.url}/seed/6400100`);
      await waitForState(page, 'rate-limited', { page: 'map' });
      await screenshot(page, 'rate-limited');

      expect((await get(`${busy.base}/maps/6500000`)).status).toBe(202);
      const full = await (await context(PHONE)).newPage();
      await full.goto(`${busy.url}/seed/6500001`);
      await waitForState(full, 'unavailable', { page: 'map' });
      await screenshot(full, 'busy-390');
      // Closed while their APIs still answer: a page left retrying would log refused connections.
      await page.context().close();
      await full.context().close();
    } finally {
      await limited.close();
      await busy.close();
    }
    // The page errors of every context are checked after each test (viewer-stack.ts).
  });
});

describe('room card and route (issue 19)', () => {
  /** Clicks the canvas point (CSS px of the canvas) and waits for the frame it causes. */
  async function clickAt(page: Page, x: number, y: number) {
    const box = (await page.locator('#map-canvas').boundingBox())!;
    return afterDraw(page, () => page.mouse.click(box.x + x, box.y + y));
  }
  const centre = (b: ScreenBox): [number, number] => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
  /** A room's label, in full or short. */
  const labelBox = async (page: Page, ...texts: string[]) => {
    const box = (await drawnLabels(page)).labels.find((l) => texts.includes(l.text));
    expect(box, `label ${texts.join(' or ')}`).toBeDefined();
    return box!;
  };
  /** The route the API's own map gives, worked out here with the viewer's route module. */
  const expected = (from: string, to: string) => {
    const map = parseMap(main);
    const index = buildFindIndex(map);
    return shortestRoute(buildRouteGraph(map), roomsOf(index, from), roomsOf(index, to))!;
  };

  it('opens a deep link with route= on the route, drawn on each floor it crosses, and says it', async () => {
    const want = expected('room:scp-914', 'room:gate-a');
    expect(want.elevators).toBe(1);
    const page = await openMap(`/seed/${MAIN}?floor=lcz&route=room:scp-914~room:gate-a`);
    const status = page.getByRole('status').filter({ hasText: 'Route:' });
    await expect
      .poll(() => status.textContent())
      .toMatch(new RegExp(`^Route: ${Math.round(want.metres)} m, about ${Math.round(want.seconds)} s \\(`));
    expect(await status.textContent()).toContain('5.4 m/s');
    expect(await status.textContent()).toContain('From SCP-914 to Gate A.');
    expect(await page.locator('#map-canvas').getAttribute('data-route')).toBe(String(want.rooms.length));
    expect((await canvasPixels(page, [ROUTE])).counts[ROUTE]).toBeGreaterThan(100);
    await screenshot(page, 'route-lcz');
    // The other floor shows its part of the same route.
    await afterDraw(page, () => page.getByRole('radio', { name: 'Heavy Containment + Entrance' }).click());
    await expect.poll(async () => (await canvasPixels(page, [ROUTE])).counts[ROUTE]).toBeGreaterThan(100);
    expect(new URL(page.url()).searchParams.get('route')).toBe('room:scp-914~room:gate-a');
    await screenshot(page, 'route-hcz');

    // On a phone the summary shows over the map, with the panel folded.
    const phone = await openMap(`/seed/${MAIN}?floor=lcz&route=room:scp-914~room:gate-a`, PHONE);
    const summary = phone.locator('#route-status');
    await expect.poll(() => summary.textContent()).toMatch(/^Route: \d+ m, about \d+ s/);
    const c = (await layout(phone)).canvas;
    const r = (await summary.boundingBox())!;
    expect(r.y).toBeGreaterThanOrEqual(c.y0);
    expect(r.y + r.height).toBeLessThanOrEqual(c.y1);
    await screenshot(phone, 'route-phone');
    const box = (await phone.locator('#map-canvas').boundingBox())!;
    const [x, y] = centre(await labelBox(phone, 'SCP-914', '914'));
    await phone.touchscreen.tap(box.x + x, box.y + y);
    await phone.locator('#map-info .room-card').waitFor();
    await screenshot(phone, 'card-phone');
  });

  it('picks a route from room cards: "Route from here", then "Route to here"', async () => {
    const page = await openMap(`/seed/${MAIN}?floor=lcz`);
    // A tap on a room pins its card: name, zone and layout, what spawns there, its doors.
    await clickAt(page, ...centre(await labelBox(page, 'SCP-914', '914')));
    const card = page.locator('#map-info .room-card');
    await card.waitFor();
    expect(await card.locator('h2').textContent()).toBe('SCP-914');
    expect(await card.locator('.card-zone').textContent()).toMatch(/^Light Containment · LCZ layout [1-5]$/);
    expect(await card.textContent()).toContain('Heavy door: SCP-914 gate');
    expect(await card.locator('details').getAttribute('open')).toBeNull();
    expect(await card.locator('details summary').textContent()).toBe('Details');
    await card.getByRole('button', { name: 'Route from here' }).click();
    const status = page.locator('#route-status');
    await expect.poll(() => status.textContent()).toBe('Route from SCP-914: now pick where to.');

    await clickAt(page, ...centre(await labelBox(page, 'LCZ Checkpoint A', 'Chkp A')));
    await expect.poll(() => card.locator('h2').textContent()).toBe('LCZ Checkpoint A');
    await card.getByRole('button', { name: 'Route to here' }).click();
    const want = expected('room:scp-914', 'room:lcz-checkpoint-a');
    await expect
      .poll(() => status.textContent())
      .toMatch(new RegExp(`^Route: ${Math.round(want.metres)} m, about ${Math.round(want.seconds)} s`));
    await page.waitForURL((u) => u.searchParams.get('route') === 'room:scp-914~room:lcz-checkpoint-a');
    await screenshot(page, 'route-from-card');
  });

  it('picks a route from "Find on this map": route from one found room to another', async () => {
    const page = await openMap(`/seed/${MAIN}?floor=lcz`);
    const box = page.getByRole('combobox', { name: 'Find on this map' });
    const findRoom = async (name: string, id: string) => {
      await box.fill(name);
      await page.locator(`[role="option"][data-find="${id}"]`).first().waitFor();
      await afterDraw(page, () => box.press('Enter'));
      await page.waitForURL((u) => u.searchParams.get('find') === id);
    };
    await findRoom('SCP-914', 'room:scp-914');
    await page.getByRole('button', { name: 'Route from found room' }).click();
    await findRoom('Gate A', 'room:gate-a');
    await page.getByRole('button', { name: 'Route to found room' }).click();
    const want = expected('room:scp-914', 'room:gate-a');
    await expect
      .poll(() => page.locator('#route-status').textContent())
      .toMatch(new RegExp(`^Route: ${Math.round(want.metres)} m, about ${Math.round(want.seconds)} s`));
    await page.waitForURL((u) => u.searchParams.get('route') === 'room:scp-914~room:gate-a');
    // Cleared, it leaves the link.
    await page.getByRole('button', { name: 'Clear route' }).click();
    await page.waitForURL((u) => !u.searchParams.has('route'));
    expect(await page.locator('#map-canvas').getAttribute('data-route')).toBe('');
  });

  it('names the room of every door on hover, and shows the room an elevator arrives at', async () => {
    const page = await openMap(`/seed/${MAIN}?floor=hcz`);
    const doors = (await drawnLabels(page)).symbols.filter((s) => s.kind === 'door');
    expect(doors.length).toBe(onFloor(main, 'hcz').doors.length);
    for (const d of doors)
      expect(await infoAt(page, ...centre(d))).toMatch(/(Heavy|Checkpoint) door.*, in \S/);

    const lcz = await openMap(`/seed/${MAIN}?floor=lcz`);
    const elevator = (await drawnLabels(lcz)).symbols.find((s) => s.kind === 'elevator')!;
    expect((await clickAt(lcz, ...centre(elevator))).floor).toBe('hcz');
    await expect
      .poll(() => lcz.locator('#map-info .room-card h2').textContent())
      .toMatch(/^HCZ Elevator [AB]$/);
    await screenshot(lcz, 'elevator-arrival-card');

    // Enter on the keyboard crosshair opens the card of the room under it; its buttons come next on Tab.
    const keys = await openMap(`/seed/${MAIN}?floor=hcz&find=room:scp-079`);
    // The found room is at the centre, where the crosshair starts, once the page has its final
    // layout (a loaded machine may lay it out again after the map is ready).
    await expect
      .poll(async () => {
        const c = (await layout(keys)).canvas;
        return infoAt(keys, width(c) / 2, height(c) / 2);
      })
      .toContain('SCP-079');
    await keys.locator('#map-canvas').focus();
    await keys.keyboard.press('Enter');
    const card = keys.locator('#map-info.pinned .room-card');
    await expect.poll(() => card.locator('h2').textContent()).toBe('SCP-079');
    expect(await card.textContent()).toContain('Facility Manager keycard');
    expect(await card.textContent()).toContain('SCP-079 first gate');
    await keys.keyboard.press('Tab');
    expect(await keys.evaluate(() => document.activeElement?.closest('#map-info') !== null)).toBe(true);
    await screenshot(keys, 'card-keyboard');
  });
});
