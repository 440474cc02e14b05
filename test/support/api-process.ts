import { inject } from 'vitest';
import { freePort, portOpen } from '../../scripts/redis-server.ts';
import type { ManualClock, Store } from '../../store/index.ts';
import { testPrefix } from './api.ts';
import { sleep } from './clock.ts';
import { spawnLogged, type LoggedProcess, type SpawnOptions } from './logged-process.ts';
import { START_BOUND_MS } from './node-args.ts';
import { openTestStore } from './test-store.ts';

// One API as its own process (`node api/main.ts`, started as logged-process.ts spawns every entry
// point), as production runs it: for tests where several processes share one Redis, and for what
// only a process shows (its logs, its exit). Listens on 127.0.0.1 only.

export interface ApiProcess extends LoggedProcess {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** `${url}${API_PREFIX}` (`/api` unless the env says otherwise) */
  readonly base: string;
  readonly port: number;
  readonly prefix: string;
  /** The whole environment it runs with. */
  readonly env: Record<string, string>;
}

/**
 * The environment of an API process in tests, listening on 127.0.0.1:`port`: the shared test
 * Redis under a fresh prefix, the manual clock, private probes allowed (loopback fakes), limits
 * ×1000; `env` overrides any of it.
 */
export function apiProcessEnv(port: number, env: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: testPrefix(),
    SEEDBLOCK_CLOCK: 'manual',
    PROBE_ALLOW_PRIVATE: '1',
    RATE_LIMIT_MULTIPLIER: '1000',
    ...env,
  };
}

/**
 * Starts an API process with the test environment (manual clock, private probes allowed, rate
 * limits ×1000, no logs unless LOG_LEVEL says) on a free port; `env` overrides any of it (e.g.
 * REDIS_PREFIX to share one namespace between processes). Resolves once the port accepts
 * connections, within `timeoutMs`.
 */
export async function startApiProcess(
  env: Record<string, string> = {},
  { timeoutMs = START_BOUND_MS, ...spawnOptions }: SpawnOptions & { timeoutMs?: number } = {},
): Promise<ApiProcess> {
  const port = await freePort();
  const fullEnv = apiProcessEnv(port, { LOG_LEVEL: 'silent', ...env });
  const child = spawnLogged('api/main.ts', fullEnv, spawnOptions);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!child.alive()) {
      const exit = await child.exited;
      throw new Error(`api process exited at start (${exit.code ?? exit.signal}): ${child.stderr()}`);
    }
    if (await portOpen(port)) break;
    if (Date.now() > deadline) {
      await child.stop(0);
      throw new Error(`api process did not listen on ${port} within ${timeoutMs} ms: ${child.stderr()}`);
    }
    await sleep(50);
  }
  const url = `http://127.0.0.1:${port}`;
  return Object.assign(child, {
    url,
    base: `${url}${fullEnv.API_PREFIX ?? '/api'}`,
    port,
    prefix: fullEnv.REDIS_PREFIX!,
    env: fullEnv,
  });
}

/** Two API processes on one key namespace, and a store (manual clock) on it to set them up and look. */
export interface ApiProcessPair {
  a: ApiProcess;
  b: ApiProcess;
  store: Store;
  clock: ManualClock;
  prefix: string;
  stop(): Promise<void>;
}

/** Two API processes on a new key namespace (several processes behind one Redis); both or neither. */
export async function startApiProcessPair(name: string): Promise<ApiProcessPair> {
  const prefix = testPrefix();
  const started = await Promise.allSettled([
    startApiProcess({ REDIS_PREFIX: prefix }),
    startApiProcess({ REDIS_PREFIX: prefix }),
  ]);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    throw failed.reason;
  }
  const [a, b] = started.map((r) => (r as PromiseFulfilledResult<ApiProcess>).value) as [
    ApiProcess,
    ApiProcess,
  ];
  const store = await openTestStore({ prefix, name });
  return {
    a,
    b,
    store,
    clock: store.ctx.clock as ManualClock,
    prefix,
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await store.close();
    },
  };
}
