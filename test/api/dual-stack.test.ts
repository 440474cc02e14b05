// Issue 18, point 8: the default HOST (`::`) listens on IPv6 and IPv4. An IPv4 client then shows
// as ::ffff:a.b.c.d, which must still be its plain IPv4 address for TRUST_PROXY (loopback) and
// for the per-IP rate limits; an IPv6 client keeps its own (/56) key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.ts';
import { startApiAt, type TestApi } from '../support/api.ts';
import { from, keysOf, pluginClaim } from '../support/claims.ts';

let api: TestApi;
beforeAll(async () => {
  expect(loadConfig({}).HOST).toBe('::');
  api = await startApiAt('2026-03-01T08:00:00.000Z', { HOST: '::' });
});
afterAll(() => api?.close());

const claimBody = { code: 'ZZZZZ-ZZZZZ', port: 7777 };

describe('HOST :: (the default)', () => {
  it('answers on ::1 and on 127.0.0.1', async () => {
    expect((await fetch(`http://[::1]:${api.port}/`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${api.port}/`)).status).toBe(200);
  });

  it('an IPv4 peer (::ffff:127.0.0.1) is 127.0.0.1 for the rate limit and TRUST_PROXY', async () => {
    expect((await pluginClaim(api, claimBody)).status).toBe(401);
    // Believed only because the mapped peer counts as loopback.
    expect((await pluginClaim(api, claimBody, from('203.0.113.9'))).status).toBe(401);
    const res = await fetch(`http://[::1]:${api.port}${api.config.API_PREFIX}/plugin/v1/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(claimBody),
    });
    expect(res.status).toBe(401);
    const keys = (await keysOf(api, 'rate:pluginClaimPerIp:*')).map((k) => k.slice(k.indexOf('PerIp:') + 6));
    expect(keys.sort()).toEqual(['127.0.0.1', '203.0.113.9', '::/56']);
  });
});
