import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMap } from '../../../generator/index.ts';
import { SeedPageSchema } from '../../../api/schemas.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { setClock } from '../../support/clock.ts';
import { startTestWorker, type TestWorker } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import { closeWindow, generate, openWindow } from '../../support/read-api.ts';

// GET /seeds (spec 2.5, 4.9) over real HTTP, with seeds dumped by a real worker: order, paging by
// cursor, limits, hidden seeds, and pages that stay put while new dumps arrive.

type Page = { items: { seed: number }[]; total: number; nextCursor: number | null };

let api: TestApi;
let worker: TestWorker;
/** Every dumped seed, oldest dump first (one worker takes the queue in order). */
const dumped = [60007, 60003, 60011, 60001, 60012, 60005, 60009, 60002, 60010, 60004, 60008, 60006];
const newestFirst = () => [...dumped].reverse();

beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api.config.REDIS_PREFIX);
  await setClock(api, '2026-03-01T08:00:00.000Z');
  await generate(api, ...dumped);
});
afterAll(async () => {
  await worker.stop();
  await api.close();
});

async function page(query = '') {
  const res = await get<Page>(`${api.base}/seeds${query}`);
  if (res.status === 200) SeedPageSchema.strict().parse(res.body);
  return res;
}

/** Reads every page with `limit`; checks each cursor is the last seed of the page before. */
async function allPages(limit: number): Promise<number[][]> {
  const pages: number[][] = [];
  let cursor: number | null = null;
  do {
    const res = await page(`?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(res.status).toBe(200);
    const seeds = res.body.items.map((i) => i.seed);
    pages.push(seeds);
    expect(seeds.length).toBeLessThanOrEqual(limit);
    if (res.body.nextCursor !== null) {
      expect(seeds).toHaveLength(limit);
      expect(res.body.nextCursor).toBe(seeds.at(-1));
    }
    cursor = res.body.nextCursor;
  } while (cursor !== null);
  return pages;
}

describe('GET /seeds (4.9)', () => {
  it('lists every dumped seed, newest dump first, with the list fields of 2.5 (default limit 200)', async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(dumped.length);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items).toEqual(
      newestFirst().map((seed) => {
        const map = generateMap(seed);
        return {
          seed,
          roomCount: map.rooms.length,
          spawns: map.spawns.length,
          markers: 0,
          dumped: true,
          detected: false,
        };
      }),
    );
  });

  it('pages by cursor (the last seed of the previous page); nextCursor is null on the last page', async () => {
    expect(await allPages(5)).toEqual([
      newestFirst().slice(0, 5),
      newestFirst().slice(5, 10),
      newestFirst().slice(10),
    ]);
    // A last page that is exactly full still ends the list.
    expect(await allPages(4)).toEqual([0, 4, 8].map((i) => newestFirst().slice(i, i + 4)));
    expect(await allPages(12)).toEqual([newestFirst()]);
    expect((await allPages(1)).flat()).toEqual(newestFirst());
    expect((await allPages(500)).flat()).toEqual(newestFirst());
    for (const limit of [1, 5]) {
      const res = await page(`?limit=${limit}`);
      expect(res.body.total).toBe(dumped.length);
    }
    // A parameter of the client's own (a cache-buster) is ignored like an unknown body field.
    const busted = await page(`?limit=5&_=${Date.now()}`);
    expect(busted.status).toBe(200);
    expect(busted.body.items.map((i: { seed: number }) => i.seed)).toEqual(newestFirst().slice(0, 5));
  });

  it('answers the same page and errors to the spellings express also accepts (front door or not)', async () => {
    const plain = await page('?limit=3&cursor=' + newestFirst()[2]);
    expect(plain.status).toBe(200);
    for (const path of ['/seeds/', '/Seeds', '/SEEDS/']) {
      const res = await get<Page>(`${api.base}${path}?limit=3&cursor=${newestFirst()[2]}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.body, path).toEqual(plain.body);
      const bad = await get(`${api.base}${path}?limit=0`);
      expect([bad.status, bad.body], path).toEqual([400, { error: 'invalid request', field: 'limit' }]);
    }
    expect(plain.headers.get('cache-control')).toBe('no-store');
    // A repeated parameter is two values, as express's query parser says: refused, not guessed.
    const repeated = await page('?limit=2&limit=3');
    expect([repeated.status, repeated.body]).toEqual([400, { error: 'invalid request', field: 'limit' }]);
  });

  it.each(['0', '501', 'x', '', '-1', '1.5', '01', '1e2', '200abc'])(
    'answers 400 for limit=%j, naming the parameter',
    async (limit) => {
      const res = await page(`?limit=${encodeURIComponent(limit)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid request', field: 'limit' });
    },
  );

  it.each([
    ['not a seed', 'abc'],
    ['zero', '0'],
    ['negative', '-5'],
    ['a fraction', '1.5'],
    ['empty', ''],
    ['out of range', '2147483648'],
    ['a seed never dumped', '123'],
  ])('answers 400 invalid cursor for %s', async (_what, cursor) => {
    const res = await page(`?cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid cursor' });
  });

  it('answers 400 invalid cursor for a seed that is only queued, not dumped', async () => {
    await worker.stop();
    try {
      expect((await get(`${api.base}/maps/2024`, { ip: '198.51.100.30' })).status).toBe(202);
      const res = await page('?cursor=2024');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    } finally {
      worker = await startTestWorker(api.config.REDIS_PREFIX);
    }
    await generate(api, 2024);
    dumped.push(2024);
    expect((await page('?cursor=2024')).status).toBe(200);
  });

  it('leaves out seeds with an open window (and blocklisted ones) from items and total; they come back', async () => {
    const list = newestFirst();
    const hidden = list[4]!;
    const blocklisted = list[7]!;
    // A reader got the first page before the window opened; its cursor stays usable.
    const first = await page('?limit=4');
    const cursor = first.body.nextCursor!;
    expect(cursor).toBe(list[3]);
    const window = await openWindow(api, cursor);
    await api.store.addToBlocklist(blocklisted);
    const other = await openWindow(api, hidden);

    const visible = list.filter((s) => ![cursor, hidden, blocklisted].includes(s));
    const whole = await page();
    expect(whole.body.items.map((i) => i.seed)).toEqual(visible);
    expect(whole.body.total).toBe(visible.length);
    expect((await allPages(3)).flat()).toEqual(visible);
    const next = await page(`?limit=4&cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.items.map((i) => i.seed)).toEqual(
      list
        .slice(4)
        .filter((s) => s !== hidden && s !== blocklisted)
        .slice(0, 4),
    );

    await closeWindow(api, window);
    await closeWindow(api, other);
    await api.store.removeFromBlocklist(blocklisted);
    const back = await page();
    expect(back.body.items.map((i) => i.seed)).toEqual(list);
    expect(back.body.total).toBe(list.length);
  });

  it('a seed whose window runs out by itself is listed again without any sweep or report', async () => {
    const seed = newestFirst()[2]!;
    const window = await openWindow(api, seed);
    expect((await page()).body.items.map((i) => i.seed)).not.toContain(seed);
    await setClock(api, window.blockedUntil);
    const res = await page();
    expect(res.body.items.map((i) => i.seed)).toEqual(newestFirst());
    expect(res.body.total).toBe(dumped.length);
  });

  it('new dumps arriving while paging never shift or repeat items of pages already read', async () => {
    const before = newestFirst();
    const read: number[] = [];
    let cursor: number | null = null;
    const fresh = [70001, 70002, 70003, 70004, 70005];
    let pageNo = 0;
    do {
      const res = await page(`?limit=4${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(res.status).toBe(200);
      read.push(...res.body.items.map((i) => i.seed));
      cursor = res.body.nextCursor;
      // Between pages, the worker dumps new seeds.
      const arriving = fresh.slice(pageNo * 2, pageNo * 2 + 2);
      if (arriving.length) {
        await generate(api, ...arriving);
        dumped.push(...arriving);
      }
      pageNo++;
    } while (cursor !== null);
    expect(read).toEqual(before);
    expect(new Set(read).size).toBe(read.length);

    // The new seeds lead a fresh first page, newest first.
    const now = await page();
    expect(now.body.items.map((i) => i.seed)).toEqual(
      [...fresh.filter((s) => dumped.includes(s))].reverse().concat(before),
    );
    expect(now.body.total).toBe(dumped.length);
  });
});
