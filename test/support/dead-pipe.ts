// A pipe whose reader exits, for processes whose stdout and stderr go into it, and a look at
// which processes of a process group are still running (Linux /proc).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';

export interface DeadPipe {
  /** The pipe's write end, to give to spawn() as stdout and stderr. */
  readonly writeEnd: Writable;
  /** Closes this process's copy of the write end (once every writer is spawned). */
  release(): void;
  /** Ends the reader (SIGKILL): from then on a write into the pipe fails with EPIPE. */
  kill(): Promise<void>;
  /** What the reader read before it exited. */
  read(): string;
}

/** `cat` reading the pipe into `file`, until kill(). */
export function deadPipe(file: string): DeadPipe {
  const out = openSync(file, 'w');
  const reader = spawn('cat', [], { stdio: ['pipe', out, 'ignore'] });
  closeSync(out);
  const exited = new Promise<void>((resolve) => reader.once('exit', () => resolve()));
  return {
    writeEnd: reader.stdin!,
    release: () => reader.stdin!.destroy(),
    async kill() {
      reader.kill('SIGKILL');
      await exited;
    },
    read: () => readFileSync(file, 'utf8'),
  };
}

export interface GroupMember {
  pid: number;
  args: string;
}

/** Processes of process group `pgid` that are still running (zombies have exited: left out). */
export function runningInGroup(pgid: number): GroupMember[] {
  const found: GroupMember[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid || state === 'Z') continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), args });
    } catch {
      // exited while we looked
    }
  }
  return found;
}
