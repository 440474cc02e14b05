import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OverviewSchema, ProtectionSchema } from '../../../api/schemas.ts';
import { startApiAt, type TestApi } from '../../support/api.ts';
import { advanceClock, MINUTE, setClock, pollUntil } from '../../support/clock.ts';
import { startTestWorker } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import { closeWindow, generate, openWindow } from '../../support/read-api.ts';

// GET /stats/overview and /stats/protection (spec 2.7, 2.8, 4.10, 4.11, part 8) over real HTTP:
// shapes, the 60-second cache on the manual clock, the per-IP limit that only misses spend,
// requestsTotal, and the protection list (ended windows only, never the seed of an open one).

type Overview = ReturnType<typeof OverviewSchema.parse>;
type Protection = ReturnType<typeof ProtectionSchema.parse>;

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let api: TestApi;
beforeEach(async () => {
  api = await startApiAt(iso(T0));
});
afterEach(async () => {
  await api.close();
});

const RecentStrict = ProtectionSchema.shape.recent.element.strict();

async function overview(on: TestApi = api, ip = '198.51.100.40') {
  const res = await get<Overview>(`${on.base}/stats/overview`, { ip });
  if (res.status === 200) OverviewSchema.strict().parse(res.body);
  return res;
}
async function protection(on: TestApi = api, ip = '198.51.100.40') {
  const res = await get<Protection>(`${on.base}/stats/protection`, { ip });
  if (res.status === 200) {
    ProtectionSchema.strict().parse(res.body);
    for (const w of res.body.recent) RecentStrict.parse(w);
  }
  return res;
}

describe('stats shapes (2.7, 2.8)', () => {
  it('answer 200 with exactly the fields of the spec, zero on a fresh store', async () => {
    const o = await overview();
    expect(o.status).toBe(200);
    expect(o.headers.get('content-type')).toMatch(/^application\/json/);
    expect(o.body).toEqual({
      seedsTracked: 0,
      seedsDumped: 0,
      seedsDetected: 0,
      requestsTotal: expect.any(Number),
      detections: { '24h': 0, '7d': 0 },
      uptimeSec: 0,
    });
    const p = await protection();
    expect(p.status).toBe(200);
    // Both cached 60 s (4.10, 4.11), by shared caches too.
    expect(o.headers.get('cache-control')).toBe('public, max-age=60');
    expect(p.headers.get('cache-control')).toBe('public, max-age=60');
    expect(p.body).toEqual({ seeds: 0, windows: 0, viewAttemptsBlocked: 0, recent: [] });
  });
});

describe('Cache-Control of the statistics', () => {
  const maxAge = (res: { headers: Headers }) => {
    const m = /^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '');
    expect(m, res.headers.get('cache-control') ?? 'no Cache-Control').not.toBeNull();
    return Number(m![1]);
  };

  it('says what is left of the 60 s; protection no longer than a listed seed stays in its cooldown', async () => {
    await closeWindow(api, await openWindow(api, 4720));
    // The window ended at T0, so seed 4720 may open a new window from T0 + 5 min.
    await advanceClock(api, 4 * MINUTE + 30_000);
    expect(maxAge(await overview())).toBe(60);
    expect((await protection()).body.recent.map((w) => w.seed)).toEqual([4720]);
    expect(maxAge(await protection())).toBe(30);
    await advanceClock(api, 20_000);
    expect(maxAge(await overview())).toBe(40);
    expect(maxAge(await protection())).toBe(10);
    // Its cooldown over, the answer (still the API's own cached one) is for no shared cache to keep.
    await advanceClock(api, 10_000);
    expect(maxAge(await protection())).toBe(0);
    expect(maxAge(await overview())).toBe(30);
  });
});

describe('the 60-second cache', () => {
  it('keeps both answers for 60 s of the manual clock, then reads afresh', async () => {
    const worker = await startTestWorker(api.config.REDIS_PREFIX);
    try {
      const o1 = (await overview()).body;
      const p1 = (await protection()).body;
      await generate(api, 4711);
      const window = await openWindow(api, 4712);
      await closeWindow(api, window);

      await advanceClock(api, MINUTE - 1);
      expect((await overview()).body).toEqual(o1);
      expect((await protection()).body).toEqual(p1);

      await advanceClock(api, 1);
      const miss = await overview();
      const o2 = miss.body;
      expect(miss.headers.get('cache-control')).toBe('public, max-age=60');
      expect(o2).toMatchObject({ seedsTracked: 1, seedsDumped: 1, uptimeSec: o1.uptimeSec + 60 });
      const p2 = (await protection()).body;
      expect(p2).toMatchObject({
        seeds: 1,
        windows: 1,
        recent: [{ seed: 4712, at: iso(T0), endedAt: iso(T0) }],
      });

      // A new API process (a redeploy) counts its uptime from 0.
      const redeployed = await startApiAt(iso(T0 + MINUTE), { REDIS_PREFIX: api.config.REDIS_PREFIX });
      try {
        expect((await overview(redeployed)).body).toMatchObject({ seedsDumped: 1, uptimeSec: 0 });
      } finally {
        await redeployed.close();
      }
    } finally {
      await worker.stop();
    }
  });

  it('spends the per-IP limit (20 a minute) on misses only; a 429 carries Retry-After', async () => {
    // The cache lives in each API process, the limit in Redis: 11 API processes sharing one
    // store give 22 possible misses within one minute of the clock.
    const others = await Promise.all(
      Array.from({ length: 10 }, () => startApiAt(iso(T0), { REDIS_PREFIX: api.config.REDIS_PREFIX })),
    );
    const apis = [api, ...others];
    const ip = '203.0.113.50';
    try {
      for (const a of apis.slice(0, 10)) expect((await overview(a, ip)).status).toBe(200);
      for (const a of apis.slice(0, 9)) expect((await protection(a, ip)).status).toBe(200);
      // 19 misses so far. Hits, however many, are not counted.
      for (let i = 0; i < 40; i++) {
        expect((await overview(apis[i % 10], ip)).status).toBe(200);
        expect((await protection(apis[i % 9], ip)).status).toBe(200);
      }
      expect((await protection(apis[9], ip)).status).toBe(200); // miss 20
      const limited = await overview(apis[10], ip); // miss 21
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: 'rate limited' });
      expect(limited.headers.get('retry-after')).toBe('60');
      expect((await protection(apis[10], ip)).status).toBe(429);

      // Another IP is not limited; the answer it loads is then a hit for everyone.
      expect((await overview(apis[10], '203.0.113.51')).status).toBe(200);
      expect((await overview(apis[10], ip)).status).toBe(200);

      // The next minute of the clock starts a new window.
      await advanceClock(api, MINUTE);
      expect((await protection(apis[10], ip)).status).toBe(200);
    } finally {
      await Promise.all(others.map((a) => a.close()));
    }
  });
});

describe('requestsTotal', () => {
  it('counts every API request (flushed to Redis once a second)', async () => {
    let sent = 0;
    const send = async (path: string) => {
      sent++;
      return get(`${api.base}${path}`);
    };
    for (const path of ['/plugin/v1/version', '/maps/0', '/jobs/5', '/seeds', '/seeds?limit=0', '/nowhere']) {
      await send(path);
    }
    // The test clock is not part of the API.
    for (let i = 0; i < 5; i++) await advanceClock(api, 1);

    const read = async () => {
      await advanceClock(api, MINUTE); // past the cache
      return (await send('/stats/overview')).body as Overview;
    };
    // Every request before the read is counted once flushed; the read itself may or may not be.
    const o = await pollUntil(read, (b) => b.requestsTotal >= sent - 1, { timeoutMs: 5_000, everyMs: 200 });
    expect(o.requestsTotal).toBeLessThanOrEqual(sent);
  });
});

describe('protection statistics (2.7, 4.11)', () => {
  it('list at most 10 ended windows, newest first, each with the views refused during it', async () => {
    const seeds = Array.from({ length: 12 }, (_, i) => 880_001 + i);
    const expected: Protection['recent'] = [];
    let refused = 0;
    for (const [i, seed] of seeds.entries()) {
      const openedAt = await advanceClock(api, 0);
      const window = await openWindow(api, seed);
      const views = i % 4;
      for (let v = 0; v < views; v++) {
        const res = await get(`${api.base}/${v % 2 ? 'jobs' : 'maps'}/${seed}`, {
          ip: `198.51.100.${60 + v}`,
        });
        expect(res.status).toBe(403);
      }
      refused += views;
      if (i < seeds.length - 1) {
        const endedAt = await advanceClock(api, MINUTE);
        await closeWindow(api, window);
        expected.unshift({
          seed,
          at: iso(openedAt),
          endedAt: iso(endedAt),
          viewAttempts: views,
          keyKind: 'http',
        });
        // Views after the end are not refused and not counted.
        expect((await get(`${api.base}/jobs/${seed}`)).status).toBe(200);
        await advanceClock(api, MINUTE);
      } else {
        // The last runs to its 20-minute cap without round_end.
        await advanceClock(api, 25 * MINUTE);
        expected.unshift({
          seed,
          at: iso(openedAt),
          endedAt: window.blockedUntil,
          viewAttempts: views,
          keyKind: 'http',
        });
      }
    }
    const p = await protection();
    expect(p.body).toEqual({
      seeds: 12,
      windows: 12,
      viewAttemptsBlocked: refused,
      recent: expected.slice(0, 10),
    });
  });

  it('lists by end time, not by the order the windows were settled in (issue 13)', async () => {
    // Key A's window on X runs out at its 20-minute cap at T0+20; key B's on Y (opened at T0+2)
    // gets round_end at T0+21, as the clock jumps straight there: Y is settled first, X only by
    // the sweep that the stats read runs.
    const x = await openWindow(api, 996_000);
    await setClock(api, iso(T0 + 2 * MINUTE));
    const y = await openWindow(api, 996_100);
    await setClock(api, iso(T0 + 21 * MINUTE));
    await closeWindow(api, y);
    expect((await protection()).body.recent).toEqual([
      {
        seed: y.seed,
        at: iso(T0 + 2 * MINUTE),
        endedAt: iso(T0 + 21 * MINUTE),
        viewAttempts: 0,
        keyKind: 'http',
      },
      { seed: x.seed, at: iso(T0), endedAt: x.blockedUntil, viewAttempts: 0, keyKind: 'http' },
    ]);
  });

  it('never shows the seed of an open window, not from its earlier windows nor from a cached answer', async () => {
    const seed = 90210;
    const first = await openWindow(api, seed);
    expect((await protection()).body).toMatchObject({ seeds: 1, windows: 1, recent: [] });
    await advanceClock(api, MINUTE);
    await closeWindow(api, first);
    await advanceClock(api, MINUTE);
    expect((await protection()).body.recent.map((w) => w.seed)).toEqual([seed]);

    // After the cooldown the same seed opens again: its earlier window is not shown meanwhile.
    await advanceClock(api, 5 * MINUTE);
    const second = await openWindow(api, seed);
    const during = await protection();
    expect(during.text).not.toContain(String(seed));
    expect(during.body).toMatchObject({ seeds: 1, windows: 2 });

    // An answer cached before the window opened is not served with the seed in it either.
    await closeWindow(api, second);
    await advanceClock(api, 6 * MINUTE);
    expect((await protection()).body.recent.map((w) => w.seed)).toEqual([seed, seed]);
    const third = await openWindow(api, seed);
    const cachedHit = await protection();
    expect(cachedHit.text).not.toContain(String(seed));

    // Shown again once the window has ended (here: run to its end).
    await setClock(api, third.blockedUntil);
    await advanceClock(api, MINUTE);
    expect((await protection()).body.recent.map((w) => w.seed)).toEqual([seed, seed, seed]);
  });
});
