// A service of its own for the memory drills (issue 12): a private redis-server (so INFO
// used_memory is ours alone), one API process and one generator process on it, and a client that
// asks for many seeds over a fixed number of keep-alive connections, as one hostile client would.
// Only ever binds and talks to 127.0.0.1.
import { Agent, request } from 'node:http';
import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { Store } from '../../store/index.ts';
import { startApiProcess, type ApiProcess } from './api-process.ts';
import { testPrefix } from './api.ts';
import { startWorkerProcess, type WorkerProcess } from './generator-worker.ts';
import { startPrivateRedis } from './private-redis.ts';
import { pollUntil } from './clock.ts';
import { type JobBody } from './read-api.ts';
import { openTestStore } from './test-store.ts';

export interface MapService {
  /** A plain connection for INFO and for reading keys (not the service's own). */
  readonly observer: Redis;
  /** Our store on the service's Redis and prefix (to issue keys, as the operator CLI does). */
  readonly store: Store;
  readonly apis: ApiProcess[];
  readonly worker: WorkerProcess;
  /** `${prefix}${name}` */
  key(name: string): string;
  stop(): Promise<void>;
}

/**
 * A redis-server of its own (`config`: CONFIG SET pairs applied before anything connects, e.g.
 * maxmemory), `apis` API processes and one generator process, all with `env` (e.g.
 * MAP_CACHE_MAX_BYTES).
 */
export async function startMapService({
  env = {},
  apis = 1,
  config = {},
}: {
  env?: Record<string, string>;
  apis?: number;
  config?: Record<string, string>;
}): Promise<MapService> {
  const redis = await startPrivateRedis({ name: 'map-flood' });
  const { observer } = redis;
  const prefix = testPrefix();
  const store = await openTestStore({ redisUrl: redis.url, prefix, name: 'map-flood' }).catch(async (err) => {
    await redis.stop();
    throw err;
  });
  const started: ApiProcess[] = [];
  let worker: WorkerProcess | undefined;
  const stop = async () => {
    await Promise.all([...started.map((a) => a.stop()), worker?.stop()]);
    await store.close();
    await redis.stop();
  };
  try {
    for (const [name, value] of Object.entries(config)) await observer.config('SET', name, value);
    const processEnv = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, ...env };
    const results = await Promise.allSettled(Array.from({ length: apis }, () => startApiProcess(processEnv)));
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    worker = startWorkerProcess(prefix, processEnv);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    observer,
    store,
    apis: started,
    worker,
    key: (name) => `${prefix}${name}`,
    stop,
  };
}

/** How many seeds the durable index holds (seeds:index `seeds`). */
async function indexedSeeds(service: MapService): Promise<number> {
  return Number((await service.observer.hget(service.key('seeds:index'), 'seeds')) ?? 0);
}

/**
 * Waits until the index holds `count` seeds and no job waits or runs (the worker is idle). Throws
 * naming what is left when no seed was indexed for `stallMs` (a worker that cannot store maps
 * any more fails here rather than at the end of a long wait), or after `timeoutMs` in all.
 */
export async function waitIdle(
  service: MapService,
  count: number,
  { timeoutMs, stallMs = 60_000 }: { timeoutMs: number; stallMs?: number },
): Promise<void> {
  let last = -1;
  let movedAt = Date.now();
  await pollUntil(
    async () => {
      const indexed = await indexedSeeds(service);
      if (indexed !== last) [last, movedAt] = [indexed, Date.now()];
      return {
        indexed,
        waiting: await service.observer.llen(service.key('queue:wait')),
        active: await service.observer.llen(service.key('queue:active')),
        stalled: Date.now() - movedAt > stallMs,
      };
    },
    (s) => (s.indexed >= count && s.waiting === 0 && s.active === 0) || s.stalled,
    { timeoutMs, everyMs: 100, what: `${count} seeds indexed, queue empty` },
  ).then((s) => {
    if (s.stalled) {
      throw new Error(
        `no seed indexed for ${stallMs} ms: ${JSON.stringify(s)} of ${count}; worker: ${service.worker.stderr()}`,
      );
    }
  });
}

interface Answer {
  status: number;
  body: Buffer;
}

export interface FloodResult {
  /** Answers by status; 0 counts requests that got no answer. */
  statuses: Map<number, number>;
  /** Up to 10 answers of 5xx or none, for the failure message. */
  failures: string[];
  ms: number;
}

/**
 * GETs every path of `paths` on `origin` (http://127.0.0.1:port), at most `connections` at a time
 * over as many keep-alive connections, as one client with that many connections would. `check`
 * sees each answer (its throw fails the request as a failure, never stops the others).
 */
async function flood(
  origin: string,
  paths: readonly string[],
  { connections, check }: { connections: number; check?: (path: string, answer: Answer) => void },
): Promise<FloodResult> {
  const target = new URL(origin);
  if (target.hostname !== '127.0.0.1') throw new Error(`floods only reach 127.0.0.1, not ${origin}`);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const fail = (line: string) => {
    if (failures.length < 10) failures.push(line);
  };
  const one = (path: string) =>
    new Promise<Answer>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: target.port, path, agent, headers: { 'user-agent': 'seedblock-flood/1' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', (err) => resolve({ status: 0, body: Buffer.from(String(err)) }));
        },
      );
      req.on('error', (err) => resolve({ status: 0, body: Buffer.from(String(err)) }));
      req.end();
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const answer = await one(path);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 0 || answer.status >= 500) fail(`${path}: ${answer.status} ${answer.body}`);
        else {
          try {
            check?.(path, answer);
          } catch (err) {
            fail(`${path}: ${answer.status} ${answer.body} (${String(err)})`);
          }
        }
      }
    }),
  );
  agent.destroy();
  return { statuses, failures, ms: performance.now() - started };
}

/** Status counts as a plain object, for messages and equality checks. */
export const statusCounts = (r: FloodResult) =>
  Object.fromEntries([...r.statuses].sort((a, b) => a[0] - b[0]));

/**
 * GET {base}/jobs/{seed} for every seed of `seeds`, over `connections` connections: each answer
 * must be 200 with the job of its seed in one of `statuses` (else it counts as a failure).
 */
export function askJobs(
  api: Pick<ApiProcess, 'url' | 'base'>,
  seeds: readonly number[],
  { connections, statuses }: { connections: number; statuses: JobBody['status'][] },
): Promise<FloodResult> {
  const path = new URL(api.base).pathname;
  return flood(
    api.url,
    seeds.map((seed) => `${path}/jobs/${seed}`),
    {
      connections,
      check: (asked, { status, body }) => {
        expect(status).toBe(200);
        const job = JSON.parse(body.toString()) as JobBody;
        expect(job.seed).toBe(Number(asked.slice(asked.lastIndexOf('/') + 1)));
        expect(statuses).toContain(job.status);
      },
    },
  );
}
