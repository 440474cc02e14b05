// Issue 29.3: a signal to the whole process group stops `npm start` cleanly. Ctrl-C sends SIGINT
// to every process of the terminal's group, systemd's default KillMode=control-group SIGTERM to
// every process of the unit: the embedded Redis and the children get it at the same moment as the
// supervisor. That is a stop, not a failure: no error line, nothing restarted, every process says
// "stopped", all within the stop budget.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STOP_BUDGET_MS } from '../../runtime/process.ts';
import { pidAlive, removeDataDir, startSupervisor, waitAllGone } from '../support/supervisor.ts';

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
