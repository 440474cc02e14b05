// `npm start` (scripts/start.ts) as a real process with its own PORT, EMBEDDED_REDIS_PORT and
// DATA_DIR, for the supervisor suites. Its children's logs arrive on its stdout as well.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portOpen } from '../../scripts/redis-server.ts';
import { spawnLogged, type LoggedProcess } from './logged-process.ts';
import { pollUntil } from './clock.ts';

export interface Supervisor extends LoggedProcess {
  readonly port: number;
  readonly redisPort: number;
  readonly dataDir: string;
  /** `http://127.0.0.1:${port}/api` */
  readonly base: string;
  /** The log lines written so far (lines that are not JSON are left out). */
  lines(): Record<string, unknown>[];
  /** Waits for a log line whose msg matches `msg` (and whose fields match `fields`). */
  waitForLine(
    msg: RegExp,
    fields?: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** The pid `name` (api, generator, redis) was last started with, from the supervisor's log. */
  pidOf(name: string): number | undefined;
}

export interface SupervisorOptions {
  /** Reused across starts to test the lock and the data; a new temp dir by default. */
  dataDir?: string;
  port?: number;
  redisPort?: number;
  /** Resolves once "seedblock running" is logged (default), else at once. */
  waitRunning?: boolean;
  /** In a process group of its own (the supervisor's pid), for a signal to the whole group. */
  group?: boolean;
}

function parseLines(text: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null) lines.push(value as Record<string, unknown>);
    } catch {
      // not a log line
    }
  }
  return lines;
}

/** A temp DATA_DIR, removed at the end of the suite by the caller. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'seedblock-data-'));
}

export async function startSupervisor(
  env: Record<string, string> = {},
  { dataDir = tempDataDir(), port, redisPort, waitRunning = true, group = false }: SupervisorOptions = {},
): Promise<Supervisor> {
  const chosenPort = port ?? (await freePort());
  const chosenRedisPort = redisPort ?? (await freePort());
  const child = spawnLogged(
    'scripts/start.ts',
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(chosenPort),
      EMBEDDED_REDIS_PORT: String(chosenRedisPort),
      DATA_DIR: dataDir,
      ...env,
    },
    { group },
  );
  const lines = () => parseLines(child.stdout());
  const matches = (line: Record<string, unknown>, msg: RegExp, fields: Record<string, unknown>) =>
    typeof line.msg === 'string' &&
    msg.test(line.msg) &&
    Object.entries(fields).every(([k, v]) => line[k] === v);
  const supervisor: Supervisor = Object.assign(child, {
    port: chosenPort,
    redisPort: chosenRedisPort,
    dataDir,
    base: `http://127.0.0.1:${chosenPort}/api`,
    lines,
    async waitForLine(msg: RegExp, fields: Record<string, unknown> = {}, timeoutMs = 20_000) {
      const found = await pollUntil(
        async () => lines().find((line) => matches(line, msg, fields)) ?? (child.alive() ? undefined : null),
        (line) => line !== undefined,
        { timeoutMs, everyMs: 50, what: `log line ${msg} ${JSON.stringify(fields)}` },
      );
      if (!found) throw new Error(`exited before ${msg}: ${child.stdout()}\n${child.stderr()}`);
      return found;
    },
    pidOf(name: string) {
      const started = lines().filter(
        (l) => l.name === 'start' && l.child === name && typeof l.childPid === 'number',
      );
      return started.at(-1)?.childPid as number | undefined;
    },
  });
  if (waitRunning) {
    try {
      await supervisor.waitForLine(/^seedblock running/, {}, 60_000);
    } catch (err) {
      await child.stop(0);
      throw err;
    }
  }
  return supervisor;
}

/** True while a process with this pid exists. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` exists and nothing listens on `ports`, within `timeoutMs`. */
export async function waitAllGone(pids: number[], ports: number[], timeoutMs: number): Promise<void> {
  await pollUntil(
    async () => ({
      alive: pids.filter(pidAlive),
      listening: (await Promise.all(ports.map(async (p) => ((await portOpen(p, 500)) ? p : 0)))).filter(
        Boolean,
      ),
    }),
    (s) => s.alive.length === 0 && s.listening.length === 0,
    { timeoutMs, everyMs: 50, what: 'every process gone and every port closed' },
  );
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The operator CLI's env with no REDIS_URL: it finds the embedded Redis through DATA_DIR. */
export const dataDirEnv = (dataDir: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
});
