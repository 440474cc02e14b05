import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobSchema } from '../../../api/schemas.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { setClock } from '../../support/clock.ts';
import { startTestWorker } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import {
  closeWindow,
  failAttemptByHand,
  jobHash,
  openWindow,
  takeByHand,
  waitingSeeds,
  waitReady,
  type JobBody,
} from '../../support/read-api.ts';

// GET /jobs/{seed} (spec 2.6, 3.2, 4.8) over real HTTP: each status of a job, `ahead`, and the
// blocking rules shared with maps. The worker is started only where a test wants jobs to run.

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  await setClock(api, '2026-03-01T08:00:00.000Z');
});
afterEach(async () => {
  await api.close();
});

async function job(seed: number) {
  const res = await get<JobBody>(`${api.base}/jobs/${seed}`);
  if (res.status === 200) JobSchema.strict().parse(res.body);
  return res;
}

describe('GET /jobs/{seed} (4.8)', () => {
  it('queues a seed never requested; `ahead` counts the seeds waiting before it', async () => {
    const seeds = [91001, 91002, 91003, 91004];
    for (const [i, seed] of seeds.entries()) {
      const res = await job(seed);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ seed, status: 'queued', ahead: i });
    }
    // Asking again changes nothing; a map request for a queued seed neither.
    expect((await job(91003)).body).toEqual({ seed: 91003, status: 'queued', ahead: 2 });
    expect((await get(`${api.base}/maps/91002`)).status).toBe(202);
    expect(await waitingSeeds(api)).toEqual([...seeds].reverse());

    // The oldest goes first: everyone behind it moves up one.
    expect(await takeByHand(api)).toBe(91001);
    expect((await job(91002)).body).toEqual({ seed: 91002, status: 'queued', ahead: 0 });
    expect((await job(91004)).body).toEqual({ seed: 91004, status: 'queued', ahead: 2 });
    // A new seed queues behind all of them.
    expect((await job(91005)).body).toEqual({ seed: 91005, status: 'queued', ahead: 3 });
  });

  it('reports running while a worker holds the job, then ready', async () => {
    const seed = 92001;
    await job(seed);
    expect(await takeByHand(api)).toBe(seed);
    expect(await api.store.startJob(seed, 'test-worker')).toBe(1);
    expect((await job(seed)).body).toEqual({ seed, status: 'running' });
    expect((await get(`${api.base}/maps/${seed}`)).status).toBe(202);

    // A real worker runs the next seed through to ready.
    const worker = await startTestWorker(api.config.REDIS_PREFIX);
    try {
      await job(92002);
      await waitReady(api, 92002);
      expect((await job(92002)).body).toEqual({ seed: 92002, status: 'ready' });
      expect((await get(`${api.base}/maps/92002`)).status).toBe(200);
    } finally {
      await worker.stop();
    }
  });

  it('reports error with the reason after the last attempt; earlier failures stay queued', async () => {
    const seed = 93001;
    await job(seed);
    expect(await failAttemptByHand(api, seed, 'out of memory')).toBe('requeued');
    // Back in the queue at the front, with no error shown.
    expect((await job(seed)).body).toEqual({ seed, status: 'queued', ahead: 0 });
    expect(await failAttemptByHand(api, seed, 'out of memory')).toBe('requeued');
    expect(await failAttemptByHand(api, seed, 'layout table missing')).toBe('error');
    expect((await job(seed)).body).toEqual({ seed, status: 'error', error: 'layout table missing' });
    // Asking again does not queue it again.
    expect(await waitingSeeds(api)).toEqual([]);
    expect((await get(`${api.base}/maps/${seed}`)).status).toBe(503);
  });

  it('answers 403 blocked with blockedUntil for a seed with an open window, and does not queue it', async () => {
    const seed = 94001;
    const window = await openWindow(api, seed);
    for (const path of ['jobs', 'maps', 'jobs']) {
      const res = await get(`${api.base}/${path}/${seed}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'blocked', blockedUntil: window.blockedUntil });
    }
    expect(await jobHash(api, seed)).toEqual({});
    expect(await waitingSeeds(api)).toEqual([]);

    // Once the window ends the seed may be queued like any other.
    await closeWindow(api, window);
    expect((await job(seed)).body).toEqual({ seed, status: 'queued', ahead: 0 });
    expect(await waitingSeeds(api)).toEqual([seed]);
  });

  it('a queued seed whose window opens is blocked too, and shown again with its job when it ends', async () => {
    const seed = 94002;
    expect((await job(seed)).body).toEqual({ seed, status: 'queued', ahead: 0 });
    const window = await openWindow(api, seed);
    expect((await job(seed)).status).toBe(403);
    await setClock(api, window.blockedUntil);
    expect((await job(seed)).body).toEqual({ seed, status: 'queued', ahead: 0 });
  });

  it('answers 403 without blockedUntil for the permanent blocklist', async () => {
    await api.store.addToBlocklist(95001);
    const res = await job(95001);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'blocked' });
    expect(await jobHash(api, 95001)).toEqual({});
  });
});
