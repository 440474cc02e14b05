// Started by `npm start` with an IPC channel. The supervisor tells it the pid of every process it
// starts and of every one that exits. When the channel closes while some still run, the
// supervisor was killed (SIGKILL cannot be passed on): this ends them, SIGTERM then SIGKILL after
// KILL_AFTER_MS, and exits once they are gone. The children watch the channel themselves as well;
// redis-server cannot, so it is also found by its port (a supervisor may die between spawning it
// and naming its pid).

import { readdirSync, readFileSync } from 'node:fs';
import type { GuardMessage, GuardReady } from './guard-message.ts';

const KILL_AFTER_MS = 3_000;
const CHECK_EVERY_MS = 50;
const pids = new Set<number>();
const programs: { name: string; port: number }[] = [];

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    pids.delete(pid); // already gone
  }
}

/** A process counts as gone once it has exited, reaped or not (a zombie holds nothing). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true; // no /proc here: signal 0 says it exists
    } catch {
      return false;
    }
  }
}

/**
 * The processes running a watched program for its port, by their command line: redis-server's
 * `--port N` at first, `redis-server 127.0.0.1:N` once it has named itself. Linux's /proc only.
 */
function programPids(): number[] {
  if (programs.length === 0) return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let line: string;
    try {
      line = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue;
    }
    const [program = ''] = line.split(' ', 1);
    for (const { name, port } of programs) {
      if (program.split('/').at(-1) !== name) continue;
      if (line.includes(`--port ${port} `) || line.endsWith(`:${port}`)) found.push(Number(entry));
    }
  }
  return found;
}

process.on('message', (message: GuardMessage) => {
  if ('watch' in message) pids.add(message.watch);
  else if ('forget' in message) pids.delete(message.forget);
  else programs.push(message.watchProgram);
});
process.once('disconnect', () => {
  const deadline = Date.now() + KILL_AFTER_MS;
  const told = new Set<number>();
  const check = () => {
    // A watched program found only now (it was being started at the kill) is ended as well.
    for (const pid of programPids()) pids.add(pid);
    for (const pid of pids) if (!alive(pid)) pids.delete(pid);
    if (pids.size === 0) process.exit(0);
    const late = Date.now() >= deadline;
    for (const pid of pids) {
      if (late) signal(pid, 'SIGKILL');
      else if (!told.has(pid)) {
        told.add(pid);
        signal(pid, 'SIGTERM');
      }
    }
    if (late) process.exit(0);
    setTimeout(check, CHECK_EVERY_MS);
  };
  check();
});
// Ctrl-C and a SIGTERM to the process group reach this one too: it ends only with the supervisor
// (when its channel closes), so it is still there should the supervisor die while stopping.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.send?.({ ready: true } satisfies GuardReady);
