import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../../store/index.ts';
import { startApiAt, type TestApi } from '../../support/api.ts';
import { keysOf } from '../../support/claims.ts';
import { send, get } from '../../support/http.ts';

// README "What is protected, and how", rate-limit keys: every counter a client can create expires
// (window + 60 s), and what one distinct IP costs in Redis is bounded however hard it floods,
// measured with Redis's own MEMORY USAGE. Client IPs are documentation addresses sent as
// X-Forwarded-For (believed from loopback); the probe refuses them, so no packet is sent.

const UNCACHED_LIMIT = RATE_LIMITS.uncachedMapsPerIp.limit;
/** What the README states one flooding IP costs at most, all its counters together. */
const BYTES_PER_IP_MAX = 1280;
/** The longest a counter outlives its window. */
const TTL_MAX_MS = Math.max(...Object.values(RATE_LIMITS).map((l) => l.windowMs)) + 60_000;

let api: TestApi;
beforeAll(async () => {
  api = await startApiAt('2026-03-01T08:00:00.000Z');
});
afterAll(async () => {
  await api.close();
});

const redis = () => api.store.ctx.redis;
const rateKey = (name: string, ip: string) => `${api.config.REDIS_PREFIX}rate:${name}:${ip}`;
const memory = async (key: string) => (await redis().memory('USAGE', key)) ?? 0;

/** `count` uncached seeds from `ip`, each new; the statuses in order. */
async function askSeeds(ip: string, first: number, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await get(`${api.base}/maps/${first + i}`, { ip })).status);
  return statuses;
}

describe('the uncached-seed counter under a flood of new seeds from one IP', () => {
  it('keeps at most the 20 seeds of the limit; the rest are only counted and stay refused', async () => {
    const ip = '203.0.113.60';
    const statuses = await askSeeds(ip, 8_100_000, 300);
    expect(statuses.slice(0, UNCACHED_LIMIT)).toEqual(Array(UNCACHED_LIMIT).fill(202));
    expect(statuses.slice(UNCACHED_LIMIT)).toEqual(Array(300 - UNCACHED_LIMIT).fill(429));
    // A seed counted before the limit was reached is refused too until the window ends.
    expect((await get(`${api.base}/maps/8100000`, { ip })).status).toBe(429);

    const key = rateKey('uncachedMapsPerIp', ip);
    expect(await redis().scard(`${key}:members`)).toBe(UNCACHED_LIMIT);
    expect(await redis().hget(key, 'over')).toBe(String(300 - UNCACHED_LIMIT));

    // An IP that stopped one seed past the limit costs as much as this one.
    const calm = '203.0.113.61';
    await askSeeds(calm, 8_200_000, UNCACHED_LIMIT + 1);
    const cost = async (at: string) =>
      (await memory(rateKey('uncachedMapsPerIp', at))) +
      (await memory(`${rateKey('uncachedMapsPerIp', at)}:members`));
    expect(await cost(ip)).toBeLessThanOrEqual((await cost(calm)) + 8);
  });
});

describe('every counter a flood creates', () => {
  const IPS = Array.from({ length: 40 }, (_, i) => `198.51.100.${i + 1}`);
  const bogusKey = { authorization: `Bearer sbk_${'Q'.repeat(32)}AAAAAA` };

  beforeAll(async () => {
    // Each IP uses every limited route, past each limit: reports and revokes with a key that was
    // never issued, plugin claims with an unknown code, self-claims (the probe refuses the
    // documentation range, after the check was counted), new seeds, statistics, and the preview
    // pictures of seeds never asked for (each counted, then refused by the uncached-seed limit).
    for (const [n, ip] of IPS.entries()) {
      const from = { 'x-forwarded-for': ip };
      const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
        send(`${api.base}${path}`, { json, headers: { ...from, ...headers } });
      for (let i = 0; i < 12; i++) {
        await post('/plugin/v1/report', { event: 'round_end', seed: 1, port: 7777 }, bogusKey);
        await post('/v1/servers/revoke', {}, bogusKey);
        await post('/plugin/v1/claim', { code: 'ZZZZZ-ZZZZZ', port: 7777 });
        await post('/v1/servers/claim', { port: 7777 });
        await get(`${api.base}/stats/overview`, { ip });
      }
      await askSeeds(ip, 9_000_000 + n * 100, UNCACHED_LIMIT + 5);
      const pictures = Array.from({ length: RATE_LIMITS.previewRendersPerIp.limit + 5 }, (_, i) =>
        get(`${api.url}/seed/${9_500_000 + n * 100 + i}/preview.png`, { ip }),
      );
      await Promise.all(pictures);
    }
    // Some 4,400 requests one after another: a generous bound for a loaded machine.
  }, 180_000);

  it('expires: each has a TTL of at most its window plus 60 s', async () => {
    const keys = await keysOf(api, 'rate:*');
    expect(keys.length).toBeGreaterThanOrEqual(IPS.length * 5);
    for (const key of keys) {
      const ttl = await redis().pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(TTL_MAX_MS);
    }
  });

  it(`costs at most ${BYTES_PER_IP_MAX} bytes of Redis memory per distinct IP`, async () => {
    for (const ip of IPS) {
      const keys = (await keysOf(api, `rate:*:${ip}*`)).filter(
        (k) => k.endsWith(`:${ip}`) || k.endsWith(`:${ip}:members`),
      );
      // reports, revokes, plugin claims, probes, uncached seeds (+ their set), pictures;
      // statistics are counted on a cache miss only, so most IPs never get that counter.
      expect(keys.length, ip).toBeGreaterThanOrEqual(7);
      let bytes = 0;
      for (const key of keys) bytes += await memory(key);
      expect(bytes, ip).toBeLessThanOrEqual(BYTES_PER_IP_MAX);
    }
  });
});
