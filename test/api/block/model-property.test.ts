import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, inject } from 'vitest';
import { type ManualClock, type ReportEvent, type Store } from '../../../store/index.ts';
import {
  BlockModel,
  MODEL_CAP,
  MODEL_COOLDOWN,
  MODEL_GAP,
  MODEL_MAX_BUDGET,
  type ModelKeyKind,
} from '../../support/block-model.ts';
import { readBlockState } from '../../support/block-state.ts';
import { MINUTE } from '../../support/clock.ts';
import { openTestStore } from '../../support/test-store.ts';

// Model-based property test of the block engine at the store level: random sequences of reports,
// clock moves (biased to the 5/20/60-minute boundaries and to the exact instants where a window,
// a cooldown or a gap ends), sweeps and reads, from game-server and HTTP keys on a few seeds.
// Every answer is compared with the reference model of spec 3.1 (test/support/block-model.ts),
// and after every step the whole engine state in Redis is checked against the model.

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const SEEDS = [101, 102, 103] as const;
const KINDS: readonly ModelKeyKind[] = ['http', 'http', 'game', 'game'];
const EVENTS: readonly ReportEvent[] = ['round_start', 'periodic', 'round_end'];

type Command =
  | { t: 'report'; key: number; seed: number; event: ReportEvent }
  /** round_end from a key for the seed it holds (a random seed when it holds none). */
  | { t: 'endOwn'; key: number; seed: number }
  /** A restart mid-round: round_end for the key's own seed, then round_start of a (new) seed. */
  | { t: 'restart'; key: number; seed: number }
  | { t: 'advance'; ms: number }
  | { t: 'boundary'; which: 'end' | 'cooldown' | 'gap'; delta: -1 | 0 | 1 }
  | { t: 'settle' }
  | { t: 'read'; seed: number; countView: boolean };

const advanceMs = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      0,
      1,
      MINUTE,
      3 * MINUTE,
      5 * MINUTE - 1,
      5 * MINUTE,
      5 * MINUTE + 1,
      15 * MINUTE,
      20 * MINUTE - 1,
      20 * MINUTE,
      40 * MINUTE,
      60 * MINUTE - 1,
      60 * MINUTE,
    ),
  },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 10 }).map((m) => m * MINUTE) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 70 * MINUTE }) },
);

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      t: fc.constant('report' as const),
      key: fc.integer({ min: 0, max: KINDS.length - 1 }),
      seed: fc.constantFrom(...SEEDS),
      event: fc.constantFrom(...EVENTS),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('endOwn' as const),
      key: fc.integer({ min: 0, max: KINDS.length - 1 }),
      seed: fc.constantFrom(...SEEDS),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('restart' as const),
      key: fc.integer({ min: 0, max: KINDS.length - 1 }),
      seed: fc.constantFrom(...SEEDS),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: advanceMs }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('boundary' as const),
      which: fc.constantFrom('end' as const, 'cooldown' as const, 'gap' as const),
      delta: fc.constantFrom(-1 as const, 0 as const, 1 as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'settle' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('read' as const),
      seed: fc.constantFrom(...SEEDS),
      countView: fc.boolean(),
    }),
  },
);

/** The next instant (after now) at which a window ends, a cooldown ends or a key's gap ends. */
function boundaryMs(model: BlockModel, which: 'end' | 'cooldown' | 'gap', delta: number): number {
  const candidates =
    which === 'end'
      ? model.openWindows().map((w) => w.endsAt)
      : which === 'cooldown'
        ? [...model.seeds.values()].flatMap((s) => (s.cooldownUntil === null ? [] : [s.cooldownUntil]))
        : model.keys.flatMap((k) => (k.lastOpenedAt === null ? [] : [k.lastOpenedAt + MODEL_GAP]));
  const future = candidates.filter((t) => t > model.now);
  if (future.length === 0) return 0;
  return Math.max(0, Math.min(...future) + delta - model.now);
}

interface Run {
  store: Store;
  clock: ManualClock;
  prefix: string;
  ids: string[];
  model: BlockModel;
  /** Windows closed in the model that Redis has not settled yet (it settles lazily). */
  pending: number;
}

const UNUSED_SEED = 2_000_000_000;

async function startRun(redisUrl: string): Promise<Run> {
  const prefix = `tprop${randomUUID().slice(0, 8)}:`;
  const store = await openTestStore({ redisUrl, prefix, name: 'test' });
  const clock = store.ctx.clock as ManualClock;
  await clock.set(T0);
  const ids: string[] = [];
  for (const [i, kind] of KINDS.entries()) {
    if (kind === 'http') {
      ids.push((await store.issueHttpKey()).serverId);
    } else {
      const issued = await store.issueSelfClaim({ ip: `10.0.0.${i + 1}`, port: 7777 }, {});
      if (!('serverId' in issued)) throw new Error(`self-claim refused: ${JSON.stringify(issued)}`);
      // A self key unused for a day lapses (issue 3), a rule outside this model: one round_end of
      // a seed no command uses marks the key used and changes nothing the model tracks.
      await store.reportSeed({
        serverId: issued.serverId,
        kind: 'self',
        seed: UNUSED_SEED,
        event: 'round_end',
      });
      ids.push(issued.serverId);
    }
  }
  return { store, clock, prefix, ids, model: new BlockModel(T0, KINDS), pending: 0 };
}

const outcomes = new Map<string, number>();

async function step(run: Run, input: Command): Promise<void> {
  const { store, clock, model, ids } = run;
  if (input.t === 'restart') {
    await step(run, { t: 'endOwn', key: input.key, seed: input.seed });
    await step(run, { t: 'report', key: input.key, seed: input.seed, event: 'round_start' });
    return;
  }
  const cmd: Command =
    input.t === 'endOwn'
      ? {
          t: 'report',
          key: input.key,
          seed: model.keys[input.key]!.openSeed ?? input.seed,
          event: 'round_end',
        }
      : input;
  switch (cmd.t) {
    case 'report': {
      const expected = model.report(cmd.key, cmd.seed, cmd.event);
      const got = await store.reportSeed({
        serverId: ids[cmd.key]!,
        kind: KINDS[cmd.key] === 'game' ? 'self' : 'http',
        seed: cmd.seed,
        event: cmd.event,
      });
      const { blockedUntil, exhausted, reason } = got;
      expect({ blockedUntil, exhausted, reason }, JSON.stringify(got)).toEqual(expected);
      outcomes.set(got.outcome, (outcomes.get(got.outcome) ?? 0) + 1);
      break;
    }
    case 'advance':
    case 'boundary': {
      const ms = cmd.t === 'advance' ? cmd.ms : boundaryMs(model, cmd.which, cmd.delta);
      model.advance(ms);
      expect(await clock.advance(ms)).toBe(model.now);
      break;
    }
    case 'settle': {
      const settled = await store.settleExpiredWindows();
      expect(settled, 'windows the sweep settled').toBe(run.pending);
      break;
    }
    case 'read': {
      const expected = model.read(cmd.seed, cmd.countView);
      const got = await store.checkSeedBlock(cmd.seed, { countView: cmd.countView });
      expect(got).toEqual(
        expected.until === null ? { kind: 'visible' } : { kind: 'window', until: expected.until },
      );
      break;
    }
  }
  model.checkInvariants();
  await checkRedis(run);
}

/** The whole engine state in Redis against the model, allowing only for lazy settling. */
async function checkRedis(run: Run): Promise<void> {
  const { model, ids } = run;
  const state = await readBlockState(run.store.ctx.redis, run.prefix, SEEDS, ids);
  expect(state.now).toBe(model.now);
  // seeds:hidden (the one-HEXISTS check of held maps) names exactly the seeds with a window stored.
  const hidden = await run.store.ctx.redis.hgetall(`${run.prefix}seeds:hidden`);
  expect(new Set(Object.keys(hidden).map(Number)), 'seeds:hidden').toEqual(new Set(state.windows.keys()));
  const closedByKey = new Map(model.closed.map((c) => [`${c.seed}:${c.at}`, c]));
  const unsettledWindows = new Set<string>();
  for (const seed of SEEDS) {
    const m = model.seed(seed);
    const r = state.windows.get(seed);
    const s = state.seeds.get(seed)!;
    let unsettled = 0;
    if (m.window) {
      expect(r, `window of ${seed}`).toEqual({
        seed,
        serverId: ids[m.window.owner],
        openedAt: m.window.openedAt,
        endsAt: m.window.endsAt,
        viewAttempts: m.window.viewAttempts,
      });
    } else if (r) {
      // Ran out, not settled yet: it must be a window the model closed at its length.
      expect(r.endsAt, `unsettled window of ${seed} has run out`).toBeLessThanOrEqual(model.now);
      expect(closedByKey.get(`${seed}:${r.openedAt}`), `unsettled window of ${seed}`).toMatchObject({
        owner: ids.indexOf(r.serverId),
        endedAt: r.endsAt,
        by: 'length',
        viewAttempts: r.viewAttempts,
      });
      unsettled = r.endsAt - r.openedAt;
      unsettledWindows.add(`${seed}:${r.openedAt}`);
    }
    expect(state.open.get(seed), `windows:open score of ${seed}`).toBe(r?.endsAt);
    // Budgets: charged exactly the time actually blocked, never past 60 min (20 for HTTP-only).
    const used = s.usedMs ?? 0;
    expect(used + unsettled, `usedMs of ${seed}`).toBe(m.used);
    expect(used).toBeGreaterThanOrEqual(0);
    // Blocked time of a seed, the open (or unsettled) window counted whole, never past 60 min.
    expect(used + (r ? r.endsAt - r.openedAt : 0), `blocked time of ${seed}`).toBeLessThanOrEqual(
      MODEL_MAX_BUDGET,
    );
    if (!m.gameOpened) expect(used + unsettled, `HTTP-only seed ${seed}`).toBeLessThanOrEqual(MODEL_CAP.http);
    if (!unsettled) expect(s.cooldownUntil, `cooldown of ${seed}`).toBe(m.cooldownUntil);
  }
  expect(
    [...state.open.keys()].every((seed) => state.windows.has(seed)),
    'windows:open without window',
  ).toBe(true);

  // At most one open window per key, and the key's record points at it.
  for (const [k, id] of ids.entries()) {
    const owned = [...state.windows.values()].filter((w) => w.serverId === id && w.endsAt > model.now);
    expect(owned.length, `open windows of key ${k}`).toBeLessThanOrEqual(1);
    const key = model.keys[k]!;
    const server = state.servers.get(id)!;
    expect(
      owned.map((w) => w.seed),
      `open window of key ${k}`,
    ).toEqual(key.openSeed === null ? [] : [key.openSeed]);
    expect(server.lastWindowOpenedAt, `lastWindowOpenedAt of key ${k}`).toBe(key.lastOpenedAt);
    if (key.openSeed !== null) {
      expect(server.windowSeed).toBe(key.openSeed);
    } else if (server.windowSeed !== null) {
      const w = state.windows.get(server.windowSeed);
      expect(w && w.serverId === id && w.endsAt <= model.now, `stale windowSeed of key ${k}`).toBe(true);
    }
  }

  // windows:ended: the 10 settled windows that ended last, newest end first whatever order they
  // were settled in (a tie goes to the later opening, then the higher seed), each with the end it
  // really ended at (not the time it was settled).
  const settled = model.closed.filter((c) => !unsettledWindows.has(`${c.seed}:${c.at}`));
  const newestEnd = [...settled].sort((x, y) => y.endedAt - x.endedAt || y.at - x.at || y.seed - x.seed);
  expect(state.recent, 'windows:ended').toEqual(
    newestEnd
      .slice(0, 10)
      .map((c) => ({ seed: c.seed, at: c.at, endedAt: c.endedAt, viewAttempts: c.viewAttempts })),
  );
  // Per seed, closed windows never overlap and are at least the cooldown apart.
  for (const seed of SEEDS) {
    const history = model.closed.filter((c) => c.seed === seed).sort((a, b) => a.at - b.at);
    const open = model.seed(seed).window;
    const spans = [...history.map((c) => [c.at, c.endedAt] as const)];
    if (open) spans.push([open.openedAt, open.endsAt]);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] + MODEL_COOLDOWN);
    }
  }
  run.pending = unsettledWindows.size;
}

describe('block engine against the reference model of spec 3.1', () => {
  it('answers every report and read as the model does, and Redis holds the model state', async () => {
    const redisUrl = inject('redisUrl');
    const stats = { runs: 0, steps: 0, windows: 0, closedByEnd: 0, closedByLength: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40, size: 'max' }), async (commands) => {
        const run = await startRun(redisUrl);
        try {
          for (const cmd of commands) await step(run, cmd);
          stats.runs += 1;
          stats.steps += commands.length;
          stats.windows += run.model.closed.length + run.model.openWindows().length;
          stats.closedByEnd += run.model.closed.filter((c) => c.by === 'round_end').length;
          stats.closedByLength += run.model.closed.filter((c) => c.by === 'length').length;
        } finally {
          await run.store.close();
        }
      }),
      { numRuns: 150 },
    );
    console.log(
      `model property: ${JSON.stringify(stats)} outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );
    // The generator must actually reach every state and every answer of the engine.
    expect(stats.closedByEnd).toBeGreaterThan(20);
    expect(stats.closedByLength).toBeGreaterThan(20);
    const every = [
      'opened',
      'kept',
      'closed',
      'not_open',
      'other_key',
      'exhausted',
      'cooldown',
      'busy',
      'gap',
    ];
    for (const outcome of every) {
      expect(outcomes.get(outcome) ?? 0, `reports answered ${outcome}`).toBeGreaterThan(
        outcome === 'gap' ? 3 : 10,
      );
    }
  }, 60_000);
});
