import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newCredential } from '../../store/credentials.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../support/clock.ts';
import { newKey } from '../support/keys.ts';
import { retryAfterSeconds, sendReport, validReport } from '../support/requests.ts';
import { send } from '../support/http.ts';

// Spec 4.3 (whoever holds a key can revoke it; 20 per minute per IP) with the shape the README
// fixes: the key is the bearer credential, 200 {"ok":true}, 401 for unknown or revoked keys.

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1' });
});
afterEach(async () => {
  await api.close();
});

const revoke = (credential: string | null, init: { json?: unknown; headers?: Record<string, string> } = {}) =>
  send(`${api.base}/v1/servers/revoke`, {
    method: 'POST',
    ...init,
    headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...init.headers },
  });

describe('POST /v1/servers/revoke', () => {
  it('200 {ok:true}; then reports with the key are 401 and revoking again is 401', async () => {
    const key = await newKey(api, 'http');
    expect((await sendReport(api, key.credential)).status).toBe(200);
    const res = await revoke(key.credential);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    for (const path of ['/plugin/v1/report', '/v1/servers/report']) {
      const after = await sendReport(api, key.credential, validReport(), { path });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ error: 'invalid credential' });
    }
    const again = await revoke(key.credential);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: 'invalid credential' });
  });

  it('the store agrees: the registration is gone from the live list', async () => {
    const key = await newKey(api, 'http');
    expect((await revoke(key.credential)).status).toBe(200);
    const live = await api.store.listRegistrations();
    expect(live.map((r) => r.serverId)).not.toContain(key.serverId);
    expect((await api.store.getRegistration(key.serverId))?.revokedAt).not.toBeNull();
  });

  it('401 without a key, with a malformed one, and with one never issued', async () => {
    for (const res of [await revoke(null), await revoke('sbk_nope'), await revoke(newCredential())]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid credential' });
    }
  });

  it('revokes only the bearer key: a body naming another server changes nothing', async () => {
    const mine = await newKey(api, 'http');
    const other = await newKey(api, 'http');
    const res = await revoke(mine.credential, { json: { serverId: other.serverId } });
    expect(res.status).toBe(200);
    expect((await sendReport(api, other.credential)).status).toBe(200);
    expect((await sendReport(api, mine.credential)).status).toBe(401);
  });

  it('any IP may revoke, even a game-server key bound to another address', async () => {
    const self = await newKey(api, 'self');
    const res = await revoke(self.credential, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(200);
    expect((await sendReport(api, self.credential)).status).toBe(401);
  });

  it('a window the key opened runs on to its end after the revoke', async () => {
    const t0 = await setClock(api, '2026-03-01T08:00:00.000Z');
    const key = await newKey(api, 'http');
    const opened = await sendReport(api, key.credential, validReport({ seed: 4242 }));
    expect(opened.body.blockedUntil).toBe(new Date(t0 + 20 * MINUTE).toISOString());
    expect((await revoke(key.credential)).status).toBe(200);
    await advanceClock(api, 10 * MINUTE);
    expect(await api.store.checkSeedBlock(4242, { countView: false })).toEqual({
      kind: 'window',
      until: t0 + 20 * MINUTE,
    });
  });

  it('20 per minute per IP: the 21st is 429 rate limited with Retry-After; the next minute works', async () => {
    await setClock(api, '2026-03-01T08:00:00.000Z');
    for (let i = 0; i < 20; i++) {
      expect((await revoke(newCredential())).status).toBe(401);
    }
    const key = await newKey(api, 'http');
    const limited = await revoke(key.credential);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate limited' });
    expect(retryAfterSeconds(limited)).toBe(60);
    // The refused revoke did nothing: the key still reports.
    expect((await sendReport(api, key.credential)).status).toBe(200);
    await advanceClock(api, MINUTE);
    expect((await revoke(key.credential)).status).toBe(200);
  });

  it('the revoke limit is per IP: another (forwarded) client IP is not limited', async () => {
    for (let i = 0; i < 21; i++) await revoke(newCredential());
    const key = await newKey(api, 'http');
    const res = await revoke(key.credential, { headers: { 'x-forwarded-for': '198.51.100.20' } });
    expect(res.status).toBe(200);
  });
});
