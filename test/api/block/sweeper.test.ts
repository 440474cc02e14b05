import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';
import { bearer, send } from '../../support/http.ts';
import { parseEndedWindows, type EndedWindow } from '../../../store/stats.ts';

// The API's window sweeper (api/jobs/window-sweeper.ts, every 2 s) settles windows that ran out
// although nothing reads or reports their seed: budget charged, cooldown started, key freed, the
// window recorded with the time it really ended (not the time of the sweep). Settling again
// changes nothing.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1' });
});
afterAll(async () => {
  await api?.close();
});

const key = (name: string) => `${api.config.REDIS_PREFIX}${name}`;

async function recent(): Promise<EndedWindow[]> {
  return parseEndedWindows(await api.store.ctx.redis.zrevrange(key('windows:ended'), 0, -1, 'WITHSCORES'));
}

/** Polls Redis (never the engine: no read may settle the window) until the sweeper has run. */
async function waitForSweep(seed: number, timeoutMs = 5_000): Promise<{ entry: EndedWindow; ms: number }> {
  const started = performance.now();
  for (;;) {
    const open = await api.store.ctx.redis.zscore(key('windows:open'), String(seed));
    const entry = (await recent()).find((w) => w.seed === seed);
    if (open === null && entry) return { entry, ms: performance.now() - started };
    if (performance.now() - started > timeoutMs)
      throw new Error(`window of ${seed} not swept in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function settledState(seed: number) {
  return {
    seed: await api.store.ctx.redis.hgetall(key(`seed:${seed}`)),
    recent: await recent(),
    open: await api.store.ctx.redis.zrange(key('windows:open'), '0', '-1', 'WITHSCORES'),
  };
}

describe('window sweeper', () => {
  it('settles run-out windows at their end without any read, and only those', async () => {
    const http = await api.store.issueHttpKey();
    const game = await api.store.issueSelfClaim({ ip: '127.0.0.1', port: 27015 }, {});
    if (!('serverId' in game)) throw new Error(`self-claim refused: ${JSON.stringify(game)}`);
    const t0 = await setClock(api, '2026-03-01T08:00:00.000Z');
    const open = async (credential: string, seed: number) => {
      const res = await send<{ blockedUntil: string }>(`${api.base}/plugin/v1/report`, {
        headers: bearer(credential),
        json: { event: 'round_start', seed, port: 27015 },
      });
      expect(res.status).toBe(200);
      return Date.parse(res.body.blockedUntil);
    };
    expect(await open(http.credential, 401)).toBe(t0 + 20 * MINUTE);
    expect(await open(game.credential, 402)).toBe(t0 + 60 * MINUTE);

    // Past the HTTP key's window (by an odd amount), not past the game server's.
    await advanceClock(api, 27 * MINUTE + 1_234);
    const first = await waitForSweep(401);
    expect(first.entry).toEqual({ seed: 401, at: t0, endedAt: t0 + 20 * MINUTE, viewAttempts: 0 });
    const after401 = await settledState(401);
    expect(after401.seed).toEqual({ usedMs: String(20 * MINUTE), cooldownUntil: String(t0 + 25 * MINUTE) });
    expect(await api.store.ctx.redis.exists(key('window:401'))).toBe(0);
    expect(await api.store.ctx.redis.hget(key(`server:${http.serverId}`), 'windowSeed')).toBeNull();
    // The game server's window is still open, untouched.
    expect(after401.open).toEqual(['402', String(t0 + 60 * MINUTE)]);
    expect(await api.store.ctx.redis.hget(key('window:402'), 'endsAt')).toBe(String(t0 + 60 * MINUTE));

    // Settling again (another sweep, as every API process runs one) changes nothing.
    expect(await api.store.settleExpiredWindows()).toBe(0);
    expect(await settledState(401)).toEqual(after401);

    await advanceClock(api, 40 * MINUTE);
    const second = await waitForSweep(402);
    expect(second.entry).toEqual({ seed: 402, at: t0, endedAt: t0 + 60 * MINUTE, viewAttempts: 0 });
    const after402 = await settledState(402);
    expect(after402.seed).toEqual({ usedMs: String(60 * MINUTE), cooldownUntil: String(t0 + 65 * MINUTE) });
    expect(after402.open).toEqual([]);
    expect(await api.store.ctx.redis.hget(key(`server:${game.serverId}`), 'windowSeed')).toBeNull();
    expect(after402.recent.map((w) => w.seed)).toEqual([402, 401]);

    expect(await api.store.settleExpiredWindows()).toBe(0);
    expect(await api.store.checkSeedBlock(402, { countView: true })).toEqual({ kind: 'visible' });
    expect(await settledState(402)).toEqual(after402);
    expect(await settledState(401)).toEqual({ ...after401, recent: after402.recent, open: [] });
    console.log(`sweeper: settled after ${first.ms.toFixed(0)} ms and ${second.ms.toFixed(0)} ms`);
  });

  it('a window closed by round_end is never charged again by a later sweep', async () => {
    const http = await api.store.issueHttpKey();
    const t0 = await setClock(api, '2026-03-02T08:00:00.000Z');
    const report = (event: string) =>
      send(`${api.base}/plugin/v1/report`, {
        headers: bearer(http.credential),
        json: { event, seed: 403, port: 1 },
      });
    await report('round_start');
    await advanceClock(api, 7 * MINUTE);
    await report('round_end');
    const before = await settledState(403);
    expect(before.seed).toEqual({ usedMs: String(7 * MINUTE), cooldownUntil: String(t0 + 12 * MINUTE) });
    await advanceClock(api, 60 * MINUTE);
    expect(await api.store.settleExpiredWindows()).toBe(0);
    expect(await settledState(403)).toEqual(before);
  });
});
