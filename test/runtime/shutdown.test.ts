// Issue 6, operator's view, item 13: graceful shutdown on SIGTERM. Stop accepting, finish the
// requests and jobs in flight, close Redis, exit 0. The API and the generator worker run as real
// child processes (node-args.ts entryArgs), as production runs them.
import { connect, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portOpen } from '../../scripts/redis-server.ts';
import { DRAIN_MS, STOP_BUDGET_MS } from '../../runtime/process.ts';
import { startFakeA2sServer, type FakeA2sServer } from '../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { logLines, type Exit, type LoggedProcess } from '../support/logged-process.ts';
import { startApiProcess } from '../support/api-process.ts';
import { startWorkerProcess } from '../support/generator-worker.ts';
import { pollUntil } from '../support/clock.ts';
import { send } from '../support/http.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';

/** Resolves with the exit, or with null when the process is still running after `ms`. */
function exitWithin(child: LoggedProcess, ms: number): Promise<Exit | null> {
  return Promise.race([child.exited, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

describe('API process', () => {
  let redis: PrivateRedis;
  let observer: Redis;
  let silent: FakeA2sServer;

  // A private redis-server: CLIENT LIST then shows this API's connection and nobody else's.
  beforeAll(async () => {
    [redis, silent] = await Promise.all([
      startPrivateRedis({ name: 'shutdown-redis' }),
      startFakeA2sServer({ mode: 'silent' }),
    ]);
    observer = new Redis(redis.url, { lazyConnect: true });
    await observer.connect();
  });
  afterAll(async () => {
    observer.disconnect();
    await Promise.all([redis.stop(), silent.close()]);
  });

  const clientNames = async () =>
    ((await observer.client('LIST')) as string)
      .split('\n')
      .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1])
      .filter((name) => name);

  it('SIGTERM: refuses new connections, finishes the in-flight request, closes Redis, exits 0', async () => {
    const api = await startApiProcess({ LOG_LEVEL: 'info', REDIS_URL: redis.url, PROBE_TIMEOUT_MS: '2000' });
    try {
      expect(await clientNames()).toContain('seedblock-api');

      // A self-claim probing a game server that never answers: the request waits out the probe.
      const sentAt = Date.now();
      const inFlight = send(`${api.base}/v1/servers/claim`, { json: { port: silent.port } });
      await pollUntil(
        async () => silent.requests,
        (n) => n > 0,
        { what: 'probe sent', everyMs: 5 },
      );
      api.process.kill('SIGTERM');
      const signalledAt = Date.now();

      // New connections are refused at once, while the process is still finishing.
      await pollUntil(
        () => portOpen(api.port),
        (open) => !open,
        { what: 'port closed after SIGTERM', timeoutMs: 1_500, everyMs: 10 },
      );
      expect(Date.now() - signalledAt).toBeLessThan(1_500);
      expect(api.alive(), 'still finishing the request in flight').toBe(true);

      // The request in flight gets its proper answer, after the probe's full timeout.
      const res = await inFlight;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'no game server' });
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1_900);
      // Its keep-alive connection is not kept: the server ends it with the answer.
      expect(res.headers.get('connection')).toBe('close');

      const exit = await exitWithin(api, 3_000);
      expect(exit, `exited within 3 s of its last answer; stderr: ${api.stderr()}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(Date.now() - signalledAt).toBeLessThan(6_000);
      expect(await clientNames()).not.toContain('seedblock-api');

      // The logs tell the same story: shutting down, then the request that was in flight.
      const lines = logLines(api.stdout());
      const down = lines.findIndex((l) => l.msg === 'shutting down');
      const claim = lines.findIndex((l) => l.msg === 'request' && l.path === '/api/v1/servers/claim');
      expect(down, api.stdout()).toBeGreaterThanOrEqual(0);
      expect(claim).toBeGreaterThan(down);
      expect(lines[claim]).toMatchObject({ method: 'POST', status: 403 });
      expect(api.stderr()).toBe('');
    } finally {
      await api.stop(0);
    }
  });

  it('SIGTERM with nothing in flight: exits 0 at once, idle keep-alive connections included', async () => {
    const api = await startApiProcess({ LOG_LEVEL: 'info', REDIS_URL: redis.url });
    try {
      // A keep-alive connection left idle in fetch's pool must not hold the shutdown up.
      expect((await send(`${api.base}/plugin/v1/version`)).status).toBe(200);
      const signalledAt = Date.now();
      api.process.kill('SIGTERM');
      expect(await exitWithin(api, 3_000)).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(3_000);
      expect(await clientNames()).not.toContain('seedblock-api');
    } finally {
      await api.stop(0);
    }
  });
  it('SIGTERM with a slow upload and an idle keep-alive connection in hand: both cut at DRAIN_MS, gone within the stop budget, last line "stopped"', async () => {
    const api = await startApiProcess({ LOG_LEVEL: 'info', REDIS_URL: redis.url });
    const sockets: Socket[] = [];
    try {
      // An idle keep-alive connection, after one answer.
      const idle = await rawSocket(api.port, sockets);
      idle.write(`GET /api/plugin/v1/version HTTP/1.1\r\nHost: x\r\n\r\n`);
      await idle.received(/^HTTP\/1\.1 200 /);
      // A slow upload, in flight for the server: it asked for the body (100 Continue) and got half.
      const slow = await rawSocket(api.port, sockets);
      slow.write(
        'POST /api/plugin/v1/report HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Expect: 100-continue\r\nContent-Length: 1000\r\n\r\n',
      );
      await slow.received(/^HTTP\/1\.1 100 Continue/);
      slow.write(`{"pad":"${'p'.repeat(400)}`);

      api.process.kill('SIGTERM');
      const signalledAt = Date.now();
      const exit = await exitWithin(api, STOP_BUDGET_MS + 1_000);
      expect(exit, `gone within the budget; stderr: ${api.stderr()}`).toEqual({ code: 0, signal: null });
      const tookMs = Date.now() - signalledAt;
      // The upload was waited for (DRAIN_MS), not answered: its connection was cut.
      expect(tookMs).toBeGreaterThanOrEqual(DRAIN_MS - 100);
      expect(slow.closed()).toBe(true);
      expect(slow.text()).not.toMatch(/HTTP\/1\.1 [2-5]\d\d /);
      expect(idle.closed()).toBe(true);
      const lines = logLines(api.stdout());
      expect(lines.at(-1), api.stdout()).toMatchObject({ name: 'api', msg: 'stopped', exitCode: 0 });
      expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await api.stop(0);
    }
  });
});

interface RawSocket {
  write(text: string): void;
  /** Resolves once what the server sent so far matches `pattern`. */
  received(pattern: RegExp): Promise<void>;
  text(): string;
  closed(): boolean;
}

/** A plain TCP connection to the API, for requests fetch cannot hold half sent. */
async function rawSocket(port: number, all: Socket[]): Promise<RawSocket> {
  const socket = connect(port, '127.0.0.1');
  all.push(socket);
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {}); // a reset is the server cutting it
  await new Promise((resolve) => socket.once('connect', resolve));
  return {
    write: (data) => socket.write(data),
    received: (pattern) =>
      pollUntil(
        async () => text,
        (t) => pattern.test(t),
        { what: `server sent ${pattern}`, everyMs: 10 },
      ).then(() => undefined),
    text: () => text,
    closed: () => socket.closed || socket.readableEnded,
  };
}

describe('API in this process', () => {
  it('close(graceMs) cuts off a request still running after the grace period', async () => {
    const silent = await startFakeA2sServer({ mode: 'silent' });
    const api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '1500' });
    try {
      const inFlight = send(`${api.base}/v1/servers/claim`, { json: { port: silent.port } }).then(
        (res) => res.status,
        (err: Error) => err,
      );
      await pollUntil(
        async () => silent.requests,
        (n) => n > 0,
        { what: 'probe sent', everyMs: 5 },
      );
      const started = Date.now();
      await api.close(300);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(await inFlight).toBeInstanceOf(Error); // the connection was cut, no answer
    } finally {
      await silent.close();
    }
  });
});

describe('generator worker process', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('SIGTERM while generating: finishes the job in hand, takes no other, exits 0', async () => {
    const prefix = api.config.REDIS_PREFIX;
    const redis = api.store.ctx.redis;
    const seeds = Array.from({ length: 120 }, (_, i) => 960_001 + i);
    for (const seed of seeds) expect((await send(`${api.base}/jobs/${seed}`)).status).toBe(200);

    const worker = startWorkerProcess(prefix, { LOG_LEVEL: 'info' });
    try {
      // Busy: a few maps made, many still waiting (so a job is always in hand or being taken).
      await pollUntil(
        () => redis.llen(`${prefix}queue:wait`),
        (waiting) => waiting <= seeds.length - 3,
        { what: 'worker busy', everyMs: 5, timeoutMs: 20_000 },
      );
      worker.process.kill('SIGTERM');

      expect(await exitWithin(worker, 5_000), worker.stderr()).toEqual({ code: 0, signal: null });

      // Nothing left half done: no job in the processing list, none running, no lease.
      expect(await redis.llen(`${prefix}queue:active`)).toBe(0);
      expect(await redis.zcard(`${prefix}queue:leases`)).toBe(0);
      // Each job's status as GET /jobs tells it (every seed was requested: none is queued anew).
      const status = new Map<number, string>();
      for (const seed of seeds) {
        const read = await api.store.readJob(seed, api.config.QUEUE_MAX);
        status.set(seed, read.kind === 'job' ? read.status : read.kind);
      }
      const statuses = seeds.map((seed) => status.get(seed));
      expect(new Set(statuses)).toEqual(new Set(['ready', 'queued']));
      const waiting = await redis.llen(`${prefix}queue:wait`);
      expect(statuses.filter((s) => s === 'queued')).toHaveLength(waiting);
      expect(waiting, 'took no more jobs after the signal').toBeGreaterThan(0);

      // The job in hand when the signal came was finished after it.
      const lines = logLines(worker.stdout());
      const signalled = lines.findIndex((l) => l.msg === 'finishing the job in hand, then stopping');
      expect(signalled, worker.stdout()).toBeGreaterThanOrEqual(0);
      const after = lines.slice(signalled + 1).filter((l) => l.msg === 'map generated');
      expect(after.length).toBeGreaterThanOrEqual(1);
      for (const line of after) expect(status.get(Number(line.seed))).toBe('ready');
      const generated = lines.filter((l) => l.msg === 'map generated').map((l) => Number(l.seed));
      expect(generated.sort()).toEqual(seeds.filter((s) => status.get(s) === 'ready').sort());
      expect(lines.at(-1)).toMatchObject({ name: 'generator', msg: 'stopped', exitCode: 0 });
    } finally {
      await worker.stop(0);
    }
  });
});
