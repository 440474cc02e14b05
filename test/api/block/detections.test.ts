import { describe, expect } from 'vitest';
import type { ManualClock, ReportEvent, Store } from '../../../store/index.ts';
import { MINUTE } from '../../support/clock.ts';
import { storeTest as it } from '../../support/test-store.ts';

// Spec 3.1 "Also" of the opening row: detections of the seed from the last 5 minutes are deleted
// (they likely came from the round being hidden); older ones and other seeds' stay. Only an
// opening purges. Detections are seeded straight into the storage the engine purges:
// det:<seed> (zset, member id, score ts) and det:all (zset, member `<seed>:<id>`, score ts).

const T0 = Date.parse('2026-03-01T08:00:00.000Z');

/** The test's store with its clock at T0, and what the tests do with it. */
async function atT0(store: Store) {
  const clock = store.ctx.clock as ManualClock;
  await clock.set(T0);
  const { redis, prefix } = store.ctx;
  return {
    clock,
    async detect(seed: number, id: string, ts: number) {
      await redis.zadd(`${prefix}det:${seed}`, ts, id);
      await redis.zadd(`${prefix}det:all`, ts, `${seed}:${id}`);
    },
    ofSeed: (seed: number) => redis.zrange(`${prefix}det:${seed}`, '0', '-1'),
    all: () => redis.zrange(`${prefix}det:all`, '0', '-1'),
    async httpKey() {
      const { serverId } = await store.issueHttpKey();
      return (seed: number, event: ReportEvent) => store.reportSeed({ serverId, kind: 'http', seed, event });
    },
  };
}

describe('detections when a window opens', () => {
  it("deletes the seed's detections of the last 5 minutes, keeps older ones and other seeds'", async ({
    testStore,
  }) => {
    const { detect, ofSeed, all, httpKey } = await atT0(testStore);
    const report = await httpKey();
    await detect(601, 'hour-ago', T0 - 60 * MINUTE);
    await detect(601, 'just-older', T0 - 5 * MINUTE - 1);
    await detect(601, 'just-inside', T0 - 5 * MINUTE + 1);
    await detect(601, 'two-min', T0 - 2 * MINUTE);
    await detect(601, 'last-ms', T0 - 1);
    await detect(601, 'now', T0);
    await detect(602, 'other-seed', T0 - MINUTE);

    expect((await report(601, 'round_start')).outcome).toBe('opened');
    expect(await ofSeed(601)).toEqual(['hour-ago', 'just-older']);
    expect(await ofSeed(602)).toEqual(['other-seed']);
    expect(await all()).toEqual(['601:hour-ago', '601:just-older', '602:other-seed']);
  });

  it('a report that opens nothing deletes nothing', async ({ testStore }) => {
    const { clock, detect, ofSeed, all, httpKey } = await atT0(testStore);
    const holder = await httpKey();
    const other = await httpKey();
    expect((await holder(611, 'round_start')).outcome).toBe('opened');
    await clock.advance(MINUTE);
    await detect(611, 'during', T0 + MINUTE);
    await detect(612, 'recent', T0);
    const before = { a: await ofSeed(611), b: await ofSeed(612), all: await all() };
    const unchanged = async () =>
      expect({ a: await ofSeed(611), b: await ofSeed(612), all: await all() }).toEqual(before);

    expect((await other(611, 'periodic')).outcome).toBe('kept'); // another key, window held
    expect((await holder(611, 'round_start')).outcome).toBe('kept');
    expect((await holder(612, 'round_start')).outcome).toBe('busy'); // the key holds 611
    await unchanged();
    expect((await holder(611, 'round_end')).outcome).toBe('closed');
    expect((await holder(612, 'round_start')).outcome).toBe('gap'); // 611 opened 1 min ago
    expect((await other(611, 'round_start')).outcome).toBe('cooldown');
    await unchanged();

    // A seed whose budget is spent for HTTP keys.
    await clock.advance(5 * MINUTE);
    expect((await other(613, 'round_start')).outcome).toBe('opened');
    await clock.advance(25 * MINUTE);
    await detect(613, 'late', T0 + 30 * MINUTE);
    expect(await other(613, 'round_start')).toMatchObject({ outcome: 'exhausted', exhausted: true });
    expect(await ofSeed(613)).toEqual(['late']);
    expect(await all()).toEqual([...before.all, '613:late']);
  });

  it('a window opening again after the cooldown deletes only the 5 minutes before that opening', async ({
    testStore,
  }) => {
    const { clock, detect, ofSeed, all, httpKey } = await atT0(testStore);
    const report = await httpKey();
    expect((await report(621, 'round_start')).outcome).toBe('opened');
    await clock.advance(MINUTE);
    expect((await report(621, 'round_end')).outcome).toBe('closed');
    await detect(621, 'at-2', T0 + 2 * MINUTE);
    await detect(621, 'at-4', T0 + 4 * MINUTE);
    await clock.advance(6 * MINUTE);
    await detect(621, 'at-7', T0 + 7 * MINUTE);
    await clock.advance(MINUTE);
    expect(await report(621, 'round_start')).toEqual({
      outcome: 'opened',
      blockedUntil: T0 + 8 * MINUTE + 19 * MINUTE,
      exhausted: false,
      reason: null,
    });
    expect(await ofSeed(621)).toEqual(['at-2']);
    expect(await all()).toEqual(['621:at-2']);
  });
});
