// Issue 6, operator's view, item 11: Prometheus metrics at /metrics (prom-client), protected by
// ADMIN_TOKEN: request counts and latency by route pattern, method and status; open windows;
// queue depth; generation time of real workers; Redis errors. In-process APIs on the shared test
// Redis (fresh prefix each), plus one on a private redis-server that this suite stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { startTestWorker } from '../support/generator-worker.ts';
import { parseExposition, samplesOf, valueOf, type Sample } from '../support/prometheus.ts';
import { pollUntil } from '../support/clock.ts';
import { openWindow, waitReady } from '../support/read-api.ts';
import { type HttpAnswer, send } from '../support/http.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';

const TOKEN = 'metrics-token-0123456789';
const admin = { authorization: `Bearer ${TOKEN}` };

async function scrape(api: TestApi): Promise<{ res: HttpAnswer; samples: Sample[] }> {
  const res = await send(`${api.url}/metrics`, { headers: admin });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return { res, samples: parseExposition(res.text) };
}

let api: TestApi;
let open: TestApi;

beforeAll(async () => {
  [api, open] = await Promise.all([startTestApi({ ADMIN_TOKEN: TOKEN }), startTestApi()]);
});
afterAll(async () => {
  await Promise.all([api.close(), open.close()]);
});

describe('/metrics access', () => {
  it('401 invalid token without a token, with a wrong one, and always when ADMIN_TOKEN is unset', async () => {
    const refused = [
      await send(`${api.url}/metrics`),
      await send(`${api.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } }),
      await send(`${api.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } }),
      await send(`${api.url}/metrics`, { headers: { authorization: TOKEN } }),
      await send(`${api.url}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } }),
      // No ADMIN_TOKEN configured: nothing opens it, not even the token of another process.
      await send(`${open.url}/metrics`),
      await send(`${open.url}/metrics`, { headers: admin }),
      await send(`${open.url}/metrics`, { headers: { authorization: 'Bearer ' } }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid token' });
      expect(res.text).not.toContain('seedblock_');
    }
    const ok = await send(`${api.url}/metrics`, { headers: admin });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

describe('/metrics exposition', () => {
  it('counts requests by route pattern, method and status, with latency buckets', async () => {
    const seeds = [910_001, 910_002];
    expect((await send(`${api.base}/maps/${seeds[0]}`)).status).toBe(202);
    expect((await send(`${api.base}/maps/${seeds[0]}`)).status).toBe(202);
    expect((await send(`${api.base}/maps/${seeds[1]}`)).status).toBe(202);
    expect((await send(`${api.base}/maps/abc`)).status).toBe(400);
    expect((await send(`${api.base}/seeds?cursor=nope`)).status).toBe(400);
    expect((await send(`${api.base}/plugin/v1/report`, { json: {} })).status).toBe(401);
    expect((await send(`${api.base}/no/such/sbk_route`)).status).toBe(404);

    const { samples, res } = await scrape(api);
    const count = (route: string, method: string, status: string) =>
      valueOf(samples, 'seedblock_http_requests_total', { route, method, status });
    // The pattern, never the raw seed; a request that failed in its route keeps the API prefix.
    expect(count('/api/maps/:seed', 'GET', '202')).toBe(3);
    expect(count('/api/maps/:seed', 'GET', '400')).toBe(1);
    expect(count('/api/seeds', 'GET', '400')).toBe(1);
    expect(count('/api/plugin/v1/report', 'POST', '401')).toBe(1);
    expect(count('unmatched', 'GET', '404')).toBe(1);
    const routes = new Set(samplesOf(samples, 'seedblock_http_requests_total').map((s) => s.labels.route));
    for (const route of routes) expect(route, 'route label').toMatch(/^(unmatched|\/[a-z0-9/:._-]*)$/);
    for (const seed of seeds) expect(res.text).not.toContain(String(seed));
    expect(res.text).not.toContain('sbk_');

    // Latency histogram: cumulative buckets up to +Inf, whose count is the request count.
    const labels = { route: '/api/maps/:seed', method: 'GET', status: '202' };
    const buckets = samplesOf(samples, 'seedblock_http_request_duration_seconds_bucket', labels);
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.001',
      '0.002',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '+Inf',
    ]);
    const values = buckets.map((b) => b.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values.at(-1)).toBe(3);
    expect(valueOf(samples, 'seedblock_http_request_duration_seconds_count', labels)).toBe(3);
    expect(valueOf(samples, 'seedblock_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);

    // The scrape itself is counted under its own route on the next scrape.
    const next = await scrape(api);
    expect(
      valueOf(next.samples, 'seedblock_http_requests_total', {
        route: '/metrics',
        method: 'GET',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('open windows, queue depth and generation time follow the shared state in Redis', async () => {
    const before = (await scrape(api)).samples;
    expect(valueOf(before, 'seedblock_open_windows')).toBe(0);
    expect(valueOf(before, 'seedblock_generation_seconds_count')).toBe(0);
    const waitingBefore = valueOf(before, 'seedblock_queue_depth', { state: 'waiting' })!;

    // Three windows through the real report route (one HTTP key each).
    for (const seed of [920_001, 920_002, 920_003]) await openWindow(api, seed);
    // Four more seeds queued through GET /jobs; no worker is running yet.
    const queued = [930_001, 930_002, 930_003, 930_004];
    for (const seed of queued) expect((await send(`${api.base}/jobs/${seed}`)).status).toBe(200);

    const mid = (await scrape(api)).samples;
    expect(valueOf(mid, 'seedblock_open_windows')).toBe(3);
    expect(valueOf(mid, 'seedblock_queue_depth', { state: 'waiting' })).toBe(waitingBefore + queued.length);
    expect(valueOf(mid, 'seedblock_queue_depth', { state: 'active' })).toBe(0);
    const waitingSeeds = waitingBefore + queued.length;

    // A real worker generates every waiting seed; the totals are shared through Redis.
    const worker = await startTestWorker(api.config.REDIS_PREFIX);
    try {
      for (const seed of queued) await waitReady(api, seed, 20_000);
      const after = await pollUntil(
        async () => (await scrape(api)).samples,
        (s) => valueOf(s, 'seedblock_queue_depth', { state: 'waiting' }) === 0,
        { what: 'queue drained', timeoutMs: 20_000 },
      );
      expect(valueOf(after, 'seedblock_generation_seconds_count')).toBe(waitingSeeds);
      expect(valueOf(after, 'seedblock_generation_seconds_sum')).toBeGreaterThan(0);
      expect(valueOf(after, 'seedblock_queue_depth', { state: 'active' })).toBe(0);
      expect(valueOf(after, 'seedblock_open_windows')).toBe(3);
    } finally {
      await worker.stop();
    }
  });
});

describe('Redis errors', () => {
  let redis: PrivateRedis;
  let down: TestApi;

  beforeAll(async () => {
    redis = await startPrivateRedis({ name: 'metrics-redis' });
    down = await startTestApi({ REDIS_URL: redis.url, ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await down.close();
    await redis.stop();
  });

  it('counts 503 db unavailable; /metrics keeps answering, shared gauges NaN, until Redis is back', async () => {
    const before = (await scrape(down)).samples;
    expect(valueOf(before, 'seedblock_redis_errors_total')).toBe(0);
    expect(valueOf(before, 'seedblock_redis_up')).toBe(1);
    expect(valueOf(before, 'seedblock_open_windows')).toBe(0);
    await redis.kill();

    for (const path of ['/jobs/1', '/jobs/2']) {
      const res = await send(`${down.base}${path}`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'db unavailable' });
    }
    // The scrape an operator needs most: this process, its Redis errors, and that Redis is down.
    const during = (await scrape(down)).samples;
    expect(valueOf(during, 'seedblock_redis_up')).toBe(0);
    expect(valueOf(during, 'seedblock_redis_errors_total')).toBe(2);
    for (const name of [
      'seedblock_open_windows',
      'seedblock_generation_seconds_sum',
      'seedblock_generation_seconds_count',
    ]) {
      expect(valueOf(during, name), name).toBeNaN();
    }
    expect(valueOf(during, 'seedblock_queue_depth', { state: 'waiting' })).toBeNaN();
    expect(valueOf(during, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Still behind the token while Redis is away.
    expect((await send(`${down.url}/metrics`)).status).toBe(401);

    await redis.restart();
    const recovered = await pollUntil(
      async () => parseExposition((await send(`${down.url}/metrics`, { headers: admin })).text),
      (samples) => valueOf(samples, 'seedblock_redis_up') === 1,
      { what: 'Redis up again in /metrics after its restart', everyMs: 100, timeoutMs: 15_000 },
    );
    expect(valueOf(recovered, 'seedblock_open_windows')).toBe(0);
    expect(valueOf(recovered, 'seedblock_queue_depth', { state: 'waiting' })).toBe(0);
    expect(valueOf(recovered, 'seedblock_redis_errors_total')).toBe(2);
    expect(
      valueOf(recovered, 'seedblock_http_requests_total', {
        route: '/api/jobs/:seed',
        method: 'GET',
        status: '503',
      }),
    ).toBe(2);
  });
});
