import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { bearer, send, get } from '../support/http.ts';
import { pollUntil } from '../support/clock.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';

// A Redis that stops answering without closing its connections (hung, SIGSTOP): calls that wait on
// it fail with 503 `db unavailable` instead of hanging, and service comes back by itself once it
// answers again, with no restart.

let redis: PrivateRedis;
let api: TestApi;
beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'hung' });
  api = await startTestApi({ REDIS_URL: redis.url });
});
afterAll(async () => {
  redis?.server.process.kill('SIGCONT');
  await api?.close();
  await redis?.stop();
});

describe('a hung Redis', () => {
  it('answers 503 db unavailable while Redis is stopped, and serves again once it runs', async () => {
    const { credential } = await api.store.issueHttpKey();
    const report = () =>
      send(`${api.base}/plugin/v1/report`, {
        headers: bearer(credential),
        json: { event: 'periodic', seed: 4_242, port: 7777 },
      });
    expect((await report()).status).toBe(200);

    redis.server.process.kill('SIGSTOP');
    try {
      const [refused, read] = await Promise.all([report(), get(`${api.base}/jobs/4243`)]);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'db unavailable' });
      expect(read.status).toBe(503);
      expect(read.body).toEqual({ error: 'db unavailable' });
      // Every 503 says when to try again: the report (answered outside express), the job (inside),
      // and the other paths a client polls.
      const others = await Promise.all(
        ['/maps/4244', '/seeds', '/stats/overview', '/stats/protection'].map((path) =>
          get(`${api.base}${path}`),
        ),
      );
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      for (const res of [read, ...others]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      }
    } finally {
      redis.server.process.kill('SIGCONT');
    }
    await pollUntil(
      () => report(),
      (r) => r.status === 200,
      { what: 'reports served again', timeoutMs: 15_000, everyMs: 100 },
    );
  });
});
