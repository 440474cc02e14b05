// The operator CLI (scripts/admin.ts) as the tests run it: `runAdmin` in this process through its
// exported `run`, `spawnAdmin` as a process of its own for what only a process shows (its exit
// code, its logs; a start costs a CPU-second or two). Both with exactly the env given; `adminEnv`
// is the usual one. What a command printed is read through `ok()` and `failed(code)`.
import { expect, inject } from 'vitest';
import { run } from '../../scripts/admin.ts';
import { oneJsonLine, runTs, type ChildResult } from './child.ts';

export interface AdminRun extends ChildResult {
  /** The one JSON object the command printed, it having exited 0 (else the test fails, saying why). */
  ok<T = Record<string, unknown>>(): T;
  /** The `{error}` object the command printed, it having exited with `code`. */
  failed(code: number): { error: string } & Record<string, unknown>;
}

function read(result: ChildResult): AdminRun {
  return {
    ...result,
    ok<T>() {
      expect(result.code, result.stderr || result.stdout).toBe(0);
      return oneJsonLine(result.stdout) as T;
    },
    failed(code) {
      expect(result.code, result.stdout).toBe(code);
      const body = oneJsonLine(result.stdout);
      expect(typeof body.error, result.stdout).toBe('string');
      return body as { error: string } & Record<string, unknown>;
    },
  };
}

/** The CLI in this process with exactly `env`: its stdout and exit code (it writes no stderr here). */
export async function runAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  const { stdout, code } = await run(args, env);
  return read({ code, signal: null, stdout, stderr: '' });
}

/** `node scripts/admin.ts ...args` (given a minute: a loaded machine starts a process slowly). */
export async function spawnAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  return read(await runTs('scripts/admin.ts', args, env, 60_000));
}

/** The CLI's env for the suite's Redis under `prefix`, on the manual clock, logging nothing. */
export function adminEnv(prefix: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: prefix,
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'silent',
  };
}
