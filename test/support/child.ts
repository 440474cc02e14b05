/** Runs a script of ours to its end as a real child process, with a chosen env. */
import { execFile } from 'node:child_process';
import { entryArgs } from './node-args.ts';
import { REPO_ROOT } from './repo.ts';

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `node <script> ...args` (started as node-args.ts entryArgs says) in the repo root (or another
 * checkout, `root`). The env is exactly `env` plus PATH and HOME (nothing of the test runner leaks
 * in). Killed after `timeoutMs`.
 */
export function runTs(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 15_000,
  root = REPO_ROOT,
): Promise<ChildResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      entryArgs(script, args, root),
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, signal: (err?.signal as NodeJS.Signals | undefined) ?? null, stdout, stderr });
      },
    );
  });
}

/** stdout as the CLI promises it: exactly one line holding one JSON object. */
export function oneJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter((l) => l !== '');
  if (lines.length !== 1) throw new Error(`expected one line of stdout, got ${lines.length}: ${stdout}`);
  const value: unknown = JSON.parse(lines[0]!);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`expected a JSON object, got ${lines[0]}`);
  }
  return value as Record<string, unknown>;
}
