// The map viewer end to end: Debian's headless Chromium (playwright-core) against the real server
// (in-process API on loopback), real Redis and a real generator worker, on the manual clock. One
// browser for the file; each test its own page (a context of its own where it needs one).
// Screenshots and the measured draw times go to test-artifacts/viewer/.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapData } from '../../renderer/map-types.ts';
import { ZONE_BODY, ZONE_FILL } from '../../renderer/palette.ts';
import type { TestApi } from '../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../support/clock.ts';
import { bearer, send, get } from '../support/http.ts';
import { newKey } from '../support/keys.ts';
import { closeWindow, openWindow } from '../support/read-api.ts';
import {
  accessibleControls,
  afterDraw,
  canvasPixels,
  drawn,
  screenshot,
  waitForState,
} from '../support/viewer-page.ts';
import {
  commonItemType,
  FLOOR_IDS,
  floorOfThing,
  itemTypeOf,
  mostCommon,
  onFloor,
  structTypesOf,
} from '../support/viewer-spec.ts';
import { viewerStack } from '../support/viewer-stack.ts';

/** The reference seed of the generator tests. */
const MAIN = 224593721;
const BLOCKED = 31337;
const AHEAD = 777001;
const FRESH = 777002;
/** Enough generated seeds for more than one page of the seed list (50 a page). */
const LISTED = Array.from({ length: 60 }, (_, i) => 5_100_001 + i);

// ----- the stack -----

const stack = viewerStack({ name: 'viewer', seeds: [MAIN, BLOCKED, ...LISTED] });
const { context, openPage, mapJson, recordDraw } = stack;
let api: TestApi;
let main: MapData;

beforeAll(async () => {
  api = stack.api;
  main = await mapJson(MAIN);
});

// ----- the tests -----

describe('map viewer in Chromium', () => {
  it('keeps the browser on 127.0.0.1: any other host is aborted and reported', async () => {
    // `localhost` is not 127.0.0.1 to the guard (and would still stay on this machine if let
    // through). A navigation, because the page's own CSP already stops cross-origin fetches.
    const c = await context();
    const page = await c.newPage();
    const elsewhere = `http://localhost:${api.port}/seeds`;
    await expect(page.goto(elsewhere)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(c.offLoopback).toEqual([elsewhere]);
    // Cleared, so the check after each test holds for this one too.
    c.offLoopback.length = 0;
    c.problems.length = 0;
  });

  it('draws one room per API room on each floor, with the doors and tesla gates of that floor', async () => {
    const page = await openPage(`/seed/${MAIN}`);
    await waitForState(page, 'ready', { page: 'map' });
    let d = await drawn(page);
    recordDraw('firstMap1280', d);
    expect(d).toMatchObject({ seed: String(MAIN), floor: 'lcz', zoom: 1 });

    let total = 0;
    for (const floor of FLOOR_IDS) {
      if (d.floor !== floor) d = await afterDraw(page, () => page.check(`#floor-${floor}`));
      const want = onFloor(main, floor);
      expect(d.floor).toBe(floor);
      expect(want.rooms.length, `API rooms on ${floor}`).toBeGreaterThan(0);
      expect(d.rooms, `rooms drawn on ${floor}`).toBe(want.rooms.length);
      expect(d.doors, `doors drawn on ${floor}`).toBe(want.doors.length); // layer on by default
      expect(d.teslas, `teslas drawn on ${floor}`).toBe(want.teslas.length);
      expect(d.spawns).toBe(0); // spawn layers are off by default
      total += d.rooms;

      // The picture itself: the zone colours of this floor's rooms cover real parts of the canvas.
      const zones = [...new Set(want.rooms.map((r) => r.zone))].filter((z) => z !== 'Surface');
      const colours = zones.flatMap((z) => [ZONE_FILL[z], ZONE_BODY[z]]);
      const px = await canvasPixels(page, colours);
      expect(px.painted, `painted share of ${floor}`).toBeGreaterThan(0.05);
      for (const z of zones) {
        const n = (px.counts[ZONE_FILL[z]] ?? 0) + (px.counts[ZONE_BODY[z]] ?? 0);
        expect(n, `${z} pixels on ${floor}`).toBeGreaterThan(500);
      }
      await screenshot(page, `map-${floor}`);
    }
    // Every room is on one floor, except the Pocket Dimension, which no floor shows.
    const unplaced = main.rooms.filter((r) => floorOfThing(r) === undefined);
    expect(unplaced.every((r) => r.zone === 'Other' && r.y < -250)).toBe(true);
    expect(total + unplaced.length).toBe(main.rooms.length);
  });

  it('toggling layers and the item and structure filters changes what is drawn', async () => {
    const page = await openPage(`/seed/${MAIN}?floor=hcz`);
    await waitForState(page, 'ready', { page: 'map' });
    const want = onFloor(main, 'hcz');
    const base = await drawn(page);
    const basePx = await canvasPixels(page);
    expect(base).toMatchObject({
      floor: 'hcz',
      doors: want.doors.length,
      teslas: want.teslas.length,
      spawns: 0,
    });
    expect(want.doors.length).toBeGreaterThan(0);
    expect(want.teslas.length).toBeGreaterThan(0);

    // Doors off and on again: gone, then the very same picture as before.
    expect(await afterDraw(page, () => page.uncheck('#layer-doors'))).toMatchObject({
      doors: 0,
      teslas: want.teslas.length,
    });
    expect((await canvasPixels(page)).hash).not.toBe(basePx.hash);
    expect(await afterDraw(page, () => page.check('#layer-doors'))).toMatchObject({
      doors: want.doors.length,
    });
    expect((await canvasPixels(page)).hash).toBe(basePx.hash);

    expect(await afterDraw(page, () => page.uncheck('#layer-teslas'))).toMatchObject({
      teslas: 0,
      doors: want.doors.length,
    });
    expect((await canvasPixels(page)).hash).not.toBe(basePx.hash);
    await afterDraw(page, () => page.check('#layer-teslas'));
    expect((await canvasPixels(page)).hash).toBe(basePx.hash);

    // Item spawns: all of this floor, then only the chosen type.
    expect(await afterDraw(page, () => page.check('#layer-items'))).toMatchObject({
      spawns: want.items.length,
    });
    const allItemsPx = await canvasPixels(page);
    expect(allItemsPx.hash).not.toBe(basePx.hash);
    const itemType = commonItemType(want.items);
    const matching = want.items.filter((s) => itemTypeOf(s)[0] === itemType).length;
    expect(matching).toBeLessThan(want.items.length);
    expect(await afterDraw(page, () => page.selectOption('#item-filter', itemType))).toMatchObject({
      spawns: matching,
    });
    expect((await canvasPixels(page)).hash).not.toBe(allItemsPx.hash);
    // The per-floor match counts offer the other floors.
    const perFloor = page.locator('.matches button[data-floor="hcz"]');
    await expect.poll(() => perFloor.textContent()).toContain(String(matching));

    // Structures on top, then filtered to one type.
    const struct = mostCommon(want.structures, structTypesOf);
    const structMatching = want.structures.filter((s) => structTypesOf(s).includes(struct)).length;
    expect(await afterDraw(page, () => page.check('#layer-structures'))).toMatchObject({
      spawns: matching + want.structures.length,
    });
    expect(await afterDraw(page, () => page.selectOption('#struct-filter', struct))).toMatchObject({
      spawns: matching + structMatching,
    });
    await screenshot(page, 'layers-and-filters');

    // Back to every item, spawn layers off: the first picture again.
    await afterDraw(page, () => page.selectOption('#item-filter', 'all'));
    await afterDraw(page, () => page.selectOption('#struct-filter', 'all'));
    await afterDraw(page, () => page.uncheck('#layer-items'));
    expect(await afterDraw(page, () => page.uncheck('#layer-structures'))).toMatchObject({ spawns: 0 });
    expect((await canvasPixels(page)).hash).toBe(basePx.hash);
    // The view is in the URL (written after a short pause).
    await page.waitForURL(
      (u) => u.searchParams.get('layers') === 'doors,teslas' && !u.searchParams.has('item'),
    );
  });

  it('counts a blocked seed down in server time, reads the clock without counting views, then draws it', async () => {
    const key = await newKey(api, 'http');
    const report = await send<{ ok: boolean; blockedUntil: string }>(`${api.base}/plugin/v1/report`, {
      headers: bearer(key.credential),
      json: { event: 'round_start', seed: BLOCKED, port: 7777 },
    });
    expect(report.status).toBe(200);
    const until = Date.parse(report.body.blockedUntil);
    const serverNow = await advanceClock(api, 0);
    expect(until - serverNow).toBe(20 * MINUTE); // HTTP key cap
    const refusedBefore = (await api.store.readProtection()).viewAttemptsBlocked;

    // The page's clock is faked too, so ten-second waits take no time.
    const c = await context();
    await c.context.clock.install();
    const page = await c.newPage();
    const views: string[] = [];
    let clockReads = 0;
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (/^\/api\/(maps|jobs)\//.test(path)) views.push(path);
      if (path === '/api/plugin/v1/version') clockReads++;
    });
    await page.goto(`${api.url}/seed/${BLOCKED}`);
    await waitForState(page, 'blocked', { page: 'map' });
    await page.locator('.status[data-kind="blocked"]').waitFor();
    const timer = page.locator('[role="timer"][data-until]');
    expect(Date.parse((await timer.getAttribute('data-until')) ?? '')).toBe(until);
    await expect.poll(() => timer.textContent()).toMatch(/^00:(20:00|19:5\d)$/);
    expect((await drawn(page)).rooms).toBe(0);
    await screenshot(page, 'blocked');

    /**
     * Ten seconds pass in the page: the countdown's clock read is due. The page schedules each read
     * only once it has handled the last answer, which on a loaded machine can come after the test
     * has seen that answer; so past nine seconds the page clock moves one second at a time until
     * the read is asked (a second read would need ten more unseen steps).
     */
    const tenSeconds = async () => {
      const asked = clockReads;
      const read = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/plugin/v1/version');
      await page.clock.fastForward(9_000);
      for (let late = 0; clockReads === asked; late++) {
        expect(late, 'seconds past nine before the clock read is asked').toBeLessThan(30);
        await page.clock.fastForward(1_000);
      }
      expect((await read).status()).toBe(200);
    };

    // A minute of waiting while the server clock stands still: six clock reads, no view asked,
    // and the countdown still shows the server's 20 minutes although the page's clock moved on.
    for (let i = 0; i < 6; i++) await tenSeconds();
    expect(clockReads).toBe(6);
    expect(views).toEqual([`/api/maps/${BLOCKED}`]);
    await expect.poll(() => timer.textContent()).toMatch(/^00:(20:00|19:5\d)$/);

    // The server clock jumps ten minutes: the next read moves the countdown.
    await advanceClock(api, 10 * MINUTE);
    await tenSeconds();
    await expect.poll(() => timer.textContent()).toMatch(/^00:(10:00|09:5\d)$/);
    expect(views).toHaveLength(1);

    // Past blockedUntil: the next read finds the end passed and the map is asked, and drawn.
    await setClock(api, new Date(until + 1000).toISOString());
    await tenSeconds();
    await waitForState(page, 'ready', { page: 'map' });
    const blockedMap = await mapJson(BLOCKED);
    expect(await drawn(page)).toMatchObject({
      seed: String(BLOCKED),
      rooms: onFloor(blockedMap, 'lcz').rooms.length,
    });
    expect(views).toEqual([`/api/maps/${BLOCKED}`, `/api/maps/${BLOCKED}`]);
    await screenshot(page, 'blocked-then-ready');

    // The public statistic counted the one refused view, not one per clock read.
    expect((await api.store.readProtection()).viewAttemptsBlocked).toBe(refusedBefore + 1);
    await page.getByRole('link', { name: 'Stats' }).click();
    await waitForState(page, 'ready', { page: 'stats' });
    const refused = page.locator('section[data-section="protection"] dl div', {
      hasText: 'Map views refused',
    });
    expect(await refused.locator('dd').textContent()).toBe(String(refusedBefore + 1));
    const row = page.locator(`section[data-section="protection"] tr[data-seed="${BLOCKED}"]`);
    expect(await row.locator('td').last().textContent()).toBe('1');
    await page.locator('section[data-section="overview"]').waitFor();
    await screenshot(page, 'stats', true);
  });

  it('shows a new seed as generating, with its place in the queue, then draws its map', async () => {
    await stack.stopWorker();
    // Another seed is queued first, so the new one has one seed ahead of it.
    expect((await get<{ status: string; ahead: number }>(`${api.base}/jobs/${AHEAD}`)).body).toMatchObject({
      status: 'queued',
      ahead: 0,
    });
    const page = await openPage(`/seed/${FRESH}`);
    await waitForState(page, 'generating', { page: 'map' });
    const status = page.locator('.status[data-kind="generating"]');
    await expect.poll(() => status.getAttribute('data-ahead')).toBe('1');
    expect(await status.textContent()).toContain('queued');
    await screenshot(page, 'generating');

    await stack.startWorker();
    await waitForState(page, 'ready', { page: 'map', timeout: 15_000 });
    const d = await drawn(page);
    recordDraw('afterGenerating', d);
    expect(d).toMatchObject({
      seed: String(FRESH),
      rooms: onFloor(await mapJson(FRESH), 'lcz').rooms.length,
    });
  });

  it('pages through the seed list by button and by scrolling, and opens a seed from it', async () => {
    const api500 = await get<{ items: { seed: number }[]; total: number }>(`${api.base}/seeds?limit=500`);
    const all = api500.body.items.map((i) => String(i.seed));
    expect(all.length).toBeGreaterThan(50);
    expect(all.length).toBe(api500.body.total);

    const page = await openPage('/seeds');
    const list = page.locator('ol.seed-list');
    await page.locator('ol.seed-list[data-state="ready"]').waitFor();
    const shown = () =>
      list.locator('li[data-seed]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-seed')));
    expect(await shown()).toEqual(all.slice(0, 50));
    expect(await list.getAttribute('data-loaded')).toBe('50');
    expect(await list.getAttribute('data-next-cursor')).toBe(all[49]);
    await screenshot(page, 'seeds');

    // The keyboard way: the Load more button.
    await page.locator('button.load-more').focus();
    await page.keyboard.press('Enter');
    await page.locator('ol.seed-list[data-state="end"]').waitFor();
    expect(await shown()).toEqual(all);
    expect(await list.getAttribute('data-loaded')).toBe(String(all.length));
    expect(await list.getAttribute('data-next-cursor')).toBe('');
    expect(await page.locator('button.load-more').isHidden()).toBe(true);

    // Scrolling to the end loads the next page by itself.
    const scrolled = await (await context()).newPage();
    await scrolled.goto(`${api.url}/seeds`);
    await scrolled.locator('ol.seed-list[data-state="ready"][data-loaded="50"]').waitFor();
    await scrolled.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await scrolled.locator('ol.seed-list[data-state="end"]').waitFor();
    expect(await scrolled.locator('li[data-seed]').count()).toBe(all.length);

    // A row is a link to its map, followed without a page load.
    await page.locator(`li[data-seed="${MAIN}"] a`).click();
    await waitForState(page, 'ready', { page: 'map' });
    expect(new URL(page.url()).pathname).toBe(`/seed/${MAIN}`);
    expect((await drawn(page)).seed).toBe(String(MAIN));
  });

  it('restores the whole view from a deep link, from history and after a reload', async () => {
    const want = onFloor(main, 'hcz');
    const itemType = commonItemType(want.items);
    const matching = want.items.filter((s) => itemTypeOf(s)[0] === itemType).length;
    const room = want.rooms.find((r) => r.zone === 'HeavyContainment')!;
    const link = `/seed/${MAIN}?floor=hcz&layers=doors,items&item=${itemType}&zoom=2&cx=${room.x}&cz=${room.z}`;
    const page = await openPage(link);
    await waitForState(page, 'ready', { page: 'map' });
    const d = await drawn(page);
    recordDraw('deepLink', d);
    expect(d).toMatchObject({ floor: 'hcz', zoom: 2, doors: want.doors.length, teslas: 0, spawns: matching });
    expect(await page.isChecked('#floor-hcz')).toBe(true);
    expect(await page.isChecked('#layer-doors')).toBe(true);
    expect(await page.isChecked('#layer-teslas')).toBe(false);
    expect(await page.isChecked('#layer-structures')).toBe(false);
    expect(await page.isChecked('#layer-items')).toBe(true);
    expect(await page.inputValue('#item-filter')).toBe(itemType);
    expect(await page.inputValue('#seed-input')).toBe(String(MAIN));
    // Loading does not rewrite a link that is already in its canonical form.
    const loaded = new URL(page.url());
    expect(loaded.pathname + loaded.search).toBe(link);
    await screenshot(page, 'deep-link');

    // A floor change is a history entry: Back restores the linked floor in the same page.
    await afterDraw(page, () => page.check('#floor-lcz'));
    await page.waitForURL((u) => u.searchParams.get('floor') === 'lcz');
    expect(await afterDraw(page, () => page.goBack())).toMatchObject({ floor: 'hcz', spawns: matching });
    expect(await page.isChecked('#floor-hcz')).toBe(true);

    // Change the view with the controls, then reload: everything comes back.
    await afterDraw(page, () => page.getByRole('button', { name: 'Zoom in' }).click());
    await afterDraw(page, () => page.check('#layer-structures'));
    await page.waitForURL((u) => u.searchParams.get('layers') === 'doors,structures,items');
    const before = await drawn(page);
    const url = page.url();
    await page.reload();
    await waitForState(page, 'ready', { page: 'map' });
    const after = await drawn(page);
    expect(page.url()).toBe(url);
    expect(after).toMatchObject({
      floor: before.floor,
      zoom: before.zoom,
      doors: before.doors,
      teslas: 0,
      spawns: before.spawns,
      rooms: before.rooms,
    });
    expect(after.zoom).toBeCloseTo(2 * 1.4, 2);
    expect(await page.isChecked('#layer-structures')).toBe(true);
    expect(await page.inputValue('#item-filter')).toBe(itemType);

    // The query form of a link (/?seed=) works the same way.
    await page.goto(`${api.url}/?seed=${MAIN}&floor=surface&layers=none`);
    await waitForState(page, 'ready', { page: 'map' });
    expect(await drawn(page)).toMatchObject({
      floor: 'surface',
      rooms: onFloor(main, 'surface').rooms.length,
      doors: 0,
      teslas: 0,
      spawns: 0,
    });
  });

  it('is usable 360 px wide: nothing overflows, the map fills the width and the controls work by touch', async () => {
    const page = await openPage(`/seed/${MAIN}`, {
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await waitForState(page, 'ready', { page: 'map' });
    const d = await drawn(page);
    recordDraw('firstMap360', d);
    expect(d.rooms).toBe(onFloor(main, 'lcz').rooms.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const box = (await page.locator('canvas#map-canvas').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(250);
    // Every visible control lies within the screen width.
    const outside = await page.evaluate(() =>
      Array.from(document.querySelectorAll('input, button, select, a, label'))
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 1 && r.height > 1 && (r.left < 0 || r.right > 360.5))
        .map(({ el }) => el.outerHTML.slice(0, 80)),
    );
    expect(outside).toEqual([]);
    expect((await canvasPixels(page)).painted).toBeGreaterThan(0.05);
    await screenshot(page, 'narrow-360');
    await screenshot(page, 'narrow-360-full', true);

    const hcz = await afterDraw(page, () => page.locator('label[for="floor-hcz"]').tap());
    expect(hcz).toMatchObject({ floor: 'hcz', rooms: onFloor(main, 'hcz').rooms.length });
    expect(await afterDraw(page, () => page.locator('#layer-items').tap())).toMatchObject({
      spawns: onFloor(main, 'hcz').items.length,
    });
  });

  it('works from the keyboard: Tab to the seed box, type, Enter; + and - zoom the map', async () => {
    const page = await openPage('/');
    await waitForState(page, 'idle', { page: 'home' });
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    let tabs = 0;
    while ((await focusedId()) !== 'seed-input') {
      expect(++tabs, 'Tab presses to reach the seed box').toBeLessThanOrEqual(10);
      await page.keyboard.press('Tab');
    }

    // Not a seed: the error is shown and tied to the box.
    await page.keyboard.type('12ab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#seed-error').textContent()).toMatch(/whole number/);
    expect(await page.getAttribute('#seed-input', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('main#main', 'data-state')).toBe('invalid');

    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(String(MAIN));
    await page.keyboard.press('Enter');
    await waitForState(page, 'ready', { page: 'map' });
    expect(await drawn(page)).toMatchObject({ seed: String(MAIN), zoom: 1 });
    expect(await page.locator('#seed-error').textContent()).toBe('');
    expect(new URL(page.url()).searchParams.get('seed')).toBe(String(MAIN));

    // On to the map itself, still by Tab.
    let more = 0;
    while ((await focusedId()) !== 'map-canvas') {
      expect(++more, 'Tab presses from the seed box to the map').toBeLessThanOrEqual(40);
      await page.keyboard.press('Tab');
    }
    expect((await afterDraw(page, () => page.keyboard.press('+'))).zoom).toBeCloseTo(1.25, 2);
    expect((await afterDraw(page, () => page.keyboard.press('+'))).zoom).toBeCloseTo(1.5625, 2);
    expect((await afterDraw(page, () => page.keyboard.press('-'))).zoom).toBeCloseTo(1.25, 2);
    // Keyboard use shows what is under the crosshair.
    await page.locator('#map-info:not([hidden])').waitFor();
    expect(await page.locator('#map-info').textContent()).toContain('World');
    await screenshot(page, 'keyboard');
    expect((await afterDraw(page, () => page.keyboard.press('0'))).zoom).toBe(1);
  });

  it('gives every control an accessible name (map, seed list and statistics pages)', async () => {
    const want = onFloor(main, 'hcz');
    const itemType = commonItemType(want.items);
    // With a filter on, the per-floor match buttons are there too.
    const page = await openPage(`/seed/${MAIN}?floor=hcz&layers=items&item=${itemType}`);
    await waitForState(page, 'ready', { page: 'map' });
    // A window that has ended puts the protection table (a scrollable region with a seed link)
    // and the timeline on the statistics page, whatever the tests before this one did.
    await closeWindow(api, await openWindow(api, LISTED[0]!));
    const pages: [string, string][] = [
      ['map', ''],
      ['seeds', '/seeds'],
      ['stats', '/stats'],
    ];
    for (const [id, path] of pages) {
      if (path) {
        await page.goto(`${api.url}${path}`);
        await waitForState(page, 'ready', { page: id });
      }
      const controls = await accessibleControls(page);
      expect(controls.length, `controls on the ${id} page`).toBeGreaterThan(id === 'map' ? 15 : 5);
      expect(
        controls.filter((c) => c.name === ''),
        `unnamed controls on the ${id} page`,
      ).toEqual([]);
      if (id === 'map') {
        const named = (role: string, name: string) =>
          controls.some((c) => c.role === role && c.name === name);
        expect(named('textbox', 'Seed')).toBe(true);
        // The floor radios and layer chips are named by what they show, then their full names.
        expect(named('radio', 'HCZ + EZ (Heavy Containment + Entrance)')).toBe(true);
        expect(named('checkbox', 'Items (Item spawns)')).toBe(true);
        expect(named('combobox', 'Item type')).toBe(true);
        expect(named('button', 'Zoom in')).toBe(true);
        expect(controls.some((c) => c.role === 'image' && c.name.startsWith(`Map of seed ${MAIN}`))).toBe(
          true,
        );
      }
    }
  });
});
