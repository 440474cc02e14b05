// Issue 18, point 1: no orphans, and a crash loop stops the service. A supervisor killed with
// SIGKILL leaves nothing running after 5 s (children, redis-server, its orphan guard), and the next
// `npm start` on the same DATA_DIR runs. Five exits of one child within 60 s end the service with
// exit code 1, saying why.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/clock.ts';
import { removeDataDir, startSupervisor, tempDataDir, waitAllGone } from '../../support/supervisor.ts';

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // comm may hold spaces and parentheses: the fields after its closing one are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The name of the program `pid` runs (its comm), or undefined once it is gone. */
function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const dataDir = tempDataDir();
afterAll(() => removeDataDir(dataDir));

describe('npm start killed with SIGKILL', () => {
  it('leaves no process and no listener after 5 s; the next start on its DATA_DIR runs', async () => {
    const first = await startSupervisor({}, { dataDir });
    const pids = childrenOf(first.process.pid!);
    // API, generator, redis-server and the orphan guard at least.
    expect(pids.length, JSON.stringify(pids)).toBeGreaterThanOrEqual(4);
    for (const name of ['api', 'generator', 'redis']) expect(pids).toContain(first.pidOf(name));
    first.process.kill('SIGKILL');
    const killedAt = performance.now();
    await first.exited;
    await waitAllGone(pids, [first.port, first.redisPort], 5_000);
    expect(performance.now() - killedAt).toBeLessThan(5_000);

    // Its lock is stale: the next start takes it over, on the same ports and data.
    const second = await startSupervisor({}, { dataDir, port: first.port, redisPort: first.redisPort });
    expect((await fetch(`http://127.0.0.1:${second.port}/`)).status).toBe(200);
    expect(await second.stop(20_000)).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe('npm start killed with SIGKILL while its Redis starts', () => {
  it('leaves no redis-server behind, even one that had not answered its first PING', async () => {
    const service = await startSupervisor({}, { waitRunning: false });
    try {
      // Killed the moment redis-server exists: the supervisor has not seen it answer yet.
      const redisPid = await pollUntil(
        async () => childrenOf(service.process.pid!).find((pid) => commandOf(pid) === 'redis-server'),
        (pid) => pid !== undefined,
        { timeoutMs: 30_000, everyMs: 5, what: 'redis-server spawned' },
      );
      service.process.kill('SIGKILL');
      await service.exited;
      await waitAllGone([redisPid!], [service.redisPort], 5_000);
    } finally {
      await service.stop(0);
      removeDataDir(service.dataDir);
    }
  }, 60_000);
});

describe('a crash loop', () => {
  it('5 exits of the generator within 60 s stop the service with exit code 1, saying why', async () => {
    const service = await startSupervisor({}, { dataDir });
    try {
      const apiPid = service.pidOf('api')!;
      let killed: number | undefined;
      for (let exits = 1; exits <= 5; exits++) {
        const pid = await pollUntil(
          async () => service.pidOf('generator'),
          (now) => now !== undefined && now !== killed,
          { timeoutMs: 20_000, what: `generator started again (${exits})` },
        );
        killed = pid!;
        process.kill(killed, 'SIGKILL');
        await pollUntil(
          async () => service.lines().filter((l) => l.child === 'generator' && l.level === 50).length,
          (n) => n >= exits,
          { timeoutMs: 10_000, what: `exit ${exits} logged` },
        );
        // Back-off doubles from 1 s: read from the line, not timed here.
        if (exits < 5) {
          expect(
            service
              .lines()
              .filter((l) => l.child === 'generator' && l.level === 50)
              .at(-1),
          ).toMatchObject({
            restarts: exits,
            backoffMs: 1000 * 2 ** (exits - 1),
          });
        }
      }
      expect(await service.exited).toEqual({ code: 1, signal: null });
      const lines = service.lines();
      expect(lines.find((l) => l.msg === 'stopping the service: generator is in a crash loop')).toMatchObject(
        {
          level: 50,
        },
      );
      expect(lines.at(-1)).toMatchObject({
        msg: 'stopped',
        exitCode: 1,
      });
      await waitAllGone([apiPid], [service.port, service.redisPort], 2_000);
    } finally {
      await service.stop(0);
    }
  }, 120_000);
});
