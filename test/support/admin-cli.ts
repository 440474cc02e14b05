// Runs the operator CLI (scripts/admin.ts) as its own process against a test API's Redis and
// key prefix, with the same manual clock.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { TestApi } from './api.ts';
import { TS_NODE_ARGS } from './node-args.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

export interface AdminResult<T = Record<string, unknown>> {
  exitCode: number;
  out: T;
  stderr: string;
}

export function runAdmin<T = Record<string, unknown>>(
  api: TestApi,
  ...args: string[]
): Promise<AdminResult<T>> {
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    REDIS_URL: api.config.REDIS_URL,
    REDIS_PREFIX: api.config.REDIS_PREFIX,
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'silent',
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...TS_NODE_ARGS, 'scripts/admin.ts', ...args],
      { cwd: REPO_ROOT, env, timeout: 20_000 },
      (err, stdout, stderr) => {
        const exitCode = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        try {
          resolve({ exitCode, out: JSON.parse(stdout) as T, stderr });
        } catch {
          reject(new Error(`admin ${args.join(' ')}: exit ${exitCode}, stdout ${stdout}, stderr ${stderr}`));
        }
      },
    );
  });
}
