// The one way tests start an entry point of ours as a child process (api-process.ts and
// generator-worker.ts build on it): its whole stdout and stderr kept (the structured logs, for the
// operator suites: logs, request ids, graceful shutdown), nothing dropped or truncated. Loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { entryArgs } from './node-args.ts';
import { REPO_ROOT } from './repo.ts';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LoggedProcess {
  readonly process: ChildProcess;
  /** Everything written on stdout so far. */
  stdout(): string;
  /** Everything written on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code or signal once the process has exited and its pipes closed. */
  readonly exited: Promise<Exit>;
  alive(): boolean;
  /** SIGTERM, SIGKILL after `graceMs`; resolves with how it exited. */
  stop(graceMs?: number): Promise<Exit>;
}

export interface SpawnOptions {
  /** The checkout it runs from (this one unless given). */
  root?: string;
  /**
   * In a process group of its own (its pid), to be signalled whole as Ctrl-C or systemd's
   * control-group stop does.
   */
  group?: boolean;
  /**
   * A command it runs under, e.g. ['faketime', '-f', '+30s'] for a clock 30 s ahead: then in a
   * group of its own, which `stop` signals whole (a wrapper may fork).
   */
  under?: readonly string[];
}

/**
 * `<script>` (a script, or a script and its arguments) started as entryArgs says (node-args.ts), in
 * the checkout with exactly `env` (plus PATH and HOME).
 */
export function spawnLogged(
  script: string | readonly string[],
  env: Record<string, string>,
  { root = REPO_ROOT, group = false, under = [] }: SpawnOptions = {},
): LoggedProcess {
  const [entry, ...args] = [script].flat();
  const [command, ...commandArgs] = [...under, process.execPath, ...entryArgs(entry!, args, root)];
  const child = spawn(command!, commandArgs, {
    cwd: root,
    detached: group || under.length > 0,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  // 'close' (not 'exit'): by then both pipes are drained, so the last buffered log lines are in.
  const exited = new Promise<Exit>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = (name: NodeJS.Signals) => {
    if (under.length === 0) return child.kill(name);
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group has ended already
    }
  };
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    alive,
    async stop(graceMs = 5_000) {
      if (alive()) {
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), graceMs);
        const exit = await exited;
        clearTimeout(timer);
        return exit;
      }
      return exited;
    },
  };
}

/** Non-empty lines of a log, each parsed as JSON (throws, naming the line, when one is not). */
export function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new Error('not an object');
        return value as Record<string, unknown>;
      } catch {
        throw new Error(`log line is not a JSON object: ${line}`);
      }
    });
}
