import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../store/index.ts';
import { manualClock } from '../../../store/clock.ts';
import { openTestStore } from '../../support/test-store.ts';

// seeds:hidden, the one-HEXISTS visibility check of maps an API process holds, against the windows
// and the blocklist it is derived from: kept in step by every change, and rebuilt the same.

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
let store: Store;
beforeAll(async () => {
  store = await openTestStore({ name: 'hidden' });
  await manualClock(store.ctx.redis, store.ctx.prefix).set(T0);
});
afterAll(async () => {
  await store.close();
});

const hidden = () => store.ctx.redis.hgetall(`${store.ctx.prefix}seeds:hidden`);

describe('seeds:hidden', () => {
  it('follows windows opening and closing and the blocklist, in any order, and rebuilds the same', async () => {
    const { serverId } = await store.issueHttpKey();
    const expectBuiltSame = async (expected: Record<string, string>) => {
      expect(await hidden()).toEqual(expected);
      await store.ctx.redis.del(`${store.ctx.prefix}seeds:hidden`);
      expect(await store.buildHiddenSeeds()).toBe(Object.keys(expected).length);
      expect(await hidden()).toEqual(expected);
      for (const seed of [71, 72, 73]) expect(await store.mayBeHidden(seed)).toBe(String(seed) in expected);
    };
    await expectBuiltSame({});

    const open = await store.reportSeed({ serverId, kind: 'http', seed: 71, event: 'round_start' });
    const endsAt = String(open.blockedUntil);
    await expectBuiltSame({ 71: endsAt });
    // Blocklisted while its window is open: permanent; off the blocklist: the window again.
    await store.addToBlocklist(71);
    await store.addToBlocklist(72);
    await expectBuiltSame({ 71: 'permanent', 72: 'permanent' });
    await store.removeFromBlocklist(71);
    await expectBuiltSame({ 71: endsAt, 72: 'permanent' });
    // The window closes: shown again; a blocklisted seed whose window closes stays hidden.
    await store.addToBlocklist(71);
    await store.reportSeed({ serverId, kind: 'http', seed: 71, event: 'round_end' });
    await expectBuiltSame({ 71: 'permanent', 72: 'permanent' });
    await store.removeFromBlocklist(71);
    await store.removeFromBlocklist(72);
    await store.removeFromBlocklist(73);
    await expectBuiltSame({});
  });
});
