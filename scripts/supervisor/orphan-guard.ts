// Started by `npm start` with an IPC channel. The supervisor tells it the pid of every process it
// starts and of every one that exits. When the channel closes while some still run, the
// supervisor was killed (SIGKILL cannot be passed on): this ends them, SIGTERM then SIGKILL after
// KILL_AFTER_MS, and exits. The children watch the channel themselves as well; redis-server cannot.

import type { GuardMessage, GuardReady } from './guard-message.ts';

const KILL_AFTER_MS = 3_000;
const pids = new Set<number>();

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    pids.delete(pid); // already gone
  }
}

process.on('message', (message: GuardMessage) => {
  if ('watch' in message) pids.add(message.watch);
  else pids.delete(message.forget);
});
process.once('disconnect', () => {
  if (pids.size === 0) process.exit(0);
  for (const pid of pids) signal(pid, 'SIGTERM');
  setTimeout(() => {
    for (const pid of pids) signal(pid, 'SIGKILL');
    process.exit(0);
  }, KILL_AFTER_MS);
});
// Ctrl-C and a SIGTERM to the process group reach this one too: it ends only with the supervisor
// (when its channel closes), so it is still there should the supervisor die while stopping.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.send?.({ ready: true } satisfies GuardReady);
