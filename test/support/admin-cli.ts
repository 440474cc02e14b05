// Runs the operator CLI (scripts/admin.ts, in this process) against a test API's Redis and key
// prefix, with the same manual clock.
import type { TestApi } from './api.ts';
import { runAdmin as runCli } from './child.ts';

export interface AdminResult<T = Record<string, unknown>> {
  exitCode: number;
  out: T;
  stderr: string;
}

export async function runAdmin<T = Record<string, unknown>>(
  api: TestApi,
  ...args: string[]
): Promise<AdminResult<T>> {
  const env = {
    NODE_ENV: 'test',
    REDIS_URL: api.config.REDIS_URL!,
    REDIS_PREFIX: api.config.REDIS_PREFIX,
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'silent',
  };
  const { code, stdout, stderr } = await runCli(args, env);
  try {
    return { exitCode: code ?? -1, out: JSON.parse(stdout) as T, stderr };
  } catch {
    throw new Error(`admin ${args.join(' ')}: exit ${code}, stdout ${stdout}, stderr ${stderr}`);
  }
}
