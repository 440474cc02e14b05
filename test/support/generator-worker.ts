// A real generator worker for tests, on the shared test Redis under a suite's key prefix, reading
// the same manual clock as the API. Either in this process (`startTestWorker`, generator/worker.ts
// with its own blocking connection) or as its own process (`startWorkerProcess`, `node
// generator/main.ts` with the API's environment).
import { inject } from 'vitest';
import { loadConfig } from '../../runtime/config.ts';
import { createLogger } from '../../runtime/logger.ts';
import { startWorker } from '../../generator/worker.ts';
import { connectRedis, openStore, redisReady, type Store, type StoreRedis } from '../../store/index.ts';
import { spawnLogged, type Exit, type LoggedProcess } from './logged-process.ts';

export interface TestWorker {
  readonly workerId: string;
  /** The worker's own store (same prefix, manual clock). */
  readonly store: Store;
  /** Stops taking jobs, finishes the one in hand, closes both connections. */
  stop(): Promise<void>;
}

/**
 * generator/worker.ts in this process. `waitSeconds` is how long one BLMOVE waits (short, so
 * `stop` returns quickly); the worker's reaper runs on its own 5-second schedule as in production.
 * `cacheMaxBytes` is the map cache's cap, MAP_CACHE_MAX_BYTES's default unless given. `url` and
 * `clock`: another Redis than the shared test one (a suite's own), and its clock.
 */
export async function startTestWorker(
  prefix: string,
  {
    waitSeconds = 0.1,
    cacheMaxBytes = loadConfig({}).MAP_CACHE_MAX_BYTES,
    url = inject('redisUrl'),
    clock = 'manual' as 'manual' | 'system',
  } = {},
): Promise<TestWorker> {
  const store = openStore({ redisUrl: url, prefix, clock, name: 'test-generator' });
  const blocking: StoreRedis = connectRedis({ url, name: 'test-generator-queue', blocking: true });
  await Promise.all([redisReady(store.ctx.redis), redisReady(blocking)]);
  const worker = startWorker({
    store,
    blocking,
    logger: createLogger('silent', 'generator'),
    cacheMaxBytes,
    waitSeconds,
  });
  let stopped = false;
  return {
    workerId: worker.workerId,
    store,
    async stop() {
      if (stopped) return;
      stopped = true;
      await worker.stop();
      blocking.disconnect();
      await store.close();
    },
  };
}

export interface WorkerProcess extends LoggedProcess {
  /** Kills at once with `signal` (SIGKILL: a worker that dies holding whatever it holds). */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
}

/**
 * `node generator/main.ts` (started as logged-process.ts spawns every entry point), with the
 * environment an API of `prefix` runs with (no logs unless LOG_LEVEL says); `env` overrides it.
 * `stop` lets it finish the job in hand.
 */
export function startWorkerProcess(prefix: string, env: Record<string, string> = {}): WorkerProcess {
  const child = spawnLogged('generator/main.ts', {
    NODE_ENV: 'test',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: prefix,
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'silent',
    ...env,
  });
  return Object.assign(child, {
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      // A stopped (SIGSTOP) process still dies of SIGKILL.
      if (child.alive()) child.process.kill(signal);
      return child.exited;
    },
  });
}
