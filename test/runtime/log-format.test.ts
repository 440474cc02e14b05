// Issue 29.5: logs for people and for machines. At a terminal each event is one readable line
// (time, level, process, message, its fields); piped, JSON lines. A warn or error line is written
// at once, not at the next periodic write. The processes here log through runtime/logger.ts as
// every entry point does; `script` gives one a terminal (a pseudo-terminal).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo.ts';
import { TS_NODE_ARGS } from '../support/node-args.ts';
import { pollUntil } from '../support/clock.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seedblock-log-format-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A process that logs an info line, then a warn line, then blocks its event loop (so no timer,
 * the periodic write included, can run) until `release` exists; then an error with an Error and
 * a request-like line, and exits once they are written.
 */
function loggingCode(release: string): string {
  return [
    "import { existsSync } from 'node:fs';",
    "import { createLogger, drainLogs } from './runtime/logger.ts';",
    "const logger = createLogger('info', 'probe');",
    "logger.info({ port: 8080 }, 'quiet line');",
    "logger.warn({ reason: 'testing' }, 'loud line');",
    'const pause = new Int32Array(new SharedArrayBuffer(4));',
    `while (!existsSync(${JSON.stringify(release)})) Atomics.wait(pause, 0, 0, 10);`,
    "logger.error({ err: new Error('boom'), path: '/x' }, 'request failed');",
    "logger.info({ method: 'GET', path: '/api/maps/1', status: 200, ms: 1.5 }, 'request');",
    // As every entry point exits (runtime/process.ts): once its last lines are out.
    'await drainLogs(1000);',
    'process.exit(0);',
  ].join('\n');
}

function run(command: string, args: string[]) {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', TERM: 'dumb' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { output: () => out, exited, child };
}

/** Runs the logging process (piped, or at a terminal); resolves with its lines. */
async function logged(atTerminal: boolean, name: string): Promise<string[]> {
  const release = join(dir, name);
  const node = [process.execPath, ...TS_NODE_ARGS, '--input-type=module', '-e', loggingCode(release)];
  const quoted = node.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const proc = atTerminal ? run('script', ['-qec', quoted, '/dev/null']) : run(node[0]!, node.slice(1));
  try {
    // The warn line arrives while the event loop is blocked: it was written at once.
    await pollUntil(
      async () => proc.output(),
      (text) => text.includes('loud line'),
      { what: 'the warn line, while the process is blocked', timeoutMs: 30_000, everyMs: 20 },
    );
    const before = proc.output();
    writeFileSync(release, '');
    expect(await proc.exited, proc.output()).toBe(0);
    // The info line before it went out with it (in order), nothing after it yet.
    expect(before.indexOf('quiet line')).toBeGreaterThanOrEqual(0);
    expect(before.indexOf('quiet line')).toBeLessThan(before.indexOf('loud line'));
    expect(before).not.toContain('request failed');
    return proc
      .output()
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '');
  } finally {
    proc.child.kill('SIGKILL');
  }
}

const isJson = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

describe('log lines', () => {
  it('piped: one JSON object per event, warn written at once', async () => {
    const lines = await logged(false, 'piped');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(isJson(line), line).toBe(true);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 40, name: 'probe', msg: 'loud line' });
    expect(JSON.parse(lines[2]!).err).toMatchObject({ type: 'Error', message: 'boom' });
  });

  it('at a terminal: one readable line per event (time, level, process, message, fields), no JSON line', async () => {
    const lines = await logged(true, 'terminal');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(isJson(line), line).toBe(false);
    const time = String.raw`\[\d\d:\d\d:\d\d\.\d{3}\]`;
    expect(lines[0]).toMatch(new RegExp(`^${time} INFO \\(probe\\): quiet line \\{"port":8080\\}$`));
    expect(lines[1]).toMatch(new RegExp(`^${time} WARN \\(probe\\): loud line \\{"reason":"testing"\\}$`));
    // An error: its type and message on the same line, no stack.
    expect(lines[2]).toMatch(
      new RegExp(`^${time} ERROR \\(probe\\): request failed \\{"err":"Error: boom","path":"/x"\\}$`),
    );
    expect(lines[3]).toMatch(
      new RegExp(`^${time} INFO \\(probe\\): request .*"path":"/api/maps/1","status":200,"ms":1.5`),
    );
  });
});
