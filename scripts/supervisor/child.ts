import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Logger } from '../../runtime/logger.ts';
import type { SupervisorMessage } from '../../runtime/process.ts';
import { CRASH_LOOP_EXITS, CRASH_LOOP_WINDOW_MS, RestartPolicy } from './restart-policy.ts';

// One process of the service (API, generator, bot) under `npm start`: started with an IPC
// channel (whose close tells it the supervisor died), and started again with growing back-off
// when it dies. A crash loop of a required child stops the service; the optional bot only ever
// backs off further.

const ROOT = join(import.meta.dirname, '..', '..');

export interface ChildSpec {
  name: string;
  entry: string;
  /** Its crash loop does not stop the service. */
  optional: boolean;
}

export interface ChildEvents {
  started(pid: number): void;
  exited(pid: number): void;
  message(message: SupervisorMessage): void;
  crashLoop(): void;
}

export class SupervisedChild {
  private process: ChildProcess | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly policy = new RestartPolicy();
  private stopping = false;
  readonly spec: ChildSpec;
  private readonly env: NodeJS.ProcessEnv;
  private readonly logger: Logger;
  private readonly events: ChildEvents;

  constructor(spec: ChildSpec, env: NodeJS.ProcessEnv, logger: Logger, events: ChildEvents) {
    this.spec = spec;
    this.env = env;
    this.logger = logger;
    this.events = events;
  }

  start(): void {
    const startedAt = performance.now();
    // The supervisor's own node flags (tsx, and a test's loopback guard) apply to its children.
    const child = spawn(process.execPath, [...process.execArgv, join(ROOT, this.spec.entry)], {
      cwd: ROOT,
      env: this.env,
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    this.process = child;
    const pid = child.pid!;
    this.events.started(pid);
    this.logger.info({ child: this.spec.name, childPid: pid }, `${this.spec.name} started (pid ${pid})`);
    child.on('message', (message: SupervisorMessage) => this.events.message(message));
    child.once('exit', (code, signal) => {
      this.events.exited(pid);
      if (this.stopping) return;
      const backoffMs = this.policy.exited(performance.now(), startedAt);
      const { restarts } = this.policy;
      const fields = { child: this.spec.name, exitCode: code, signal, restarts, backoffMs };
      if (this.policy.crashLoop() && !this.spec.optional) {
        this.logger.error(
          fields,
          `${this.spec.name} exited (${signal ?? code}): ${CRASH_LOOP_EXITS} exits within ${CRASH_LOOP_WINDOW_MS / 1000} s, a crash loop`,
        );
        this.events.crashLoop();
        return;
      }
      this.logger.error(
        fields,
        `${this.spec.name} exited (${signal ?? code}); restart ${restarts} in ${backoffMs / 1000} s`,
      );
      this.restartTimer = setTimeout(() => this.start(), backoffMs);
    });
  }

  /** SIGTERM (no restart); resolves once it has exited. `killAfterMs` later it is killed. */
  async stop(killAfterMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await exited;
    clearTimeout(kill);
  }
}
