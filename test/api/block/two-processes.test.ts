import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock, Store } from '../../../store/index.ts';
import { startApiProcessPair, type ApiProcess, type ApiProcessPair } from '../../support/api-process.ts';
import { readBlockState } from '../../support/block-state.ts';
import type { EndedWindow } from '../../../store/stats.ts';
import { bearer, send } from '../../support/http.ts';
import { seededRun } from '../../support/prng.ts';
import { type TestKey } from '../../support/keys.ts';
import { MINUTE } from '../../support/clock.ts';

// Two real API processes on one Redis namespace, hundreds of concurrent reports of the same keys
// and seeds split across both, with the shared manual clock moved between and during the
// bursts. The engine decides each report in one Lua step, so the answers and the state in Redis
// must be exactly what one process would have produced: one window per seed, at most one open
// window per key, budgets within their caps, and every concurrent answer for a seed naming the
// same window end.

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
/** 504 is reported by HTTP keys only: its blocked time can never pass 20 minutes. */
const SEEDS = [501, 502, 503, 504] as const;
const HTTP_ONLY_SEED = 504;
const PHASES = 12;
const PER_PHASE = 120;

interface Answer {
  phase: number;
  seed: number;
  until: number;
}

let pair: ApiProcessPair | undefined;
let a: ApiProcess;
let b: ApiProcess;
let store: Store;
let clock: ManualClock;
let prefix: string;

beforeAll(async () => {
  pair = await startApiProcessPair('test');
  ({ a, b, store, clock, prefix } = pair);
}, 30_000);

afterAll(async () => {
  await pair?.stop();
});

describe('two API processes on one Redis', () => {
  it('decide concurrent reports as one: one window per seed, one per key, budgets within caps', async () => {
    const { random: rnd, pick, why } = seededRun();

    // Game-server keys are bound to the IP they report from (127.0.0.1); one self-claim per IP
    // every 5 minutes, so the clock moves between the two.
    await clock.set(T0 - 10 * MINUTE);
    const keys: TestKey[] = [];
    for (let i = 0; i < 3; i++) keys.push({ kind: 'http', ...(await store.issueHttpKey()) });
    for (const port of [27015, 27016]) {
      const issued = await store.issueSelfClaim({ ip: '127.0.0.1', port }, {});
      if (!('serverId' in issued)) throw new Error(`self-claim refused: ${JSON.stringify(issued)}`);
      keys.push({ kind: 'self', ...issued });
      await clock.advance(5 * MINUTE);
    }
    await clock.set(T0);
    const ids = keys.map((k) => k.serverId);

    const answers: Answer[] = [];
    const phaseSpans: { start: number; end: number }[] = [];
    const history = new Map<string, EndedWindow>();
    let requests = 0;

    /** A snapshot of Redis with the invariants that must hold at every instant. */
    const snapshot = async (where: string) => {
      const state = await readBlockState(store.ctx.redis, prefix, SEEDS, ids);
      const now = state.now!;
      for (const entry of state.recent) history.set(`${entry.seed}:${entry.at}`, entry);
      for (const id of ids) {
        const owned = [...state.windows.values()].filter((w) => w.serverId === id && w.endsAt > now);
        expect(owned.length, why(`${where}: open windows of key ${id}`)).toBeLessThanOrEqual(1);
      }
      for (const seed of SEEDS) {
        const used = state.seeds.get(seed)!.usedMs ?? 0;
        const w = state.windows.get(seed);
        const whole = used + (w ? w.endsAt - w.openedAt : 0);
        expect(used, why(`${where}: usedMs of ${seed}`)).toBeGreaterThanOrEqual(0);
        expect(whole, why(`${where}: blocked time of ${seed}`)).toBeLessThanOrEqual(60 * MINUTE);
        if (seed === HTTP_ONLY_SEED) expect(whole, why(`${where}: ${seed}`)).toBeLessThanOrEqual(20 * MINUTE);
        expect(state.open.get(seed), why(`${where}: windows:open of ${seed}`)).toBe(w?.endsAt);
      }
      return state;
    };

    for (let phase = 0; phase < PHASES; phase++) {
      const start = await clock.now();
      // Some bursts move the clock while they run (under 5 minutes: no seed can close and open
      // again within one burst, as the cooldown is 5 minutes).
      const midMove = rnd() < 0.5 ? pick([1, 30_000, 2 * MINUTE, 4 * MINUTE]) : 0;
      const jobs: Promise<unknown>[] = [];
      const sent: { seed: number; res: Promise<{ status: number; body: Record<string, unknown> }> }[] = [];
      for (let i = 0; i < PER_PHASE; i++) {
        const key = pick(keys);
        const seed = key.kind === 'http' ? pick(SEEDS) : pick(SEEDS.filter((s) => s !== HTTP_ONLY_SEED));
        const r = rnd();
        const event = r < 0.45 ? 'round_start' : r < 0.8 ? 'periodic' : 'round_end';
        const api = i % 2 === 0 ? a : b;
        const res = send(`${api.base}/plugin/v1/report`, {
          headers: bearer(key.credential),
          json: { event, seed, port: 27015 },
        });
        sent.push({ seed, res });
        jobs.push(res);
      }
      if (midMove) {
        const delay = Math.floor(rnd() * 30);
        jobs.push(new Promise((r) => setTimeout(r, delay)).then(() => clock.advance(midMove)));
      }
      await Promise.all(jobs);
      const end = await clock.now();
      phaseSpans.push({ start, end });
      requests += sent.length;

      const untilBySeed = new Map<number, Set<number>>();
      for (const { seed, res } of sent) {
        const { status, body } = await res;
        expect(status, why(`phase ${phase}: ${JSON.stringify(body)}`)).toBe(200);
        if (typeof body.blockedUntil === 'string') {
          const until = Date.parse(body.blockedUntil);
          answers.push({ phase, seed, until });
          if (!untilBySeed.has(seed)) untilBySeed.set(seed, new Set());
          untilBySeed.get(seed)!.add(until);
          expect(body.exhausted, why('exhausted with a window')).toBeUndefined();
        }
      }
      // Every answer naming a window for a seed names the same one.
      for (const [seed, ends] of untilBySeed) {
        expect(ends.size, why(`phase ${phase}: ends of ${seed}: ${[...ends]}`)).toBe(1);
      }
      const state = await snapshot(`after phase ${phase}`);
      for (const [seed, ends] of untilBySeed) {
        const w = state.windows.get(seed);
        if (w && w.endsAt > state.now!)
          expect(w.endsAt, why(`phase ${phase}: stored end of ${seed}`)).toBe([...ends][0]);
      }

      // Between bursts: a step that often crosses a cooldown, a cap or a whole window.
      await clock.advance(pick([MINUTE, 5 * MINUTE, 7 * MINUTE, 20 * MINUTE, 25 * MINUTE, 61 * MINUTE]));
      await snapshot(`after the move after phase ${phase}`);
    }

    // Let every window run out and be settled, then check the whole history.
    await clock.advance(3 * 60 * MINUTE);
    await store.settleExpiredWindows();
    const final = await snapshot('at the end');
    expect(final.windows.size, why('windows left open')).toBe(0);
    const opened = Number(await store.ctx.redis.hget(`${prefix}stats`, 'windows'));
    expect(history.size, why('settled windows seen against windows opened')).toBe(opened);
    expect(opened, why('windows opened')).toBeGreaterThan(5);

    for (const seed of SEEDS) {
      const windows = [...history.values()].filter((w) => w.seed === seed).sort((x, y) => x.at - y.at);
      // Never two windows of a seed at once, and the cooldown between them.
      for (let i = 1; i < windows.length; i++) {
        expect(windows[i]!.at, why(`windows of ${seed} overlap or skip the cooldown`)).toBeGreaterThanOrEqual(
          windows[i - 1]!.endedAt + 5 * MINUTE,
        );
      }
      // The budget charged is exactly the time the windows were open.
      const total = windows.reduce((sum, w) => sum + (w.endedAt - w.at), 0);
      expect(final.seeds.get(seed)!.usedMs ?? 0, why(`usedMs of ${seed}`)).toBe(total);
      expect(total).toBeLessThanOrEqual(seed === HTTP_ONLY_SEED ? 20 * MINUTE : 60 * MINUTE);
    }

    // Every 200 answer with a blockedUntil names the one window of that seed open during its
    // burst (round_end at the very instant of opening gives a window of length 0): it ends no
    // earlier than that window really ended, within the cap of its opening.
    for (const { phase, seed, until } of answers) {
      const { start, end } = phaseSpans[phase]!;
      const during = [...history.values()].filter(
        (w) => w.seed === seed && w.at <= end && w.endedAt >= start,
      );
      expect(during.length, why(`phase ${phase}: windows of ${seed} during the burst`)).toBe(1);
      const w = during[0]!;
      expect(until, why(`answer ${until} for window ${JSON.stringify(w)}`)).toBeGreaterThanOrEqual(w.endedAt);
      expect(until - w.at).toBeLessThanOrEqual((seed === HTTP_ONLY_SEED ? 20 : 60) * MINUTE);
    }
    console.log(`two processes: ${requests} reports, ${opened} windows, ${answers.length} blocked answers`);
  }, 30_000);
});
