// Issue 18, point 1: `npm start` heals. A dead embedded Redis is started again on the same port
// and data within 5 s; a dead API or generator alone is restarted with back-off; the others keep
// serving throughout. One real `npm start` (scripts/start.ts) for the whole file.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { get } from '../../support/http.ts';
import { pollUntil } from '../../support/clock.ts';
import { type JobBody } from '../../support/read-api.ts';
import {
  pidAlive,
  removeDataDir,
  startSupervisor,
  waitAllGone,
  type Supervisor,
} from '../../support/supervisor.ts';

let service: Supervisor;

beforeAll(async () => {
  service = await startSupervisor();
}, 90_000);
afterAll(async () => {
  await service?.stop(20_000);
  removeDataDir(service.dataDir);
});

/** Queues `seed` and waits until the generator made it: the API and the generator both reach Redis. */
async function generated(seed: number, timeoutMs = 30_000): Promise<void> {
  await pollUntil(
    // Refused while a restarted API is not listening yet.
    () => get<JobBody>(`${service.base}/jobs/${seed}`).catch(() => ({ status: 0, body: undefined })),
    (r) => r.status === 200 && r.body?.status === 'ready',
    { timeoutMs, everyMs: 100, what: `job ${seed} ready` },
  );
}

describe('npm start', () => {
  it('says "seedblock running" only once the API answers, and serves on IPv6 and IPv4', async () => {
    // The line was read before this test: the API already answered when it was written.
    expect((await fetch(`http://127.0.0.1:${service.port}/`)).status).toBe(200);
    expect((await fetch(`http://[::1]:${service.port}/`)).status).toBe(200);
    await generated(101);
  });

  it('kill -9 of the embedded Redis: back on the same port and data within 5 s, API and generator not restarted', async () => {
    const redisUrl = `redis://127.0.0.1:${service.redisPort}`;
    const apiPid = service.pidOf('api')!;
    const generatorPid = service.pidOf('generator')!;
    const redisPid = service.pidOf('redis')!;
    process.kill(redisPid, 'SIGKILL');
    const killedAt = performance.now();
    await pollUntil(
      async () => {
        const probe = new Redis(redisUrl, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        probe.on('error', () => {});
        try {
          await probe.connect();
          return await probe.ping();
        } catch {
          return 'down';
        } finally {
          probe.disconnect();
        }
      },
      (pong) => pong === 'PONG',
      { timeoutMs: 5_000, everyMs: 50, what: 'embedded Redis answering again' },
    );
    expect(performance.now() - killedAt).toBeLessThan(5_000);
    const line = await service.waitForLine(/^embedded redis-server exited \(SIGKILL\); restarting it/);
    expect(line).toMatchObject({ level: 50, child: 'redis', signal: 'SIGKILL', restarts: 1 });
    // Its "started" line follows the supervisor's own PING, which may come after ours.
    await pollUntil(
      async () => service.pidOf('redis'),
      (now) => now !== redisPid,
      { timeoutMs: 5_000, what: 'the new redis-server logged as started' },
    );

    // The same data: the job made before is still there. API and generator reconnected by
    // themselves: a new job is queued and made, by the same processes.
    await generated(101, 10_000);
    await generated(102);
    expect([service.pidOf('api'), service.pidOf('generator')]).toEqual([apiPid, generatorPid]);
    expect(pidAlive(apiPid) && pidAlive(generatorPid)).toBe(true);
  });

  it.each(['generator', 'api'])(
    'kill -9 of the %s: that child alone is restarted, with an error line naming it',
    async (name) => {
      const other = name === 'api' ? 'generator' : 'api';
      const pid = service.pidOf(name)!;
      const otherPid = service.pidOf(other)!;
      const redisPid = service.pidOf('redis')!;
      process.kill(pid, 'SIGKILL');
      const line = await service.waitForLine(new RegExp(`^${name} exited \\(SIGKILL\\); restart \\d+ in`), {
        child: name,
      });
      expect(line).toMatchObject({
        level: 50,
        signal: 'SIGKILL',
        exitCode: null,
        restarts: 1,
        backoffMs: 1000,
      });
      await pollUntil(
        async () => service.pidOf(name),
        (now) => now !== undefined && now !== pid,
        { timeoutMs: 10_000, what: `${name} started again` },
      );
      await generated(name === 'api' ? 103 : 104);
      expect([service.pidOf(other), service.pidOf('redis')]).toEqual([otherPid, redisPid]);
      expect(pidAlive(otherPid)).toBe(true);
    },
  );

  it('SIGTERM: every child and Redis stop, exit 0, a last line, the lock released', async () => {
    const pids = ['api', 'generator', 'redis'].map((name) => service.pidOf(name)!);
    service.process.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    await waitAllGone(pids, [service.port, service.redisPort], 2_000);
    expect(service.lines().at(-1)).toMatchObject({
      name: 'start',
      msg: 'stopped',
      exitCode: 0,
    });
    expect(existsSync(join(service.dataDir, 'start.lock'))).toBe(false);
  });
});
