// Issue 34, finding 8: one client cycling the preview pictures of public seeds missed the picture
// cache every time and kept the API at ~92 % of a core (28.5 renders/s, all 200). Now a picture
// drawn for a client (a GET that finds none held) counts against its previewRendersPerIp budget
// (20 a minute, 429 with Retry-After past it); pictures held are not counted; a revalidation
// (If-None-Match) and a HEAD never draw, so they still answer once the budget is spent. Over real
// HTTP on the seeds' generated maps, each client its own X-Forwarded-For (believed from loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../../store/index.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { startTestWorker, type TestWorker } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import { generate, openWindow } from '../../support/read-api.ts';

const BUDGET = RATE_LIMITS.previewRendersPerIp.limit;
const SEEDS = Array.from({ length: BUDGET + 5 }, (_, i) => 6_400_001 + i);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await startTestApi({ RATE_LIMIT_MULTIPLIER: '1' });
  worker = await startTestWorker(api.config.REDIS_PREFIX);
  // Public seeds whose maps are generated: their pictures cost a render, not a map.
  await generate(api, ...SEEDS);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

const picture = (
  seed: number,
  ip: string,
  init: { method?: string; headers?: Record<string, string> } = {},
) => get(`${api.url}/seed/${seed}/preview.png`, { ip, ...init });

describe('the preview picture budget', () => {
  it(`draws ${BUDGET} pictures a minute for one client, then answers 429; held ones are free`, async () => {
    const ip = '198.51.100.81';
    const drawn = [];
    for (const seed of SEEDS.slice(0, BUDGET)) drawn.push(await picture(seed, ip));
    expect(drawn.map((r) => r.status)).toEqual(Array(BUDGET).fill(200));
    expect(drawn[0]!.raw.subarray(0, 8)).toEqual(PNG);
    // Held now: read again at no cost.
    for (const seed of SEEDS.slice(0, BUDGET)) expect((await picture(seed, ip)).status).toBe(200);

    const refused = await picture(SEEDS[BUDGET]!, ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another client is not refused.
    expect((await picture(SEEDS[BUDGET]!, '198.51.100.82')).status).toBe(200);
  });

  it('a HEAD and a matching If-None-Match answer without drawing, after the budget is spent', async () => {
    // An API that keeps no picture (PREVIEW_CACHE_BYTES=0) on the same Redis: every GET draws.
    const keepsNone = await startTestApi({
      RATE_LIMIT_MULTIPLIER: '1',
      PREVIEW_CACHE_BYTES: '0',
      REDIS_PREFIX: api.config.REDIS_PREFIX,
    });
    try {
      const ip = '198.51.100.83';
      const seed = SEEDS[1]!;
      const at = (init: Parameters<typeof picture>[2] = {}, from = ip) =>
        get(`${keepsNone.url}/seed/${seed}/preview.png`, { ip: from, ...init });
      const drawn = [];
      for (let i = 0; i < BUDGET; i++) drawn.push((await at()).status);
      expect(drawn).toEqual(Array(BUDGET).fill(200));
      expect((await at()).status).toBe(429);

      const head = await at({ method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/png');
      expect(head.headers.get('content-length')).toBeNull(); // known only once drawn
      expect(head.raw.length).toBe(0);
      const etag = head.headers.get('etag')!;
      expect(etag).toMatch(/^W\/".+"$/);
      const revalidated = await at({ headers: { 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('etag')).toBe(etag);

      // The ETag named before drawing is the picture's, whichever process draws it.
      const elsewhere = await picture(seed, '198.51.100.84');
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('etag')).toBe(etag);
      // Held there: a HEAD names its length too.
      const heldHead = await picture(seed, ip, { method: 'HEAD' });
      expect(heldHead.headers.get('content-length')).toBe(String(elsewhere.raw.length));
    } finally {
      await keepsNone.close();
    }
  });

  it('a blocked seed is refused before any of it: no 304, no HEAD', async () => {
    const seed = SEEDS[0]!;
    const etag = (await picture(seed, '198.51.100.85', { method: 'HEAD' })).headers.get('etag')!;
    await openWindow(api, seed);
    for (const init of [{ method: 'HEAD' }, { headers: { 'if-none-match': etag } }, {}]) {
      const res = await picture(seed, '198.51.100.85', init);
      expect(res.status, JSON.stringify(init)).toBe(403);
      expect(res.headers.get('etag')).toBeNull();
    }
  });
});
