import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManualClock } from '../../store/clock.ts';
import { openStore, redisReady, type Store } from '../../store/index.ts';
import { openTestStore } from '../support/test-store.ts';

// Spec 8 counting rules 1 and 2, at the store: a fixed window starts at the first request of a
// key and lasts the period; every request counts, also past any limit; the next request after
// the window opens a new one. Counted in one Lua step, so processes sharing Redis agree.

const WINDOW = 60_000;
let store: Store;
let clock: ManualClock;
const T0 = Date.parse('2026-03-01T08:00:00.000Z');

beforeAll(async () => {
  store = await openTestStore({ name: 'test' });
  clock = store.ctx.clock as ManualClock;
});
afterAll(async () => {
  await store.close();
});

describe('countRequest', () => {
  it('a fixed window from the first request; requests keep counting; a new window after it', async () => {
    await clock.set(T0);
    expect(await store.countRequest('a', WINDOW)).toEqual({ hits: 1, resetAt: T0 + WINDOW });
    await clock.advance(20_000);
    for (let i = 2; i <= 30; i++) {
      expect(await store.countRequest('a', WINDOW)).toEqual({ hits: i, resetAt: T0 + WINDOW });
    }
    await clock.set(T0 + WINDOW - 1);
    expect(await store.countRequest('a', WINDOW)).toEqual({ hits: 31, resetAt: T0 + WINDOW });
    // At the window's end the next request opens a new one, from its own time.
    await clock.set(T0 + WINDOW);
    expect(await store.countRequest('a', WINDOW)).toEqual({ hits: 1, resetAt: T0 + 2 * WINDOW });
    await clock.set(T0 + 3 * WINDOW + 5_000);
    expect(await store.countRequest('a', WINDOW)).toEqual({ hits: 1, resetAt: T0 + 4 * WINDOW + 5_000 });
  });

  it('keys are counted apart', async () => {
    await clock.set(T0);
    await store.countRequest('b', WINDOW);
    await store.countRequest('b', WINDOW);
    expect((await store.countRequest('c', WINDOW)).hits).toBe(1);
    expect((await store.countRequest('b', WINDOW)).hits).toBe(3);
  });

  it('concurrent requests each get their own count (atomic)', async () => {
    await clock.set(T0);
    const other = openStore({
      redisUrl: inject('redisUrl'),
      prefix: store.ctx.prefix,
      clock: 'manual',
      name: 'test-2',
    });
    try {
      await redisReady(other.ctx.redis);
      const counts = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? other : store).countRequest('d', WINDOW)),
      );
      expect(counts.map((c) => c.hits).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      expect(new Set(counts.map((c) => c.resetAt))).toEqual(new Set([T0 + WINDOW]));
    } finally {
      await other.close();
    }
  });
});
