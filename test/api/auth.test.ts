import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isWellFormedCredential, newCredential } from '../../store/credentials.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, MINUTE } from '../support/clock.ts';
import { newKey, type TestKey } from '../support/keys.ts';
import { REPORT_PATHS, sendReport, validReport } from '../support/requests.ts';
import { send } from '../support/http.ts';

// Spec 5 (rules 2 and 3) and 4.5's 401: unknown, revoked or malformed credentials, and a
// game-server key used from another IP, are all 401 `invalid credential` on both report paths.

let api: TestApi;
let self: TestKey;
beforeAll(async () => {
  // Default TRUST_PROXY (loopback): the test's X-Forwarded-For is believed, as a CDN's would be.
  api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1' });
  self = await newKey(api, 'self');
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  await advanceClock(api, MINUTE);
});

const INVALID = { error: 'invalid credential' };
const OTHER_IP = '203.0.113.9';

describe.each(REPORT_PATHS)('POST %s: 401 invalid credential', (path) => {
  const post = (headers: Record<string, string>) =>
    send(`${api.base}${path}`, { json: validReport(), headers });

  it('without Authorization', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it.each([
    ['a bare "Bearer"', () => 'Bearer'],
    ['"Bearer " and nothing', () => 'Bearer '],
    ['the key without the Bearer scheme', (k: string) => k],
    ['Basic scheme', (k: string) => `Basic ${Buffer.from(`x:${k}`).toString('base64')}`],
    ['a short token', () => 'Bearer sbk_abc'],
    ['another prefix', (k: string) => `Bearer xyz_${k.slice(4)}`],
    [
      'a checksum that does not match',
      (k: string) => `Bearer ${k.slice(0, -1)}${k.endsWith('A') ? 'B' : 'A'}`,
    ],
    ['two tokens', (k: string) => `Bearer ${k} ${k}`],
  ])('with a malformed bearer: %s', async (_name, header) => {
    const key = await newKey(api, 'http');
    const res = await post({ authorization: header(key.credential) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('with a well-formed key that was never issued', async () => {
    const never = newCredential();
    expect(isWellFormedCredential(never)).toBe(true);
    const res = await post({ authorization: `Bearer ${never}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('with a key revoked through POST /v1/servers/revoke', async () => {
    const key = await newKey(api, 'http');
    expect((await sendReport(api, key.credential, validReport(), { path })).status).toBe(200);
    const revoked = await send(`${api.base}/v1/servers/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.credential}` },
    });
    expect(revoked.status).toBe(200);
    const res = await sendReport(api, key.credential, validReport(), { path });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('with a key revoked in the store (operator CLI / bot)', async () => {
    const key = await newKey(api, 'http');
    expect((await sendReport(api, key.credential, validReport(), { path })).status).toBe(200);
    expect(await api.store.revokeRegistration(key.serverId)).toBe(true);
    const res = await sendReport(api, key.credential, validReport(), { path });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('a game-server key reporting from another IP; from its own IP it works', async () => {
    const elsewhere = await sendReport(api, self.credential, validReport(), {
      path,
      headers: { 'x-forwarded-for': OTHER_IP },
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual(INVALID);
    // The same key from the address it was claimed at (loopback) is accepted.
    expect((await sendReport(api, self.credential, validReport(), { path })).status).toBe(200);
  });

  it('an HTTP key is not bound to an IP: 200 from another IP', async () => {
    const key = await newKey(api, 'http');
    const res = await sendReport(api, key.credential, validReport(), {
      path,
      headers: { 'x-forwarded-for': OTHER_IP },
    });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
  });
});
