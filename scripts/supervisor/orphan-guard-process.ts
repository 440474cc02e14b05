import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Logger } from '../../runtime/logger.ts';
import type { GuardMessage } from './guard-message.ts';

// The supervisor's side of orphan-guard.ts: keeps it told of every pid, and starts it again
// (told of them all) should it die. A guard is told nothing before it says it listens.

export class OrphanGuard {
  private readonly pids = new Set<number>();
  private readonly programs: { name: string; port: number }[] = [];
  private process: ChildProcess | undefined;
  private listening = false;
  private closed = false;
  private markReady = () => {};
  /** Resolves once the first guard listens: start nothing before, or a kill could orphan it. */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
    this.spawn();
  }

  private spawn(): void {
    const guard = spawn(
      process.execPath,
      [...process.execArgv, join(import.meta.dirname, 'orphan-guard.ts')],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    guard.on('error', () => {}); // a send racing its death; the exit below handles it
    this.process = guard;
    this.listening = false;
    guard.once('message', () => {
      this.listening = true;
      for (const pid of this.pids) this.send({ watch: pid });
      for (const program of this.programs) this.send({ watchProgram: program });
      this.markReady();
    });
    guard.once('exit', (code, signal) => {
      if (this.closed) return;
      this.logger.error(
        { exitCode: code, signal },
        `orphan guard exited (${signal ?? code}); starting it again`,
      );
      this.spawn();
    });
  }

  private send(message: GuardMessage): void {
    if (this.listening && this.process?.connected) this.process.send(message);
  }

  watch(pid: number): void {
    this.pids.add(pid);
    this.send({ watch: pid });
  }

  /** Before starting `name` for `port`: should the supervisor die before naming its pid, it is found by its port. */
  watchProgram(name: string, port: number): void {
    this.programs.push({ name, port });
    this.send({ watchProgram: { name, port } });
  }

  forget(pid: number): void {
    this.pids.delete(pid);
    this.send({ forget: pid });
  }

  /** Once everything it watched has exited: closing the channel ends it, with nothing to kill. */
  close(): void {
    this.closed = true;
    if (this.process?.connected) this.process.disconnect();
  }
}
