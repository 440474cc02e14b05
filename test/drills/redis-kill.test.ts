import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCredential } from '../../store/credentials.ts';
import { redisReady, type ManualClock, type Store } from '../../store/index.ts';
import { startFakeA2sServer } from '../support/fakes/a2s-server.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { testPrefix } from '../support/api.ts';
import { readBlockState } from '../support/block-state.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/generator-worker.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { timed, type TimedAnswer } from '../support/http.ts';
import { MINUTE, sleep, within } from '../support/clock.ts';
import { openTestStore } from '../support/test-store.ts';

// Drill (issue 6): Redis is SIGKILLed under a load of key issues, reports that open and close
// windows, and map reads that keep a generator worker busy, then restarted from its AOF
// (appendfsync always) on the same port and directory. Two API processes and one worker process
// run on it and are never restarted. Proves:
// - while Redis is down every call that needs it answers 503 {"error":"db unavailable"} (the
//   version path 200), each within the 2-second bound: never a 500, never a hang;
// - the service answers again by itself within seconds of Redis coming back;
// - nothing acknowledged before the kill is lost: every credential issued still authenticates,
//   every acknowledged window is open with the same end (or, when its round_end was
//   acknowledged, settled with exactly the time it was open charged to the seed's budget), and
//   every map served before still serves 200 with the same ETag. Calls that were in flight at the
//   kill may or may not have happened; each is checked against both outcomes.

const T0 = Date.parse('2026-04-01T08:00:00.000Z');
/** The manual clock moves this much between two batches, and never during one. */
const TICK_MS = 2_000;
const HEALTHY_MS = 1_000;
/** The kill waits (after HEALTHY_MS) until this many maps have been served, so there are some to check. */
const MAPS_BEFORE_KILL = 4;
const DOWN_MS = 1_200;
const CAP = { http: 20 * MINUTE, self: 60 * MINUTE } as const;
const COOLDOWN = 5 * MINUTE;
const RECOVERY_BOUND_MS = 5_000;

type KeyState =
  | { s: 'new' }
  | { s: 'open'; openedAt: number; until: number }
  /** round_start sent at `at` and never acknowledged: it may or may not have opened. */
  | { s: 'open?'; at: number }
  /** round_end sent at `at` for the open window, never acknowledged. */
  | { s: 'closing?'; openedAt: number; until: number; at: number }
  | { s: 'closed'; openedAt: number; closedAt: number };

interface Key {
  serverId: string;
  credential: string;
  kind: 'http' | 'self';
  seed: number;
  api: ApiProcess;
  state: KeyState;
}

interface Sent {
  what: string;
  res: TimedAnswer;
}

type ReportBody = { ok?: boolean; blockedUntil?: string | null; error?: string };

let redis: PrivateRedis;
let prefix: string;
let apis: ApiProcess[] = [];
let worker: WorkerProcess;
let store: Store;
let clock: ManualClock;

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'drill-kill', durable: true });
  prefix = testPrefix();
  store = await openTestStore({ redisUrl: redis.url, prefix, name: 'drill' });
  clock = store.ctx.clock as ManualClock;
  await clock.set(T0);
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: prefix };
  const started = await Promise.allSettled([startApiProcess(env), startApiProcess(env)]);
  apis = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  worker = startWorkerProcess(prefix, { REDIS_URL: redis.url });
  // A warm worker, so the load's maps are generated while it runs.
  const warm = 800_001;
  const deadline = Date.now() + 20_000;
  while ((await timed(`${apis[0]!.base}/maps/${warm}`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`worker not generating: ${worker.stderr()}`);
    await sleep(50);
  }
}, 30_000);

afterAll(async () => {
  await Promise.all([...apis.map((a) => a.stop()), worker?.stop()]);
  await store?.close();
  await redis?.stop();
});

const iso = (ms: number) => new Date(ms).toISOString();

describe('Redis SIGKILLed under load and restarted from its AOF', () => {
  it('answers 503 while down, recovers by itself, and loses nothing acknowledged', async () => {
    const [a, b] = apis as [ApiProcess, ApiProcess];
    const keys: Key[] = [];
    const sent: Sent[] = [];
    const etags = new Map<number, string>();
    const mapSeeds: number[] = [];
    let nextSeed = 910_001;
    let nextMapSeed = 810_001;
    const apiFor = (i: number) => (i % 2 === 0 ? a : b);
    const record = async (what: string, pending: Promise<TimedAnswer>) => {
      const res = await pending;
      sent.push({ what, res });
      return res;
    };
    const report = (key: Key, event: string, seed = key.seed) =>
      record(
        `${event} ${seed} (${key.kind})`,
        timed(`${key.api.base}/plugin/v1/report`, {
          headers: { authorization: `Bearer ${key.credential}` },
          json: { event, seed, port: 27015 },
        }),
      );

    // Two game-server keys by real self-claims (probe against a fake server on loopback); one
    // claim per IP every 5 minutes, so the clock moves between them.
    for (const i of [0, 1]) {
      const fake = await startFakeA2sServer({ mode: 'direct' });
      try {
        const res = await timed<{ serverId: string; credential: string }>(
          `${apiFor(i).base}/v1/servers/claim`,
          { json: { port: fake.port, clientName: `drill ${i}` }, timeoutMs: 5_000 },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        keys.push({ ...res.body, kind: 'self', seed: nextSeed++, api: apiFor(i), state: { s: 'new' } });
      } finally {
        await fake.close();
      }
      await clock.advance(5 * MINUTE);
    }

    let lastClock = await clock.now();
    let clockUnsure = 0;
    let killedAt = Infinity;
    let downSince = Infinity;
    const killer = (async () => {
      await sleep(HEALTHY_MS + Math.random() * 300);
      const deadline = performance.now() + 30_000;
      while (etags.size < MAPS_BEFORE_KILL && performance.now() < deadline) await sleep(20);
      killedAt = performance.now();
      await redis.kill('SIGKILL');
      downSince = performance.now();
    })();

    // The load: batches of concurrent calls; the clock moves only between batches, so every call
    // of a batch is decided at the batch's clock reading.
    let batches = 0;
    while (performance.now() < downSince + DOWN_MS) {
      batches += 1;
      let at: number | null = null;
      if (performance.now() < killedAt) {
        try {
          at = lastClock = await within(clock.advance(TICK_MS), 2_000, 'clock advance');
        } catch {
          clockUnsure = TICK_MS;
        }
      }
      const batch: Promise<unknown>[] = [];
      const up = at !== null && performance.now() < killedAt;

      if (up) {
        // New keys, each for a seed of its own (no two keys share a seed: no cross-key rules).
        for (let i = 0; i < 2; i++) {
          batch.push(
            within(store.issueHttpKey(), 2_000, 'issueHttpKey').then(
              (k) =>
                keys.push({
                  ...k,
                  kind: 'http',
                  seed: nextSeed++,
                  api: apiFor(keys.length),
                  state: { s: 'new' },
                }),
              () => undefined,
            ),
          );
        }
        mapSeeds.push(nextMapSeed++);
      }
      for (const key of keys) {
        const st = key.state;
        if (up && st.s === 'new' && Math.random() < 0.6) {
          key.state = { s: 'open?', at: at! };
          batch.push(
            report(key, 'round_start').then((res) => {
              const body = res.body as ReportBody;
              if (res.status !== 200) return;
              expect(body.blockedUntil, `fresh key, fresh seed ${key.seed}`).toEqual(expect.any(String));
              key.state = { s: 'open', openedAt: at!, until: Date.parse(body.blockedUntil!) };
            }),
          );
        } else if (st.s === 'open') {
          const r = Math.random();
          if (up && r < 0.15) {
            key.state = { s: 'closing?', openedAt: st.openedAt, until: st.until, at: at! };
            batch.push(
              report(key, 'round_end').then((res) => {
                if (res.status !== 200) return;
                expect(res.body).toEqual({ ok: true, blockedUntil: null, reason: 'closed' });
                key.state = { s: 'closed', openedAt: st.openedAt, closedAt: at! };
              }),
            );
          } else if (r < 0.4) {
            batch.push(
              report(key, 'periodic').then((res) => {
                if (res.status === 200) expect(res.body).toEqual({ ok: true, blockedUntil: iso(st.until) });
              }),
            );
          } else if (r < 0.55) {
            // An acknowledged open window: the map of its seed is never served.
            batch.push(
              record(`map of open ${key.seed}`, timed(`${apiFor(batches).base}/maps/${key.seed}`)).then(
                (res) => {
                  if (res.status === 503) return;
                  expect(res.status, `map of open seed ${key.seed}`).toBe(403);
                  expect(res.body).toEqual({ error: 'blocked', blockedUntil: iso(st.until) });
                },
              ),
            );
          }
        }
      }
      // Map reads that keep the worker busy: the newest seed (which queues it) and the oldest still
      // pending (the worker takes them in that order, so they are the next to be served).
      const pending = mapSeeds.filter((s) => !etags.has(s));
      for (const seed of new Set([...pending.slice(0, 3), ...pending.slice(-1)])) {
        batch.push(
          record(`map ${seed}`, timed(`${apiFor(seed).base}/maps/${seed}`)).then((res) => {
            if (res.status !== 200) return;
            const etag = res.headers!.get('etag')!;
            expect(etag).toMatch(/^"/);
            etags.set(seed, etag);
          }),
        );
      }
      const reads = ['/seeds?limit=50', '/stats/protection', '/stats/overview', '/plugin/v1/version'];
      if (mapSeeds.length) reads.push(`/jobs/${mapSeeds[mapSeeds.length - 1]}`);
      for (const [i, path] of reads.entries()) {
        batch.push(record(`GET ${path}`, timed(`${apiFor(batches + i).base}${path}`)));
      }
      if (!up) {
        // Calls of every other kind that need Redis, while it is (going) down; none of them could
        // change anything that is checked afterwards.
        const someKey = keys[batches % keys.length]!;
        const extra: [
          string,
          ApiProcess,
          string,
          Record<string, unknown> | undefined,
          Record<string, string>,
        ][] = [
          ['self-claim', a, '/v1/servers/claim', { port: 27015 }, {}],
          ['plugin claim', b, '/plugin/v1/claim', { code: 'ABCDE-FGHJK', port: 27015 }, {}],
          ['revoke unknown key', a, '/v1/servers/revoke', {}, { authorization: `Bearer ${newCredential()}` }],
          [
            'report round_end of an unused seed',
            b,
            '/v1/servers/report',
            { event: 'round_end', seed: 1_999_999_999, port: 27015 },
            { authorization: `Bearer ${someKey.credential}` },
          ],
        ];
        for (const [what, api, path, body, headers] of extra) {
          batch.push(record(what, timed(`${api.base}${path}`, { json: body, headers })));
        }
        batch.push(record('test clock +0', timed(`${b.url}/__test__/clock`, { json: { advanceMs: 0 } })));
      }
      await Promise.all(batch);
      if (!up) await sleep(40);
    }
    await killer;

    // Every call answered in time; every refusal was the documented 503; while Redis was down,
    // every call that needs it was refused (the version path answered from memory).
    let duringOutage = 0;
    for (const { what, res } of sent) {
      expect(res.failure, `${what}: no answer`).toBeUndefined();
      const isVersion = what === 'GET /plugin/v1/version';
      if (res.sentAt > downSince) {
        duringOutage += 1;
        if (isVersion) {
          expect(res.status, what).toBe(200);
          continue;
        }
        expect(res.status, `${what} while Redis is down: ${JSON.stringify(res.body)}`).toBe(503);
      }
      if (res.status >= 500) {
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(503);
        expect(res.body, what).toEqual({ error: 'db unavailable' });
      }
      expect(res.doneAt - res.sentAt, `${what} took too long`).toBeLessThan(2_000);
    }
    expect(duringOutage).toBeGreaterThan(20);

    // Same port, same directory: Redis replays its AOF. Nothing else is restarted.
    const restarting = performance.now();
    await redis.restart();
    const back = performance.now();
    const probes = [a, b].map(async (api) => {
      for (;;) {
        const res = await timed(`${api.base}/stats/overview`);
        expect([200, 503], JSON.stringify(res.body)).toContain(res.status);
        if (res.status === 200) return performance.now() - back;
        expect(performance.now() - back, 'API serving again within 5 s').toBeLessThan(RECOVERY_BOUND_MS);
        await sleep(50);
      }
    });
    const recoveryMs = Math.max(...(await Promise.all(probes)));
    await redisReady(store.ctx.redis, RECOVERY_BOUND_MS);

    // The clock (in Redis too) is where it was acknowledged, or one unacknowledged move further.
    const now = await store.ctx.clock.now();
    expect(now).toBeGreaterThanOrEqual(lastClock);
    expect(now).toBeLessThanOrEqual(lastClock + clockUnsure);

    // Every acknowledged credential still authenticates (round_end of an unused seed changes nothing).
    for (const [i, key] of keys.entries()) {
      const res = await timed(`${apiFor(i).base}/v1/servers/report`, {
        headers: { authorization: `Bearer ${key.credential}` },
        json: { event: 'round_end', seed: 1_999_999_000 + i, port: 27015 },
      });
      expect(res.status, `key ${i} (${key.kind}) after the restart: ${JSON.stringify(res.body)}`).toBe(200);
    }

    // Every window as acknowledged: open with the same end, or settled with its time charged.
    const state = await readBlockState(
      store.ctx.redis,
      prefix,
      keys.map((k) => k.seed),
      keys.map((k) => k.serverId),
    );
    const counts = { open: 0, closed: 0, unsure: 0, untouched: 0 };
    for (const key of keys) {
      const w = state.windows.get(key.seed);
      const seed = state.seeds.get(key.seed)!;
      const cap = CAP[key.kind];
      const what = `seed ${key.seed} of a ${key.kind} key, ${JSON.stringify(key.state)}`;
      const isOpen = (openedAt: number, until: number) =>
        w !== undefined &&
        w.serverId === key.serverId &&
        w.openedAt === openedAt &&
        w.endsAt === until &&
        state.open.get(key.seed) === until &&
        seed.usedMs === 0;
      const isClosed = (openedAt: number, closedAt: number) =>
        w === undefined &&
        !state.open.has(key.seed) &&
        seed.usedMs === closedAt - openedAt &&
        seed.cooldownUntil === closedAt + COOLDOWN;
      const st = key.state;
      switch (st.s) {
        case 'new':
          counts.untouched += 1;
          expect(w, what).toBeUndefined();
          expect(seed.usedMs, what).toBeNull();
          break;
        case 'open':
          counts.open += 1;
          expect(st.until - st.openedAt, what).toBe(cap);
          expect(isOpen(st.openedAt, st.until), `${what}: ${JSON.stringify({ w, seed })}`).toBe(true);
          break;
        case 'closed':
          counts.closed += 1;
          expect(isClosed(st.openedAt, st.closedAt), `${what}: ${JSON.stringify({ w, seed })}`).toBe(true);
          break;
        case 'closing?':
          counts.unsure += 1;
          expect(
            isOpen(st.openedAt, st.until) || isClosed(st.openedAt, st.at),
            `${what}: ${JSON.stringify({ w, seed })}`,
          ).toBe(true);
          break;
        case 'open?':
          counts.unsure += 1;
          expect(
            (w === undefined && seed.usedMs === null) || isOpen(st.at, st.at + cap),
            `${what}: ${JSON.stringify({ w, seed })}`,
          ).toBe(true);
          break;
      }
    }
    expect(counts.open + counts.closed, 'windows acknowledged before the kill').toBeGreaterThan(5);

    // The same, as the API answers it: open windows keep their end and their maps stay hidden.
    for (const [i, key] of keys.entries()) {
      if (key.state.s !== 'open') continue;
      const until = iso(key.state.until);
      const kept = await report(key, 'periodic');
      expect(kept.status).toBe(200);
      expect(kept.body).toEqual({ ok: true, blockedUntil: until });
      const map = await timed(`${apiFor(i).base}/maps/${key.seed}`);
      expect(map.status).toBe(403);
      expect(map.body).toEqual({ error: 'blocked', blockedUntil: until });
    }

    // Every map served before the kill is served again, with the same ETag, by both processes.
    expect(etags.size, 'maps served before the kill').toBeGreaterThanOrEqual(MAPS_BEFORE_KILL);
    for (const [seed, etag] of etags) {
      for (const api of [a, b]) {
        const res = await timed(`${api.base}/maps/${seed}`);
        expect(res.status, `map ${seed}`).toBe(200);
        expect(res.headers!.get('etag'), `map ${seed}`).toBe(etag);
      }
    }

    // And the whole service works again: a new window opens, the worker generates a new seed.
    const fresh = await store.issueHttpKey();
    const opened = await timed<ReportBody>(`${b.base}/plugin/v1/report`, {
      headers: { authorization: `Bearer ${fresh.credential}` },
      json: { event: 'round_start', seed: 990_001, port: 27015 },
    });
    expect(opened.body).toEqual({ ok: true, blockedUntil: iso(now + CAP.http) });
    const newMap = 880_001;
    expect((await timed(`${a.base}/maps/${newMap}`)).status).toBe(202);
    const generatedWithin = performance.now();
    for (;;) {
      const res = await timed(`${b.base}/maps/${newMap}`);
      if (res.status === 200) break;
      expect(res.status).toBe(202);
      expect(performance.now() - generatedWithin, 'worker generates again').toBeLessThan(10_000);
      await sleep(100);
    }
    for (const api of apis) expect(api.process.exitCode).toBeNull();
    expect(worker.process.exitCode, worker.stderr()).toBeNull();

    console.log(
      `redis kill drill: ${batches} batches, ${sent.length} calls (${duringOutage} while down), ` +
        `${keys.length} keys, windows ${JSON.stringify(counts)}, ${etags.size} maps; ` +
        `redis back in ${(back - restarting).toFixed(0)} ms, both APIs serving ${recoveryMs.toFixed(0)} ms later`,
    );
  }, 45_000);
});
