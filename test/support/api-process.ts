import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import { freePort, portOpen } from '../../scripts/redis-server.ts';
import { type ManualClock, type Store } from '../../store/index.ts';
import { testPrefix } from './api.ts';
import { entryArgs, START_BOUND_MS } from './node-args.ts';
import { REPO_ROOT } from './repo.ts';
import { openTestStore } from './test-store.ts';

// One API as its own process (`node api/main.ts`, node-args.ts entryArgs), as production runs it: for tests
// where several processes share one Redis. Listens on 127.0.0.1 only.

export interface ApiProcess {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** `${url}/api` (the default API_PREFIX) */
  readonly base: string;
  readonly port: number;
  readonly prefix: string;
  readonly process: ChildProcess;
  /** SIGTERM (graceful), SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
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
 * Starts an API process with the test environment (manual clock, silent logs, private probes
 * allowed, rate limits ×1000) on a free port; `env` overrides any of it (e.g. REDIS_PREFIX to share
 * one namespace between processes). Resolves once the port accepts connections.
 */
export async function startApiProcess(
  env: Record<string, string> = {},
  timeoutMs = START_BOUND_MS,
  /** A command the process runs under, e.g. ['faketime', '-f', '+30s'] for a clock 30 s ahead. */
  under: string[] = [],
): Promise<ApiProcess> {
  const port = await freePort();
  const fullEnv = apiProcessEnv(port, {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const [command, ...args] = [...under, process.execPath, ...entryArgs('api/main.ts')];
  const child = spawn(command!, args, {
    // Under a wrapper (which may fork), signals go to the whole group, so they reach node.
    detached: under.length > 0,
    cwd: REPO_ROOT,
    env: fullEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    if (under.length === 0) return child.kill(name);
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group has ended already
    }
  };
  const stop = async (graceMs = 5_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`api process exited at start (${child.exitCode ?? child.signalCode}): ${stderr}`);
    }
    if (await portOpen(port)) break;
    if (Date.now() > deadline) {
      await stop(0);
      throw new Error(`api process did not listen on ${port} within ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    base: `${url}${fullEnv.API_PREFIX ?? '/api'}`,
    port,
    prefix: fullEnv.REDIS_PREFIX!,
    process: child,
    stop,
  };
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
