// The project's entry points as child processes whose whole stdout and stderr are kept (the
// structured logs), for the operator suites: logs, request ids, graceful shutdown. Unlike
// api-process.ts (silent, stdout ignored) nothing is dropped or truncated. Loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import { freePort, portOpen } from '../../scripts/redis-server.ts';
import { entryArgs, START_BOUND_MS } from './node-args.ts';
import { REPO_ROOT } from './repo.ts';
import { apiProcessEnv } from './api-process.ts';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LoggedProcess {
  readonly process: ChildProcess;
  /** Everything written on stdout so far. */
  stdout(): string;
  /** Everything written on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code or signal once the process has exited and its pipes closed. */
  readonly exited: Promise<Exit>;
  alive(): boolean;
  /** SIGTERM, SIGKILL after `graceMs`; resolves with how it exited. */
  stop(graceMs?: number): Promise<Exit>;
}

/**
 * `<script>` (a script, or a script and its arguments) started as entryArgs says (node-args.ts), in the repo
 * root (or another checkout, `root`) with exactly `env` (plus PATH and HOME). `group`: in a process
 * group of its own (its pid), to be signalled whole as Ctrl-C or systemd's control-group stop does.
 */
export function spawnLogged(
  script: string | readonly string[],
  env: Record<string, string>,
  root = REPO_ROOT,
  { group = false }: { group?: boolean } = {},
): LoggedProcess {
  const [entry, ...args] = [script].flat();
  const child = spawn(process.execPath, entryArgs(entry!, args, root), {
    cwd: root,
    detached: group,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  // 'close' (not 'exit'): by then both pipes are drained, so the last buffered log lines are in.
  const exited = new Promise<Exit>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    alive,
    async stop(graceMs = 5_000) {
      if (alive()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const exit = await exited;
        clearTimeout(timer);
        return exit;
      }
      return exited;
    },
  };
}

export interface LoggedApi extends LoggedProcess {
  readonly url: string;
  /** `${url}/api` */
  readonly base: string;
  readonly port: number;
  readonly prefix: string;
  readonly env: Record<string, string>;
}

/**
 * `api/main.ts` as a child process with logs at LOG_LEVEL=info on stdout (test environment as in
 * api-process.ts: manual clock, private probes allowed, limits ×1000); `env` overrides any of it;
 * `root` is the checkout it runs from.
 * Resolves once the port accepts connections.
 */
export async function startLoggedApi(
  env: Record<string, string> = {},
  timeoutMs = START_BOUND_MS,
  root = REPO_ROOT,
): Promise<LoggedApi> {
  const port = await freePort();
  const fullEnv = apiProcessEnv(port, { LOG_LEVEL: 'info', ...env });
  const child = spawnLogged('api/main.ts', fullEnv, root);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!child.alive()) {
      const exit = await child.exited;
      throw new Error(`api exited at start (${exit.code ?? exit.signal}): ${child.stderr()}`);
    }
    if (await portOpen(port)) break;
    if (Date.now() > deadline) {
      await child.stop(0);
      throw new Error(`api did not listen on ${port} within ${timeoutMs} ms: ${child.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${port}`;
  return Object.assign(child, { url, base: `${url}/api`, port, prefix: fullEnv.REDIS_PREFIX!, env: fullEnv });
}

/** `generator/main.ts` as a child process on `prefix`, logging at LOG_LEVEL=info on stdout. */
export function startLoggedWorker(prefix: string, env: Record<string, string> = {}): LoggedProcess {
  return spawnLogged('generator/main.ts', {
    NODE_ENV: 'test',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: prefix,
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'info',
    ...env,
  });
}

/** Non-empty lines of a log, each parsed as JSON (throws, naming the line, when one is not). */
export function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new Error('not an object');
        return value as Record<string, unknown>;
      } catch {
        throw new Error(`log line is not a JSON object: ${line}`);
      }
    });
}
