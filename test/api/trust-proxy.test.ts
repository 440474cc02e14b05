import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, MINUTE } from '../support/clock.ts';
import { newKey } from '../support/keys.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { send } from '../support/http.ts';

// Spec 1: HTTPS only (plain http is 301 to https) and the request IP is the address the CDN
// forwards. Which peer counts as the CDN is TRUST_PROXY (README): only a trusted peer's
// X-Forwarded-For / X-Forwarded-Proto are believed. The test process is the "proxy" on loopback;
// forwarded addresses are only header text, nothing is sent to them.

const FORGED = '203.0.113.9';

describe('TRUST_PROXY=loopback (the default)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
    expect(api.config.TRUST_PROXY).toBe('loopback');
  });
  afterAll(async () => {
    await api.close();
  });

  it('X-Forwarded-Proto: http → 301 to the same path and query on https', async () => {
    const path = '/api/plugin/v1/version?from=test';
    const res = await send(`${api.url}${path}`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`https://127.0.0.1${path}`);
  });

  it('the redirect names the host the proxy was asked for', async () => {
    const res = await send(`${api.base}/plugin/v1/version`, {
      headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'seedblock.example.test' },
    });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('https://seedblock.example.test/api/plugin/v1/version');
    // A host a client may have chosen: no shared cache keeps this answer for others.
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a plain http report is redirected too, before anything else is looked at', async () => {
    const res = await sendReport(api, null, validReport(), { headers: { 'x-forwarded-proto': 'http' } });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('https://127.0.0.1/api/plugin/v1/report');
  });

  it('X-Forwarded-Proto: https is served normally', async () => {
    const res = await send(`${api.base}/plugin/v1/version`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('latest');
  });

  it('a direct local request (no proxy headers) is served as it is', async () => {
    expect((await send(`${api.base}/plugin/v1/version`)).status).toBe(200);
  });
});

describe('TRUST_PROXY=false', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ TRUST_PROXY: 'false', PROBE_ALLOW_PRIVATE: '1' });
    expect(api.config.TRUST_PROXY).toBe(false);
  });
  afterAll(async () => {
    await api.close();
  });

  it('a forged X-Forwarded-For is ignored: a game-server key still reports from its own IP', async () => {
    const self = await newKey(api, 'self');
    const res = await sendReport(api, self.credential, validReport(), {
      headers: { 'x-forwarded-for': FORGED },
    });
    expect(res.status).toBe(200);
  });

  it('forged X-Forwarded-For values do not escape the per-IP limit', async () => {
    await advanceClock(api, MINUTE);
    const statuses: number[] = [];
    // 11 keys × 11 requests = 121 from one socket address, each claiming another client IP.
    for (let k = 0; k < 11; k++) {
      const key = await newKey(api, 'http');
      for (let i = 0; i < 11; i++) {
        const res = await sendReport(api, key.credential, validReport({ event: 'round_end' }), {
          headers: { 'x-forwarded-for': `198.51.100.${k * 11 + i}` },
        });
        statuses.push(res.status);
      }
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
  });

  it('X-Forwarded-Proto: http is not believed: served, not redirected', async () => {
    const res = await send(`${api.base}/plugin/v1/version`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
  });
});
