// 503 `db unavailable` on both claim paths, with a private redis-server that this suite stops
// (the shared one of the test run keeps serving every other suite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.ts';
import { startFakeA2sServer, type FakeA2sServer } from '../../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { pluginClaim, selfClaim } from '../../support/claims.ts';

let redis: PrivateRedis;
let api: TestApi;
let server: FakeA2sServer;

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'claim-redis' });
  api = await startTestApi({ REDIS_URL: redis.url, PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '300' });
  server = await startFakeA2sServer({ mode: 'direct' });
});
afterAll(async () => {
  await Promise.all([api.close(), server.close(), redis.stop()]);
});

describe('503 db unavailable', () => {
  it('both claim paths answer 503 quickly while Redis is down, and recover by themselves', async () => {
    const { code } = await api.store.issueClaimCode();
    await redis.kill();

    for (const attempt of [
      () => selfClaim(api, { port: server.port }),
      () => pluginClaim(api, { code, port: 7777 }),
    ]) {
      const started = Date.now();
      const res = await attempt();
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'db unavailable' });
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    }
    expect(server.requests).toBe(0); // refused before the probe

    await redis.restart();
    const deadline = Date.now() + 10_000;
    let res = await selfClaim(api, { port: server.port });
    while (res.status === 503 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      res = await selfClaim(api, { port: server.port });
    }
    expect(res.status).toBe(200);
    // The restarted Redis kept nothing (no persistence here): the code is unknown now.
    expect((await pluginClaim(api, { code, port: 7777 })).status).toBe(401);
  });
});
