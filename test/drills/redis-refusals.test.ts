import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { from, pluginClaim, report } from '../support/claims.ts';
import { type HttpAnswer, send } from '../support/http.ts';
import { startPrivateRedis, waitReplicaLinkUp, type PrivateRedis } from '../support/private-redis.ts';
import { pollUntil } from '../support/clock.ts';
import { usedMemory } from '../support/redis-clients.ts';

// Issue 12, point 4: Redis answering a command with an error (OOM at its maxmemory, READONLY as
// a replica, a script failing on a key of the wrong type) is 503 {"error":"db unavailable"} on
// every path, never 500, against a real redis-server of this suite's own. The service is never
// restarted: once the memory is freed, the replica promoted back, the key repaired, the same
// requests succeed. Requests that write nothing answer as usual (or 503 while the connection
// re-establishes itself after a READONLY), never 500.

const DB_UNAVAILABLE = { error: 'db unavailable' };
const MIB = 2 ** 20;

let redis: PrivateRedis;
let observer: Redis;
let api: TestApi;

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'refusals' });
  observer = redis.observer;
  api = await startTestApi({ REDIS_URL: redis.url, RATE_LIMIT_MULTIPLIER: '1000' });
});
afterAll(async () => {
  await api?.close();
  await redis?.stop();
});

const key = (name: string) => `${api.config.REDIS_PREFIX}${name}`;

/** What a test stage sends: each request once, with what it needs issued beforehand. */
interface Stage {
  credential: string;
  code: string;
  /** Seeds never asked for: one for the map read, one for /jobs, one for the report. */
  seeds: { map: number; job: number; report: number };
  /** The claim's port, so each stage's registration is its own. */
  port: number;
}

let nextSeed = 930_000_001;
async function stage(port: number): Promise<Stage> {
  const { credential } = await api.store.issueHttpKey();
  const { code } = await api.store.issueClaimCode();
  return { credential, code, seeds: { map: nextSeed++, job: nextSeed++, report: nextSeed++ }, port };
}

const get = (path: string) => send(`${api.base}${path}`);
type Send = () => Promise<HttpAnswer<object>>;
const writes = (s: Stage): Record<'report' | 'claim' | 'map' | 'job', Send> => ({
  report: () => report(api, s.credential, { seed: s.seeds.report }),
  claim: () => pluginClaim(api, { code: s.code, port: s.port, pluginVersion: '1.2.0' }, from('127.0.0.1')),
  map: () => get(`/maps/${s.seeds.map}`),
  job: () => get(`/jobs/${s.seeds.job}`),
});
/**
 * Requests that may write nothing: /seeds writes nothing, the version path never needs Redis, and
 * /stats/overview writes only its rate counter when its process cache has run out.
 */
const reads = {
  seeds: () => get('/seeds'),
  overview: () => get('/stats/overview'),
  version: () => get('/plugin/v1/version'),
};

/** What a new seed gets while Redis is near (or past) its maxmemory: the queue takes no new seed. */
const QUEUE_REFUSED = { status: 'busy', error: 'map unavailable' };

/**
 * Every write answers 503 db unavailable (or the 503 body named for it in `otherwise`); each read
 * 200, or 503 db unavailable when named in `mayRefuse`.
 */
async function expectRefused(
  s: Stage,
  mayRefuse: (keyof typeof reads)[],
  otherwise: Partial<Record<keyof ReturnType<typeof writes>, object>> = {},
) {
  for (const [name, send] of Object.entries(writes(s))) {
    const res = await send();
    const body = otherwise[name as keyof typeof otherwise] ?? DB_UNAVAILABLE;
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 503, body });
  }
  for (const [name, send] of Object.entries(reads)) {
    const res = await send();
    if (res.status === 503 && mayRefuse.includes(name as keyof typeof reads)) {
      expect(res.body, name).toEqual(DB_UNAVAILABLE);
    } else expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
  }
}

/** The same requests, now served: nothing of the refused attempts was half done. */
async function expectServed(s: Stage) {
  const w = writes(s);
  // The first write may meet the connection still coming back (after READONLY): wait for it.
  const opened = (await pollUntil(w.report, (r) => r.status !== 503, {
    what: 'report served',
  })) as HttpAnswer<{ blockedUntil?: string }>;
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  expect(opened.body).toEqual({ ok: true, blockedUntil: expect.any(String) });
  const claimed = await w.claim();
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
  expect(claimed.body).toMatchObject({ status: 'verified' });
  expect(await w.map()).toMatchObject({ status: 202, body: { status: 'pending', job: 'queued' } });
  expect(await w.job()).toMatchObject({ status: 200, body: { seed: s.seeds.job, status: 'queued' } });
  expect(await get(`/maps/${s.seeds.report}`)).toMatchObject({
    status: 403,
    body: { error: 'blocked', blockedUntil: opened.body.blockedUntil },
  });
  for (const [name, send] of Object.entries(reads)) expect((await send()).status, name).toBe(200);
}

describe('Redis refusing commands: 503 db unavailable, never 500, and recovery in place', () => {
  it('at its maxmemory (OOM), then with the memory freed', async () => {
    const s = await stage(7101);
    // The limit just above what is used, then one key grown past it: every write is refused.
    await observer.config('SET', 'maxmemory', String((await usedMemory(observer)) + 4 * MIB));
    try {
      await pollUntil(
        () => observer.append(key('filler'), Buffer.alloc(MIB)).catch((err: Error) => err.message),
        (reply) => typeof reply === 'string',
        { what: 'Redis at its maxmemory', everyMs: 0 },
      );
      // Now 2 MiB under what is used, so the buffers and counters freed meanwhile on a loaded
      // machine cannot bring Redis back under its limit; freeing the filler (4 MiB or more) does.
      await observer.config('SET', 'maxmemory', String((await usedMemory(observer)) - 2 * MIB));
      await expect(observer.set(key('probe'), '1')).rejects.toThrow(/^OOM/);

      // A fresh /jobs seed writes nothing before the memory headroom turns it away.
      await expectRefused(s, ['overview'], { job: QUEUE_REFUSED });

      await observer.del(key('filler'));
      await expectServed(s);
    } finally {
      await observer.del(key('filler'));
      await observer.config('SET', 'maxmemory', '0');
    }
  });

  it('as a read-only replica (READONLY), then promoted back', async () => {
    const s = await stage(7102);
    // A second server on loopback takes a copy of ours, then ours becomes its replica, so what
    // ours serves stays the same data while it refuses every write. Full copies start at once,
    // not after the default 5 s wait for more replicas.
    await observer.config('SET', 'repl-diskless-sync-delay', '0');
    const other = await startPrivateRedis({ name: 'refusals-replica', replicaOf: redis.port });
    const otherClient = other.observer;
    try {
      // Up once the first full copy is loaded: it holds the stage's key and code.
      await waitReplicaLinkUp(otherClient);
      await otherClient.replicaof('NO', 'ONE');
      await otherClient.config('SET', 'repl-diskless-sync-delay', '0');
      await observer.replicaof('127.0.0.1', String(other.port));
      await waitReplicaLinkUp(observer);
      await expect(observer.set(key('probe'), '1')).rejects.toThrow(/^READONLY/);

      // A READONLY reply makes the API's connection reconnect, and a request meeting it then is
      // refused too.
      await expectRefused(s, ['overview', 'seeds']);

      await observer.replicaof('NO', 'ONE');
      await expectServed(s);
    } finally {
      await observer.replicaof('NO', 'ONE');
      await other.stop();
    }
  });

  it('a script failing on a key of the wrong type, then with the key repaired', async () => {
    const seed = nextSeed++;
    await observer.set(key(`job:${seed}`), 'not a job');
    for (const path of [`/jobs/${seed}`, `/maps/${seed}`]) {
      const res = await get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 503,
        body: DB_UNAVAILABLE,
      });
    }
    await observer.del(key(`job:${seed}`));
    expect(await get(`/jobs/${seed}`)).toMatchObject({ status: 200, body: { seed, status: 'queued' } });
    expect(await get(`/maps/${seed}`)).toMatchObject({ status: 202 });
  });
});
