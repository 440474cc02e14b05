// Issue 29.3: a signal to the whole process group stops `npm start` cleanly. Ctrl-C sends SIGINT
// to every process of the terminal's group, systemd's default KillMode=control-group SIGTERM to
// every process of the unit: the embedded Redis and the children get it at the same moment as the
// supervisor. That is a stop, not a failure: no error line, nothing restarted, every process says
// "stopped", all within the stop budget. And issue 29.5 for `npm start` whole: at a terminal (under
// `script`) its lines and its children's are readable lines, not JSON (piped, above, JSON).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STOP_BUDGET_MS } from '../../../runtime/process.ts';
import { freePort } from '../../../scripts/redis-server.ts';
import { REPO_ROOT } from '../../support/repo.ts';
import { entryArgs } from '../../support/node-args.ts';
import { pollUntil } from '../../support/clock.ts';
import {
  pidAlive,
  removeDataDir,
  startSupervisor,
  tempDataDir,
  waitAllGone,
} from '../../support/supervisor.ts';

describe('npm start stopped by a signal to its whole process group', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: exit 0, no error or restart line, each process stopped, all gone within the budget',
    async (signal) => {
      const service = await startSupervisor({}, { group: true });
      try {
        const pids = ['api', 'generator', 'redis'].map((name) => service.pidOf(name)!);
        const group = service.process.pid!;
        process.kill(-group, signal);
        const signalledAt = Date.now();
        const exit = await Promise.race([
          service.exited,
          new Promise((resolve) => setTimeout(() => resolve('still running'), STOP_BUDGET_MS + 1_000)),
        ]);
        expect(exit, service.stdout()).toEqual({ code: 0, signal: null });
        expect(Date.now() - signalledAt).toBeLessThanOrEqual(STOP_BUDGET_MS + 1_000);
        await waitAllGone(pids, [service.port, service.redisPort], 2_000);

        const lines = service.lines();
        expect(
          lines.filter((l) => Number(l.level) >= 50 || /restart|lost/i.test(String(l.msg))),
          service.stdout(),
        ).toEqual([]);
        expect(service.stderr()).toBe('');
        for (const name of ['api', 'generator']) {
          expect(
            lines.filter((l) => l.name === name && l.msg === 'stopped'),
            name,
          ).toHaveLength(1);
        }
        expect(lines.at(-1)).toMatchObject({ name: 'start', msg: 'stopped', exitCode: 0 });
        expect(existsSync(join(service.dataDir, 'start.lock'))).toBe(false);
        expect(pids.filter(pidAlive)).toEqual([]);
      } finally {
        await service.stop(0);
        removeDataDir(service.dataDir);
      }
    },
    120_000,
  );
});

describe('npm start at a terminal', () => {
  it('writes readable lines, no JSON line, its children too; Ctrl-C stops it cleanly', async () => {
    const [port, redisPort] = [await freePort(), await freePort()];
    const dataDir = tempDataDir();
    const command = [process.execPath, ...entryArgs('scripts/start.ts')]
      .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // `script` runs it in a pseudo-terminal, as the leader of that terminal's process group.
    const terminal = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        NO_COLOR: '1',
        LOG_LEVEL: 'info',
        PORT: String(port),
        EMBEDDED_REDIS_PORT: String(redisPort),
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    terminal.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    terminal.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = new Promise((resolve) => terminal.once('close', resolve));
    try {
      await pollUntil(
        async () => out,
        (text) => text.includes('seedblock running') || terminal.exitCode !== null,
        { what: 'npm start running', timeoutMs: 60_000, everyMs: 100 },
      );
      // Ctrl-C: SIGINT to the terminal's foreground group, led by the process script started.
      const leader = Number(
        readFileSync(`/proc/${terminal.pid}/task/${terminal.pid}/children`, 'utf8').trim().split(' ')[0],
      );
      process.kill(-leader, 'SIGINT');
      // (script's own exit code is its shell's, not the supervisor's: read from the last line.)
      await exited;
      const lines = out.split(/\r?\n/).filter((line) => line.trim() !== '');
      expect(
        lines.filter((line) => /^\s*\{/.test(line)),
        out,
      ).toEqual([]);
      const event = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR) \((start|api|generator)\): /;
      for (const name of ['start', 'api', 'generator']) {
        expect(
          lines.some((line) => line.includes(`(${name}): stopped`)),
          `${name} stopped\n${out}`,
        ).toBe(true);
      }
      expect(
        lines.filter((line) => !event.test(line)),
        out,
      ).toEqual([]);
      expect(
        lines.filter((line) => /^\S+ (WARN|ERROR) /.test(line)),
        out,
      ).toEqual([]);
      expect(lines.at(-1)).toMatch(/ INFO \(start\): stopped \{"exitCode":0\}$/);
    } finally {
      terminal.kill('SIGKILL');
      removeDataDir(dataDir);
    }
  }, 120_000);
});
