// Issue 18, point 9: under `npm start`, a Discord that refuses connections (DISCORD_API_URL on a
// loopback port where nothing listens) costs only the optional bot. It is restarted with growing
// back-off, error lines naming it, while the API keeps answering reports and maps and stays ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/redis-server.ts';
import { APPLICATION_ID, BOT_TOKEN } from '../../bot/support/snowflakes.ts';
import { runAdmin } from '../../support/admin-cli.ts';
import { get } from '../../support/http.ts';
import { pollUntil } from '../../support/clock.ts';
import { type JobBody } from '../../support/read-api.ts';
import { sendReport } from '../../support/requests.ts';
import { dataDirEnv, removeDataDir, startSupervisor, type Supervisor } from '../../support/supervisor.ts';

let service: Supervisor;

beforeAll(async () => {
  // Free a moment ago and never listened on again: every connection is refused.
  const refused = await freePort();
  service = await startSupervisor({
    DISCORD_TOKEN: BOT_TOKEN,
    DISCORD_APPLICATION_ID: APPLICATION_ID,
    DISCORD_API_URL: `http://127.0.0.1:${refused}/api`,
  });
}, 90_000);
afterAll(async () => {
  await service?.stop(20_000);
  removeDataDir(service.dataDir);
});

describe('npm start with Discord unreachable', () => {
  it('retries the bot with growing back-off and never stops the service', async () => {
    await service.waitForLine(/^bot exited \(1\); restart 3 in/, { child: 'bot' }, 90_000);
    const exits = service.lines().filter((l) => l.child === 'bot' && typeof l.backoffMs === 'number');
    expect(exits.slice(0, 3)).toMatchObject([
      { level: 50, exitCode: 1, restarts: 1, backoffMs: 1_000 },
      { level: 50, exitCode: 1, restarts: 2, backoffMs: 2_000 },
      { level: 50, exitCode: 1, restarts: 3, backoffMs: 4_000 },
    ]);
    // Each time for the reason under test: the bot's own words on its way out.
    expect(service.stderr()).toMatch(/ECONNREFUSED/);
    expect(service.lines().some((l) => /crash loop|stopping the service/.test(String(l.msg)))).toBe(false);
    expect(service.alive()).toBe(true);
  }, 120_000);

  it('keeps the API serving meanwhile: ready, a report answered, a fresh map made', async () => {
    const ready = await get(`http://127.0.0.1:${service.port}/readyz`);
    expect(ready.status).toBe(200);

    const key = (
      await runAdmin(['httpkey', 'issue', '--owner', 'bot-unreachable'], dataDirEnv(service.dataDir))
    ).ok();
    const report = await sendReport(
      service,
      key.credential as string,
      { event: 'round_start', seed: 777, port: 7777 },
      { path: '/v1/servers/report' },
    );
    expect(report.status).toBe(200);
    expect((await get(`${service.base}/maps/777`)).body).toMatchObject({ error: 'blocked' });

    await get(`${service.base}/maps/202`);
    await pollUntil(
      () => get<JobBody>(`${service.base}/jobs/202`),
      (r) => r.status === 200 && r.body.status === 'ready',
      { timeoutMs: 30_000, everyMs: 100, what: 'map 202 generated' },
    );
    expect((await get(`${service.base}/maps/202`)).status).toBe(200);
    // The bot is still being retried: its restarts go on, the service with them.
    expect(service.alive()).toBe(true);
  }, 60_000);
});
