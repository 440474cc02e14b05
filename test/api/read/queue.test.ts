import { afterEach, describe, expect, it } from 'vitest';
import { JOB_MAX_ATTEMPTS, JOB_VISIBILITY_MS } from '../../../store/index.ts';
import { startApiAt, type TestApi } from '../../support/api.ts';
import { advanceClock, pollUntil } from '../../support/clock.ts';
import { startTestWorker, startWorkerProcess, type WorkerProcess } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import {
  activeSeeds,
  allJobs,
  failAttemptByHand,
  jobHash,
  leaseOf,
  takeByHand,
  waitingSeeds,
  waitReady,
  type JobBody,
} from '../../support/read-api.ts';

// The generation queue (spec 3.2, 4.7, 4.8) with real workers: a worker process killed while it
// holds a job, a worker that died after leasing one, a job that uses up its attempts, and many
// requests for one new seed at once.

const T0 = '2026-03-01T08:00:00.000Z';

let api: TestApi | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await api?.close();
  api = undefined;
});

async function job(on: TestApi, seed: number) {
  return (await get<JobBody>(`${on.base}/jobs/${seed}`)).body;
}

describe('the generation queue', () => {
  it('survives a killed worker: after the visibility timeout its job goes back and another worker finishes it', async () => {
    const a = (api = await startApiAt(T0));
    const prefix = a.config.REDIS_PREFIX;

    // A real worker process, warmed up on one seed.
    const child: WorkerProcess = startWorkerProcess(prefix);
    cleanups.push(() => child.kill());
    const warm = 500_001;
    await job(a, warm);
    await waitReady(a, warm, 20_000);
    // Frozen while it waits in BLMOVE: Redis still hands it the next seed, which it never starts.
    // (Should the freeze land before it asked again, it is thawed, finishes that seed and we retry.)
    let held = 0;
    for (let attempt = 0; attempt < 3 && !held; attempt++) {
      const seed = 500_010 + attempt;
      await new Promise((r) => setTimeout(r, 100));
      child.process.kill('SIGSTOP');
      expect((await get(`${a.base}/maps/${seed}`)).status).toBe(202);
      try {
        await pollUntil(
          () => activeSeeds(a),
          (s) => s.includes(seed),
          { timeoutMs: 1_000, what: 'worker took it' },
        );
        held = seed;
      } catch {
        child.process.kill('SIGCONT');
        await waitReady(a, seed);
      }
    }
    expect(held).not.toBe(0);
    await child.kill('SIGKILL');
    expect(child.process.signalCode).toBe('SIGKILL');
    expect(await job(a, held)).toEqual({ seed: held, status: 'queued', ahead: 0 });

    // Another worker died after leasing its job (taken and started by hand, never finished).
    const leased = 500_003;
    await job(a, leased);
    expect(await takeByHand(a)).toBe(leased);
    expect(await a.store.startJob(leased, 'dead-worker')).toBe(1);
    // And a job on its last attempt when its worker died.
    const last = 500_004;
    await job(a, last);
    for (let i = 1; i < JOB_MAX_ATTEMPTS; i++)
      expect(await failAttemptByHand(a, last, 'boom')).toBe('requeued');
    expect(await takeByHand(a)).toBe(last);
    expect(await a.store.startJob(last, 'dead-worker')).toBe(JOB_MAX_ATTEMPTS);
    expect(await job(a, leased)).toEqual({ seed: leased, status: 'running' });

    // A live worker: it serves new seeds at once; the dead workers' jobs wait for their leases.
    const live = await startTestWorker(prefix);
    cleanups.push(() => live.stop());
    await job(a, 500_005);
    await waitReady(a, 500_005);
    expect(await job(a, leased)).toEqual({ seed: leased, status: 'running' });
    // The reaper (every 5 s) leases the job taken but never started, from the clock's now.
    await pollUntil(
      () => leaseOf(a, held),
      (l) => l !== null,
      { timeoutMs: 8_000, what: 'lease of held' },
    );
    expect(await job(a, held)).toMatchObject({ status: 'queued' });
    // The killed process took `held` but never started it: no attempt spent. `leased` spent one.
    expect(await jobHash(a, held)).toMatchObject({ status: 'queued', attempts: '0' });
    expect(await jobHash(a, leased)).toMatchObject({ status: 'running', attempts: '1' });

    // Past the visibility timeout every lease has run out.
    await advanceClock(a, JOB_VISIBILITY_MS);
    await waitReady(a, held, 9_000);
    await waitReady(a, leased, 2_000);
    expect(await job(a, last)).toEqual({
      seed: last,
      status: 'error',
      error: 'worker stopped before finishing',
    });
    for (const seed of [held, leased]) expect((await get(`${a.base}/maps/${seed}`)).status).toBe(200);
    const failed = await get(`${a.base}/maps/${last}`);
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ status: 'busy', error: 'map unavailable' });

    // Nothing is left running, held or leased.
    const jobs = await allJobs(a);
    expect([...jobs.values()].filter((j) => j.status === 'running')).toEqual([]);
    expect(await activeSeeds(a)).toEqual([]);
    expect(await waitingSeeds(a)).toEqual([]);
    for (const seed of jobs.keys()) expect(await leaseOf(a, seed)).toBeNull();
    // A finished job leaves no record (the seed index says `ready`); a failed one keeps its reason.
    expect(jobs.has(held)).toBe(false);
    expect(jobs.has(leased)).toBe(false);
    expect(jobs.get(last)).toMatchObject({ status: 'error', attempts: String(JOB_MAX_ATTEMPTS) });
  }, 30_000);

  it('queues a new seed exactly once for many concurrent requests', async () => {
    const a = (api = await startApiAt(T0));
    const seed = 600_001;
    const [maps, jobs] = await Promise.all([
      Promise.all(
        Array.from({ length: 40 }, (_, i) => get(`${a.base}/maps/${seed}`, { ip: `198.51.100.${i + 1}` })),
      ),
      Promise.all(Array.from({ length: 10 }, () => get<JobBody>(`${a.base}/jobs/${seed}`))),
    ]);
    expect(maps.map((r) => r.status)).toEqual(Array(40).fill(202));
    for (const r of jobs) expect(r.body).toEqual({ seed, status: 'queued', ahead: 0 });
    expect(await waitingSeeds(a)).toEqual([seed]);
    expect(await jobHash(a, seed)).toMatchObject({ status: 'queued', attempts: '0' });

    const worker = await startTestWorker(a.config.REDIS_PREFIX);
    cleanups.push(() => worker.stop());
    await waitReady(a, seed);
    // Once more, with the map there: one dump, listed once.
    for (let i = 0; i < 20; i++) expect((await get(`${a.base}/maps/${seed}`)).status).toBe(200);
    const page = await get<{ items: { seed: number }[]; total: number }>(`${a.base}/seeds`);
    expect(page.body.items.map((i) => i.seed)).toEqual([seed]);
    expect(page.body.total).toBe(1);
    expect(await a.store.ctx.redis.hget(`${a.config.REDIS_PREFIX}seeds:index`, 'dumped')).toBe('1');
    expect(await jobHash(a, seed)).toEqual({});
  });
});
