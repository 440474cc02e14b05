import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_VISIBILITY_MS, type ManualClock } from '../../store/index.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, sleep, pollUntil } from '../support/clock.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/generator-worker.ts';
import { get } from '../support/http.ts';
import { allJobs, type JobBody } from '../support/read-api.ts';
import { clientsNamed } from '../support/redis-clients.ts';

import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';

// Drill (issue 7), the variant test/api/read/queue.test.ts does not cover: two real worker processes
// (`generator/main.ts`) take jobs from one queue; one of them is SIGKILLed while its job is
// `running` (leased, generation under way). The other worker keeps serving new seeds, leaves the
// dead worker's job alone while its lease lasts, and finishes it once the manual clock is past
// JOB_VISIBILITY_MS; afterwards nothing is running, held or leased.
//
// How the holder is caught: the test watches job:<seed> and, the moment it reads `running`,
// freezes both workers (SIGSTOP; generation takes tens of milliseconds, so the holder is caught
// mid-job). Of the two, the holder is the one whose queue connection is not blocked in BLMOVE
// (CLIENT LIST flag `b`); connection ids tell the two processes apart (each was started after the
// previous one had connected, on a Redis of this suite's own). Should the job have finished
// before the freeze, both are thawed and a new seed is tried.

const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const QUEUE_CONNECTION = 'seedblock-generator-queue';

let redis: PrivateRedis;
let api: TestApi;
const workers: { process: WorkerProcess; queueConnection: number }[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'drill-worker' });
  api = await startTestApi({ REDIS_URL: redis.url });
  await (api.store.ctx.clock as ManualClock).set(T0);
  for (let i = 0; i < 2; i++) {
    const process = startWorkerProcess(api.config.REDIS_PREFIX, { REDIS_URL: redis.url });
    const known = new Set(workers.map((w) => w.queueConnection));
    const conns = await pollUntil(
      () => clientsNamed(api.store.ctx.redis, QUEUE_CONNECTION),
      (list) => list.some((c) => !known.has(c.id) && c.flags.includes('b')),
      { timeoutMs: 20_000, what: `worker ${i} waiting for jobs` },
    );
    workers.push({ process, queueConnection: conns.find((c) => !known.has(c.id))!.id });
  }
}, 45_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.process.kill('SIGKILL')));
  await api?.close();
  await redis?.stop();
});

const jobKey = (seed: number) => `${api.config.REDIS_PREFIX}job:${seed}`;
const job = async (seed: number) => (await get<JobBody>(`${api.base}/jobs/${seed}`)).body;

describe('a generator worker killed mid-job', () => {
  it('leaves its job to the other worker once the lease runs out; nothing stays running', async () => {
    const redisClient = api.store.ctx.redis;
    const signal = (sig: NodeJS.Signals) => {
      for (const w of workers) w.process.process.kill(sig);
    };

    let caught: { seed: number; holder: number; startedAt: number } | null = null;
    let tries = 0;
    for (let attempt = 0; attempt < 8 && !caught; attempt++) {
      tries += 1;
      const seed = 530_001 + attempt;
      expect(await job(seed)).toMatchObject({ status: 'queued' });
      const deadline = Date.now() + 10_000;
      let status: string | null = null;
      while (status !== 'running' && status !== 'ready') {
        // A finished job leaves no record: gone after `queued` means ready.
        status = (await redisClient.hget(jobKey(seed), 'status')) ?? 'ready';
        if (Date.now() > deadline) throw new Error(`job ${seed} never started (${status})`);
      }
      if (status === 'ready') continue;
      signal('SIGSTOP');
      const conns = await clientsNamed(redisClient, QUEUE_CONNECTION);
      const idle = workers.map((w) => conns.find((c) => c.id === w.queueConnection)?.flags.includes('b'));
      // Whatever either process had already sent lands now.
      await sleep(150);
      const held = await redisClient.hgetall(jobKey(seed));
      if (held.status === 'running' && idle.filter((b) => b === false).length === 1) {
        caught = {
          seed,
          holder: idle.indexOf(false),
          startedAt: Number(held.startedAt),
        };
        break;
      }
      signal('SIGCONT');
      await pollUntil(
        () => job(seed),
        (j) => j.status === 'ready',
        { what: `job ${seed} ready after a missed catch` },
      );
    }
    expect(caught, 'caught a worker holding a running job').not.toBeNull();
    const { seed, holder, startedAt } = caught!;
    const dead = workers[holder]!;
    const survivor = workers[1 - holder]!;
    await dead.process.kill('SIGKILL');
    expect(dead.process.process.signalCode).toBe('SIGKILL');
    survivor.process.process.kill('SIGCONT');

    // The dead worker's job: running, leased until the visibility timeout, in the processing list.
    const prefix = api.config.REDIS_PREFIX;
    expect(await redisClient.hgetall(jobKey(seed))).toMatchObject({ status: 'running', attempts: '1' });
    expect(await redisClient.zscore(`${prefix}queue:leases`, String(seed))).toBe(
      String(startedAt + JOB_VISIBILITY_MS),
    );
    expect(await redisClient.lrange(`${prefix}queue:active`, 0, -1)).toEqual([String(seed)]);
    expect(await job(seed)).toEqual({ seed, status: 'running' });
    expect((await get(`${api.base}/maps/${seed}`)).status).toBe(202);

    // The survivor serves new seeds meanwhile and leaves the leased job alone.
    const other = 539_001;
    expect(await job(other)).toMatchObject({ status: 'queued' });
    await pollUntil(
      () => job(other),
      (j) => j.status === 'ready',
      { what: 'the survivor generates a new seed' },
    );
    expect(await job(seed)).toEqual({ seed, status: 'running' });

    // Past the visibility timeout the survivor's reaper (every 5 s) sends it back and the
    // survivor finishes it.
    await advanceClock(api, JOB_VISIBILITY_MS + 1);
    const requeuedWithin = performance.now();
    await pollUntil(
      () => job(seed),
      (j) => j.status === 'ready',
      { timeoutMs: 12_000, everyMs: 50, what: `job ${seed} finished by the survivor` },
    );
    const tookMs = performance.now() - requeuedWithin;
    // Only the survivor was left to finish it; a finished job leaves no record behind.
    expect(await redisClient.hgetall(jobKey(seed))).toEqual({});
    expect((await get(`${api.base}/maps/${seed}`)).status).toBe(200);

    // Nothing is left running, held or leased; the survivor is still up.
    const jobs = await allJobs(api);
    expect([...jobs.entries()].filter(([, j]) => j.status !== 'ready')).toEqual([]);
    expect(await redisClient.lrange(`${prefix}queue:active`, 0, -1)).toEqual([]);
    expect(await redisClient.llen(`${prefix}queue:wait`)).toBe(0);
    expect(await redisClient.zcard(`${prefix}queue:leases`)).toBe(0);
    expect(survivor.process.process.exitCode, survivor.process.stderr()).toBeNull();
    console.log(
      `worker kill drill: caught worker ${holder} mid-job on try ${tries}; the survivor finished it ` +
        `${tookMs.toFixed(0)} ms after the clock passed the lease`,
    );
  }, 40_000);
});
