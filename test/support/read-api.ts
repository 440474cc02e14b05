// Helpers for the read API tests (spec 4.7-4.11): windows opened and closed through the real report
// route, maps generated and waited for, and a look at the generation queue in Redis. Only ever
// talks to the loopback API of a test.
import { expect } from 'vitest';
import type { TestApi } from './api.ts';
import { bearer, get, send } from './http.ts';
import { pollUntil } from './clock.ts';

export type JobBody = { seed: number; status: string; ahead?: number; error?: string };

/** Polls GET /jobs/{seed} (not rate limited) until the job is `ready`. Needs a running worker. */
export function waitReady(api: Pick<TestApi, 'base'>, seed: number, timeoutMs = 10_000) {
  return pollUntil(
    () => get<JobBody>(`${api.base}/jobs/${seed}`),
    (r) => r.status === 200 && r.body.status === 'ready',
    { timeoutMs, what: `job ${seed} ready` },
  );
}

/** Queues `seeds` (through GET /jobs, in this order) and waits until every one is generated. */
export async function generate(api: Pick<TestApi, 'base'>, ...seeds: number[]): Promise<void> {
  for (const seed of seeds) {
    const res = await get<JobBody>(`${api.base}/jobs/${seed}`);
    expect(res.status, `queue ${seed}`).toBe(200);
  }
  for (const seed of seeds) await waitReady(api, seed);
}

export interface OpenWindow {
  seed: number;
  serverId: string;
  credential: string;
  blockedUntil: string;
}

/**
 * Opens a block window on `seed` with a fresh HTTP key (20-minute cap) through the report route of
 * `api` (an in-process API, or an API process with the store of its Redis).
 */
export async function openWindow(api: Pick<TestApi, 'base' | 'store'>, seed: number): Promise<OpenWindow> {
  const { serverId, credential } = await api.store.issueHttpKey();
  const res = await send<{ ok: boolean; blockedUntil: string | null }>(`${api.base}/plugin/v1/report`, {
    headers: bearer(credential),
    json: { event: 'round_start', seed, port: 7777 },
  });
  expect(res.status).toBe(200);
  expect(res.body, `window of ${seed} opened`).toEqual({ ok: true, blockedUntil: expect.any(String) });
  return { seed, serverId, credential, blockedUntil: res.body.blockedUntil! };
}

/** round_end from the key that opened the window: closes it at once. */
export async function closeWindow(api: TestApi, window: OpenWindow): Promise<void> {
  const res = await send<{ ok: boolean; blockedUntil: string | null }>(`${api.base}/plugin/v1/report`, {
    headers: bearer(window.credential),
    json: { event: 'round_end', seed: window.seed, port: 7777 },
  });
  expect(res.body).toEqual({ ok: true, blockedUntil: null, reason: 'closed' });
}

const key = (api: TestApi, name: string) => `${api.config.REDIS_PREFIX}${name}`;

/** queue:wait as stored: index 0 is the newest, the last entry is taken next. */
export async function waitingSeeds(api: TestApi): Promise<number[]> {
  return (await api.store.ctx.redis.lrange(key(api, 'queue:wait'), 0, -1)).map(Number);
}

export async function activeSeeds(api: TestApi): Promise<number[]> {
  return (await api.store.ctx.redis.lrange(key(api, 'queue:active'), 0, -1)).map(Number);
}

export function jobHash(api: TestApi, seed: number): Promise<Record<string, string>> {
  return api.store.ctx.redis.hgetall(key(api, `job:${seed}`));
}

export async function leaseOf(api: TestApi, seed: number): Promise<number | null> {
  const score = await api.store.ctx.redis.zscore(key(api, 'queue:leases'), String(seed));
  return score === null ? null : Number(score);
}

/**
 * What a worker does when it takes a job (BLMOVE from queue:wait into queue:active), done by hand
 * for a worker that then dies or fails. Returns the seed taken (the one waiting longest).
 */
export async function takeByHand(api: TestApi): Promise<number> {
  const seed = await api.store.ctx.redis.lmove(
    key(api, 'queue:wait'),
    key(api, 'queue:active'),
    'RIGHT',
    'LEFT',
  );
  if (seed === null) throw new Error('queue:wait is empty');
  return Number(seed);
}

/** Take, lease and fail one attempt, as a worker whose generation threw `reason`. */
export async function failAttemptByHand(api: TestApi, seed: number, reason: string) {
  expect(await takeByHand(api)).toBe(seed);
  expect(await api.store.startJob(seed, 'failing-worker')).toBeGreaterThan(0);
  return api.store.failJob(seed, reason);
}

/** Every job hash under the API's prefix, by seed. */
export async function allJobs(api: TestApi): Promise<Map<number, Record<string, string>>> {
  const jobs = new Map<number, Record<string, string>>();
  let cursor = '0';
  do {
    const [next, keys] = await api.store.ctx.redis.scan(cursor, 'MATCH', key(api, 'job:*'), 'COUNT', 1000);
    for (const k of keys)
      jobs.set(Number(k.slice(k.lastIndexOf(':') + 1)), await api.store.ctx.redis.hgetall(k));
    cursor = next;
  } while (cursor !== '0');
  return jobs;
}
