import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, type ReportEvent, type Store } from '../../../store/index.ts';
import { MINUTE } from '../../support/clock.ts';
import { openTestStore } from '../../support/test-store.ts';

// Protection statistics list ended windows newest first by their end time (spec 2.7), whatever
// settles them and in whatever order: round_end, a report of the same key, a read, the sweeper,
// after a revoke. Driven at the store level with no API process, so no sweeper settles anything
// behind the test's back and every settle order below is the one named.

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let store: Store;
let clock: ManualClock;
beforeEach(async () => {
  store = await openTestStore({ name: 'test' });
  clock = store.ctx.clock as ManualClock;
  await clock.set(T0);
});
afterEach(async () => {
  await store.close();
});

async function httpKey() {
  const { serverId } = await store.issueHttpKey();
  return {
    serverId,
    report: (seed: number, event: ReportEvent) => store.reportSeed({ serverId, kind: 'http', seed, event }),
  };
}

/** Moves the manual clock to T0 + `ms`. */
const at = (ms: number) => clock.set(T0 + ms);

const recentSeeds = async () => (await store.readProtection()).recent.map((w) => w.seed);

/**
 * The issue's reproduction: key A opens X at T0 and runs out at its 20-minute cap at T0+20; key B
 * opens Y at T0+2 and sends round_end at T0+22 (its own cap: `yEnd` earlier makes it a round_end
 * that closes). The clock jumps straight there and B's round_end comes first, so X is settled
 * after Y by `settleX`.
 */
async function capThenRoundEnd(
  settleX: (a: Awaited<ReturnType<typeof httpKey>>) => Promise<unknown>,
  yEnd = 22 * MINUTE,
) {
  const [a, b] = [await httpKey(), await httpKey()];
  expect((await a.report(996_000, 'round_start')).blockedUntil).toBe(T0 + 20 * MINUTE);
  await at(2 * MINUTE);
  expect((await b.report(996_100, 'round_start')).blockedUntil).toBe(T0 + 22 * MINUTE);
  await at(yEnd);
  expect((await b.report(996_100, 'round_end')).blockedUntil).toBeNull();
  expect(await recentSeeds(), 'only Y is settled so far').toEqual([996_100]);
  await settleX(a);
  expect((await store.readProtection()).recent).toEqual([
    { seed: 996_100, at: iso(T0 + 2 * MINUTE), endedAt: iso(T0 + yEnd), viewAttempts: 0, keyKind: 'http' },
    { seed: 996_000, at: iso(T0), endedAt: iso(T0 + 20 * MINUTE), viewAttempts: 0, keyKind: 'http' },
  ]);
}

const sweep = async () => expect(await store.settleExpiredWindows()).toBe(1);

describe('protection recent: newest end first, whatever the settle order (2.7)', () => {
  it('X run out at its cap, settled by the sweeper after Y ended at its own (the issue)', async () => {
    await capThenRoundEnd(sweep);
  });

  it('X run out at its cap, settled by the sweeper after Y closed by round_end before its cap', async () => {
    await capThenRoundEnd(sweep, 21 * MINUTE);
  });

  it('X settled by a read of its seed after Y closed by round_end', async () => {
    await capThenRoundEnd(async () =>
      expect(await store.checkSeedBlock(996_000, { countView: true })).toEqual({ kind: 'visible' }),
    );
  });

  it("X settled by its key's next report after Y closed by round_end", async () => {
    await capThenRoundEnd(async (a) =>
      expect((await a.report(996_200, 'round_start')).outcome).toBe('opened'),
    );
  });

  it("X settled by its key's round_end, sent after its cap and after Y's round_end", async () => {
    // A late round_end of a window that already ran out charges, and records, its cap end only.
    await capThenRoundEnd(async (a) => await a.report(996_000, 'round_end'));
  });

  it('a revoked key’s window runs on to its cap and takes its place by that end', async () => {
    const [a, b, c] = [await httpKey(), await httpKey(), await httpKey()];
    await a.report(996_300, 'round_start'); // ends T0+20 at the cap
    await at(MINUTE);
    expect(await store.revokeRegistration(a.serverId)).toBe(true);
    await b.report(996_400, 'round_start');
    await at(19 * MINUTE);
    await b.report(996_400, 'round_end'); // ended T0+19, before A's
    await at(30 * MINUTE);
    await c.report(996_500, 'round_start');
    await at(31 * MINUTE);
    await c.report(996_500, 'round_end'); // ended T0+31, after A's, recorded before it
    expect(await recentSeeds()).toEqual([996_500, 996_400]);
    expect(await store.settleExpiredWindows()).toBe(1);
    expect(await recentSeeds()).toEqual([996_500, 996_300, 996_400]);
  });

  it('windows ending at the same instant list the same way whichever settles first', async () => {
    for (const reversed of [false, true]) {
      const base = await clock.advance(24 * 60 * MINUTE);
      const seeds = reversed ? [997_010, 997_011, 997_012] : [997_000, 997_001, 997_002];
      const keys = [await httpKey(), await httpKey(), await httpKey()];
      // Two open at base, the third a minute later; all three close at base+10 min.
      await keys[0]!.report(seeds[0]!, 'round_start');
      await keys[1]!.report(seeds[1]!, 'round_start');
      await clock.set(base + MINUTE);
      await keys[2]!.report(seeds[2]!, 'round_start');
      await clock.set(base + 10 * MINUTE);
      const order = reversed ? [2, 1, 0] : [0, 1, 2];
      for (const i of order) expect((await keys[i]!.report(seeds[i]!, 'round_end')).outcome).toBe('closed');
      const recent = (await store.readProtection()).recent.slice(0, 3);
      expect(recent.map((w) => w.endedAt)).toEqual(Array(3).fill(iso(base + 10 * MINUTE)));
      // The later opening first, then (same opening) the higher seed.
      expect(recent.map((w) => w.seed)).toEqual([seeds[2], seeds[1], seeds[0]]);
    }
  });

  it('keeps the 10 latest ends: a window settled late that ended before them is not listed', async () => {
    const a = await httpKey();
    await a.report(998_000, 'round_start'); // runs out at T0+20, settled last
    const ended: number[] = [];
    for (let i = 0; i < 10; i++) {
      const k = await httpKey();
      await at(21 * MINUTE + i * MINUTE);
      await k.report(998_001 + i, 'round_start');
      await k.report(998_001 + i, 'round_end');
      ended.unshift(998_001 + i);
    }
    expect(await store.settleExpiredWindows()).toBe(1);
    expect(await recentSeeds()).toEqual(ended);
    // An eleventh window that ends later pushes out the oldest end, not the last settled.
    const k = await httpKey();
    await at(40 * MINUTE);
    await k.report(998_100, 'round_start');
    await k.report(998_100, 'round_end');
    expect(await recentSeeds()).toEqual([998_100, ...ended.slice(0, 9)]);
  });
});

describe('protection recent: the kind of key that held each window', () => {
  it('names it: a self-claimed game-server registration, an HTTP key', async () => {
    const http = await httpKey();
    const self = await store.issueSelfClaim({ ip: '127.0.0.1', port: 7777 }, {});
    if (!('serverId' in self)) throw new Error(`self-claim refused: ${JSON.stringify(self)}`);
    const report = (serverId: string, kind: 'http' | 'self', seed: number, event: ReportEvent) =>
      store.reportSeed({ serverId, kind, seed, event });
    await report(self.serverId, 'self', 997_001, 'round_start');
    await report(http.serverId, 'http', 997_002, 'round_start');
    await at(MINUTE);
    await report(self.serverId, 'self', 997_001, 'round_end');
    await at(2 * MINUTE);
    await report(http.serverId, 'http', 997_002, 'round_end');
    expect((await store.readProtection()).recent.map((w) => [w.seed, w.keyKind])).toEqual([
      [997_002, 'http'],
      [997_001, 'self'],
    ]);
  });
});
