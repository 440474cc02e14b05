// Issue 18, points 2 and 3: the health probes and Redis outages in the logs, on real processes.
// - /healthz answers 200 whatever Redis does; /readyz answers 503 naming each failed check within
//   the 500 ms bound (plus slack: an upper bound, never a goal) when Redis is stopped (SIGSTOP)
//   or killed, and 200 again once it is back, without a restart.
// - a viewer that is not built fails readiness by name, and start-up warns about it.
// - probes are never rate-limited and never in the request log.
// - the API and a generator worker each log one `error` line when Redis is lost (its address, no
//   password) and one `info` line when it is back, however many requests fail meanwhile; 503s
//   are logged at `warn`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { redactRedisUrl } from '../../store/redis-url.ts';
import { logLines, type LoggedProcess } from '../support/logged-process.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { startWorkerProcess } from '../support/generator-worker.ts';
import { pollUntil } from '../support/clock.ts';
import { type HttpAnswer, send } from '../support/http.ts';

type Readiness = {
  status: 'ready' | 'unready';
  error?: string;
  failed?: string[];
  checks: Record<'redis' | 'scripts' | 'viewer', { ok: boolean; error?: string }>;
  generators: { workers: number; waiting: number; active: number; stalled: boolean } | null;
};

/** The 500 ms of the readiness PING, plus slack for a loaded machine: an upper bound only. */
const READY_BOUND_MS = 500 + 1_500;

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `seedblock-health-${name}-`));
  dirs.push(dir);
  return dir;
};
const processes: { stop(): Promise<unknown> }[] = [];

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const readyz = (api: ApiProcess, method = 'GET') => send<Readiness>(`${api.url}/readyz`, { method });
const healthz = (api: ApiProcess, method = 'GET') => send<unknown>(`${api.url}/healthz`, { method });

const linesOf = (p: LoggedProcess) => logLines(p.stdout());
const lost = (p: LoggedProcess) =>
  linesOf(p).filter((l) => l.msg === 'Redis lost; calls needing it fail until it is back');
const back = (p: LoggedProcess) => linesOf(p).filter((l) => String(l.msg).startsWith('Redis back'));

describe('on a Redis that is stopped, killed and restarted', () => {
  let redis: PrivateRedis;
  let api: ApiProcess;
  let worker: LoggedProcess;

  beforeAll(async () => {
    redis = await startPrivateRedis({ name: 'health' });
    api = await startApiProcess({ LOG_LEVEL: 'info', REDIS_URL: redis.url });
    processes.push(api);
    worker = startWorkerProcess(api.prefix, { LOG_LEVEL: 'info', REDIS_URL: redis.url });
    processes.push(worker);
    await pollUntil(
      () => readyz(api),
      (r) => r.status === 200 && r.body.generators?.workers === 1,
      {
        what: 'ready with one worker',
        timeoutMs: 20_000,
      },
    );
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('is live and ready, GET and HEAD, with no-store and no body for HEAD', async () => {
    const live = await healthz(api);
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers.get('cache-control')).toBe('no-store');
    const ready = await readyz(api);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { redis: { ok: true }, scripts: { ok: true }, viewer: { ok: true } },
      generators: { workers: 1, waiting: 0, active: 0, stalled: false },
      details: {
        replicasAck: 0,
        replicasAckTimeoutMs: 250,
        replicasAckable: true,
        replicasConfirmed: 0,
        masterConfirmed: true,
        clockSkewMs: expect.any(Number),
        clockSkewed: false,
      },
    });
    for (const res of [await healthz(api, 'HEAD'), await readyz(api, 'HEAD')]) {
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
    }
  });

  it('is never rate-limited and never in the request log', async () => {
    const answers: HttpAnswer<unknown>[] = [];
    for (let i = 0; i < 15; i++) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 20 }, (_, j) => (j % 2 ? healthz(api) : readyz(api))))),
      );
    }
    expect(answers.map((r) => r.status)).toEqual(Array(300).fill(200));
    // A request that is logged, so the log is known to be written by now.
    const marker = await send(`${api.base}/plugin/v1/version`);
    expect(marker.status).toBe(200);
    await pollUntil(
      async () => linesOf(api),
      (lines) => lines.some((l) => l.path === '/api/plugin/v1/version'),
      { what: 'the version request logged' },
    );
    const probes = linesOf(api).filter((l) => typeof l.path === 'string' && /healthz|readyz/.test(l.path));
    expect(probes).toEqual([]);
  });

  it('a stopped (SIGSTOP) Redis fails readiness in time, and it heals when Redis runs again', async () => {
    redis.server.process.kill('SIGSTOP');
    try {
      // The first probe may find the connection still up: its PING then waits the 500 ms out.
      for (let i = 0; i < 3; i++) {
        const value = await readyz(api);
        expect(value.doneAt - value.sentAt, 'readiness answered within its bound').toBeLessThan(
          READY_BOUND_MS,
        );
        expect(value.status).toBe(503);
        expect(value.body.error).toBe('not ready');
        expect(value.body.failed).toContain('redis');
        expect(value.body.checks.redis.ok).toBe(false);
        expect(value.body.checks.viewer).toEqual({ ok: true });
        expect(value.body.generators).toBeNull();
      }
      expect((await healthz(api)).status).toBe(200);
    } finally {
      redis.server.process.kill('SIGCONT');
    }
    await pollUntil(
      () => readyz(api),
      (r) => r.status === 200,
      { what: 'ready again', timeoutMs: 10_000 },
    );
  });

  it('a killed Redis fails readiness at once; restarted on its port, ready again without a restart', async () => {
    await redis.kill('SIGKILL');
    const value = await readyz(api);
    expect(value.doneAt - value.sentAt).toBeLessThan(READY_BOUND_MS);
    expect(value.status).toBe(503);
    expect(value.body.failed).toEqual(['redis', 'scripts']);
    expect(value.body.checks.redis.error).toMatch(/^no connection to Redis/);
    expect((await healthz(api)).status).toBe(200);
    // Calls that need Redis fail meanwhile: 503, logged at warn; none adds an outage line.
    for (let i = 0; i < 10; i++) expect((await send(`${api.base}/seeds`)).status).toBe(503);
    // The version answers from memory, and leaves the outage to its one line (no stack per call).
    for (let i = 0; i < 3; i++) expect((await send(`${api.base}/plugin/v1/version`)).status).toBe(200);

    await redis.restart();
    // A fresh Redis holds no scripts: readiness loads them, and says ready.
    await pollUntil(
      () => readyz(api),
      (r) => r.status === 200,
      { what: 'ready again', timeoutMs: 10_000 },
    );
    expect(api.alive()).toBe(true);

    // Log lines are written within a second.
    const warned = await pollUntil(
      async () => linesOf(api).filter((l) => l.path === '/api/seeds' && l.status === 503),
      (lines) => lines.length === 10,
      { what: 'ten 503s logged' },
    );
    expect(warned.every((l) => l.level === 40)).toBe(true);
  });

  it('each process logged one error line per outage and one info line per return, with the address', async () => {
    // Two outages so far: stopped, then killed. The API's probes met both; the worker notices a
    // stop only when a call of its own waits on it (a heartbeat, the reaper), so maybe not the first.
    await pollUntil(
      async () => lost(worker).length,
      (n) => n >= 1,
      { what: 'the worker lost Redis' },
    );
    const outages = { api: 2, worker: lost(worker).length };
    expect(outages.worker === 1 || outages.worker === 2).toBe(true);
    for (const [p, count] of [
      [api, outages.api],
      [worker, outages.worker],
    ] as const) {
      await pollUntil(
        async () => back(p).length,
        (n) => n === count,
        { what: `${count} "Redis back" lines` },
      );
      expect(lost(p).length).toBe(count);
      for (const line of lost(p)) {
        expect(line.level).toBe(50);
        expect(line.redis).toBe(redis.url);
        expect(line.reason).toEqual(expect.any(String));
        expect(line).not.toHaveProperty('err');
      }
      for (const line of back(p)) {
        expect(line.level).toBe(30);
        expect(line.downMs).toEqual(expect.any(Number));
      }
      // No ioredis internals stack anywhere.
      expect(p.stdout()).not.toMatch(/at .*node_modules\/ioredis/);
    }
  });
});

describe('the viewer not built', () => {
  it('fails readiness naming the viewer, and start-up warns', async () => {
    const api = await startApiProcess({ LOG_LEVEL: 'info', VIEWER_DIST_DIR: tempDir('dist') });
    processes.push(api);
    const res = await readyz(api);
    expect(res.status).toBe(503);
    expect(res.body.failed).toEqual(['viewer']);
    expect(res.body.checks.viewer.error).toMatch(/not built .*npm run build:viewer/);
    expect((await healthz(api)).status).toBe(200);
    const warning = await pollUntil(
      async () => linesOf(api).find((l) => String(l.msg).startsWith('the map viewer is not built')),
      (line) => line !== undefined,
      { what: 'the start-up warning' },
    );
    expect(warning?.level).toBe(40);
  });
});

describe('the Redis address in log lines', () => {
  it('keeps host, port, user and db, and never the password', () => {
    expect(redactRedisUrl('redis://127.0.0.1:6390')).toBe('redis://127.0.0.1:6390');
    expect(redactRedisUrl('redis://:s3cret@10.0.0.5:6379/2')).toBe('redis://:***@10.0.0.5:6379/2');
    expect(redactRedisUrl('rediss://app:s3cret@db.example:6380')).toBe('rediss://app:***@db.example:6380');
    expect(redactRedisUrl('redis-sentinel://s3cret@h1:26379,h2#main')).toBe(
      'redis-sentinel://***@h1:26379,h2#main',
    );
    expect(redactRedisUrl('redis-sentinel://u:p@ss@h1#main')).not.toContain('p@ss');
  });
});
