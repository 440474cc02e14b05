import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, portOpen } from '../scripts/redis-server.ts';

export const ROOT = join(import.meta.dirname, '..');

export interface Proc {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs one of our entry points (or a baseline) as its own process; stdout is discarded. With
 * BENCH_CPU_PROF=<dir>, each writes a CPU profile there when it exits (node --cpu-prof).
 */
export function spawnEntry(
  entry: string,
  env: Record<string, string>,
): { child: ChildProcess; stop(): Promise<void> } {
  const dir = process.env.BENCH_CPU_PROF;
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Spawns an HTTP entry point on a free loopback port and waits until it listens. */
export async function startProcess(entry: string, env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const proc = spawnEntry(entry, { HOST: '127.0.0.1', PORT: String(port), ...env });
  // Generous: a process starts slowly on a machine busy with other work.
  const deadline = Date.now() + 60_000;
  while (!(await portOpen(port))) {
    if (proc.child.exitCode !== null) throw new Error(`${entry} exited at start`);
    if (Date.now() > deadline) throw new Error(`${entry} did not listen in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, pid: proc.child.pid!, stop: proc.stop };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
export const seconds = Number(process.env.BENCH_SECONDS ?? 8);
