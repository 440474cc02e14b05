import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';
import { bearer, type HttpAnswer, send } from '../../support/http.ts';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.ts';

// Redis killed mid-run (SIGKILL, no chance to flush) and restarted on the same port and data
// directory (AOF, fsync on every write). While it is down, every call that needs it answers 503
// `db unavailable` at once, never 500; once it is back the same API process serves again without
// a restart, and everything acknowledged before the kill is still there.

let redis: PrivateRedis;
let api: TestApi;

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'restart', durable: true });
  api = await startTestApi({ REDIS_URL: redis.url, PROBE_ALLOW_PRIVATE: '1' });
});

afterAll(async () => {
  await api?.close();
  await redis?.stop();
});

type Report = { ok: boolean; blockedUntil: string | null; exhausted?: boolean };

async function timed<T>(fn: () => Promise<HttpAnswer<T>>): Promise<HttpAnswer<T> & { ms: number }> {
  const started = performance.now();
  const res = await fn();
  return { ...res, ms: performance.now() - started };
}

describe('Redis stopped and restarted under a running API', () => {
  it('answers 503 quickly while Redis is down and keeps the window, key and budget across the restart', async () => {
    const { serverId, credential } = await api.store.issueHttpKey();
    const report = (event: string, seed: number, path = '/plugin/v1/report') =>
      send<Report>(`${api.base}${path}`, { headers: bearer(credential), json: { event, seed, port: 7777 } });

    // Acknowledged before the kill: 3 minutes charged to seed 301, a window open on seed 302.
    const t0 = await setClock(api, '2026-03-01T08:00:00.000Z');
    expect((await report('round_start', 301)).body.blockedUntil).toBe(
      new Date(t0 + 20 * MINUTE).toISOString(),
    );
    await advanceClock(api, 3 * MINUTE);
    expect((await report('round_end', 301)).body).toEqual({ ok: true, blockedUntil: null, reason: 'closed' });
    const opensAt = await advanceClock(api, 2 * MINUTE);
    const opened = await report('round_start', 302);
    expect(opened.body).toEqual({ ok: true, blockedUntil: new Date(opensAt + 20 * MINUTE).toISOString() });

    await redis.kill('SIGKILL');

    const down = [
      () => report('round_start', 302),
      () => report('periodic', 303, '/v1/servers/report'),
      () => report('round_end', 302),
      () => send(`${api.base}/v1/servers/claim`, { json: { port: 27015 } }),
      () => send(`${api.base}/v1/servers/revoke`, { method: 'POST', headers: bearer(credential) }),
      () => send(`${api.url}/__test__/clock`, { json: { advanceMs: MINUTE } }),
    ];
    const slowest: number[] = [];
    // Down for a while (1.5 s), so the client is deep in its reconnect back-off when Redis returns.
    const downSince = performance.now();
    let calls = 0;
    while (performance.now() - downSince < 1_500) {
      await new Promise((r) => setTimeout(r, 100));
      for (const send of down) {
        calls += 1;
        const res = await timed<Record<string, unknown>>(send);
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body).toEqual({ error: 'db unavailable' });
        expect(res.ms).toBeLessThan(1_000);
        slowest.push(res.ms);
      }
    }
    // The version path never answers 500 (spec 4.6); it answers from what the process knew.
    expect((await send(`${api.base}/plugin/v1/version`)).status).toBe(200);

    // Same port, same directory: Redis replays its AOF. The API is not restarted.
    const restarting = performance.now();
    await redis.restart();
    const back = performance.now();
    let res: HttpAnswer<Report>;
    for (;;) {
      res = await report('round_start', 302);
      expect([200, 503], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 200) break;
      expect(performance.now() - back, 'recovered within 5 s').toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    const recoveryMs = performance.now() - back;
    const restartMs = back - restarting;
    // The window is still open, unchanged (the clock lives in Redis too: nothing moved while down).
    expect(res.body).toEqual(opened.body);
    expect((await api.store.getRegistration(serverId))?.revokedAt).toBeNull();
    expect(await api.store.ctx.redis.hget(`${api.config.REDIS_PREFIX}seed:301`, 'usedMs')).toBe(
      String(3 * MINUTE),
    );

    // The budget: seed 301 opens again for the 17 minutes it has left.
    await advanceClock(api, MINUTE);
    expect((await report('round_end', 302)).body).toEqual({ ok: true, blockedUntil: null, reason: 'closed' });
    const later = await advanceClock(api, 5 * MINUTE);
    expect((await report('round_start', 301)).body).toEqual({
      ok: true,
      blockedUntil: new Date(later + 17 * MINUTE).toISOString(),
    });
    console.log(
      `redis down: ${calls} calls, slowest 503 ${Math.max(...slowest).toFixed(0)} ms; redis-server up again in ` +
        `${restartMs.toFixed(0)} ms, API serving ${recoveryMs.toFixed(0)} ms after that`,
    );
  });
});
