// Issue 18, point 4: the README's "Backup and restore", command for command. A backup taken with
// redis-cli while `npm start` runs, copied into a fresh DATA_DIR, starts a service that has the
// HTTP key, the open window, the seed's budget, the blocklist and the seed index of the first.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../support/admin-cli.ts';
import { get } from '../../support/http.ts';
import { pollUntil } from '../../support/clock.ts';
import { sendReport } from '../../support/requests.ts';
import {
  dataDirEnv,
  removeDataDir,
  startSupervisor,
  tempDataDir,
  type Supervisor,
} from '../../support/supervisor.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDataDir));

function redisCli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
}

async function seedBudget(port: number, seed: number): Promise<Record<string, string>> {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  try {
    return await redis.hgetall(`sb:seed:${seed}`);
  } finally {
    redis.disconnect();
  }
}

describe('backup and restore', () => {
  it('a backup taken while running restores into a fresh DATA_DIR with everything intact', async () => {
    const first = await startSupervisor();
    dirs.push(first.dataDir);
    const key = (
      await runAdmin(['httpkey', 'issue', '--owner', 'backup-test'], dataDirEnv(first.dataDir))
    ).ok();
    /** A round start on seed 555 with the key, on the HTTP path. */
    const roundStart = (service: Supervisor) =>
      sendReport(
        service,
        key.credential as string,
        { event: 'round_start', seed: 555, port: 7777 },
        {
          path: '/v1/servers/report',
        },
      );
    const opened = await roundStart(first);
    expect(opened.status).toBe(200);
    const { blockedUntil } = opened.body as { blockedUntil: string };
    expect(blockedUntil).toEqual(expect.any(String));
    expect((await runAdmin(['blocklist', 'add', '999'], dataDirEnv(first.dataDir))).ok()).toEqual({
      seed: 999,
      added: true,
    });
    await pollUntil(
      () => get(`${first.base}/maps/101`),
      (r) => r.status === 200,
      { timeoutMs: 30_000, everyMs: 200, what: 'map 101 generated' },
    );
    const index = (await get(`${first.base}/seeds`)).body;
    expect(index).toMatchObject({ items: [{ seed: 101 }], total: 1 });
    const budget = await seedBudget(first.redisPort, 555);
    expect(Object.keys(budget)).not.toHaveLength(0);

    // The README's commands, while the service runs.
    const backup = join(tempDataDir(), 'backup-appendonlydir');
    dirs.push(join(backup, '..'));
    redisCli(first.redisPort, 'CONFIG', 'SET', 'auto-aof-rewrite-percentage', '0');
    redisCli(first.redisPort, 'BGREWRITEAOF');
    await pollUntil(
      async () => redisCli(first.redisPort, 'INFO', 'persistence'),
      (info) => !/^aof_rewrite_(scheduled|in_progress):1/m.test(info),
      { timeoutMs: 10_000, what: 'AOF rewrite done' },
    );
    cpSync(join(first.dataDir, 'redis', 'appendonlydir'), backup, {
      recursive: true,
      preserveTimestamps: true,
    });
    redisCli(first.redisPort, 'CONFIG', 'SET', 'auto-aof-rewrite-percentage', '100');
    expect(await first.stop(20_000)).toEqual({ code: 0, signal: null });

    const fresh = tempDataDir();
    dirs.push(fresh);
    mkdirSync(join(fresh, 'redis'));
    cpSync(backup, join(fresh, 'redis', 'appendonlydir'), { recursive: true, preserveTimestamps: true });
    const restored = await startSupervisor({}, { dataDir: fresh });
    try {
      // The window still open, to the same end; the blocklist; the seed index.
      expect((await get(`${restored.base}/maps/555`)).body).toEqual({ error: 'blocked', blockedUntil });
      expect((await get(`${restored.base}/maps/999`)).body).toEqual({ error: 'blocked' });
      expect((await get(`${restored.base}/seeds`)).body).toEqual(index);
      expect(await seedBudget(restored.redisPort, 555)).toEqual(budget);
      // The key still authenticates; the CLI sees its registration.
      const again = await roundStart(restored);
      expect(again.status).toBe(200);
      expect((again.body as { blockedUntil: string }).blockedUntil).toBe(blockedUntil);
      const { servers } = (await runAdmin(['servers', 'list'], dataDirEnv(fresh))).ok<{
        servers: { serverId: string }[];
      }>();
      expect(servers.map((s) => s.serverId)).toContain(key.serverId);
    } finally {
      await restored.stop(20_000);
    }
  }, 180_000);
});
