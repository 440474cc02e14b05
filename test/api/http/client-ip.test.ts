import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { logOptions } from '../../../runtime/logger.ts';
import { startFakeA2sServer, type FakeA2sServer } from '../../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi, startApiAt } from '../../support/api.ts';
import { from, keysOf, pluginClaim, selfClaim } from '../../support/claims.ts';
import { send } from '../../support/http.ts';

// README "What is protected, and how", client IP: X-Forwarded-For is believed only from a peer
// TRUST_PROXY trusts, and only when it names an IP address; a forwarded header from any other
// peer is ignored and warned about once; the self-claim probe goes to the address so found.
// The test process is the only peer (loopback); forwarded addresses are header text.

const T0 = '2026-03-01T08:00:00.000Z';
const apis: TestApi[] = [];
const fakes: FakeA2sServer[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

async function api(overrides: Record<string, string> = {}): Promise<TestApi> {
  const started = await startApiAt(T0, overrides);
  apis.push(started);
  return started;
}

describe('an X-Forwarded-For entry from a trusted peer that is no IP address', () => {
  const NOT_IPS = ['unknown', 'not-an-ip', '198.51.100.7:4444', '[2001:db8::1]:80', 'x'.repeat(4_000)];

  it('is not believed: the peer is the client, for the limit and the recorded address', async () => {
    const a = await api();
    // 10 plugin claims a minute per IP: each forged value would have had its own 10.
    for (const [i, forged] of NOT_IPS.entries()) {
      for (let j = 0; j < 2; j++) {
        const res = await pluginClaim(a, { code: 'ZZZZZ-ZZZZZ', port: 7777 }, from(forged));
        expect(res.status, `${i}/${j}`).toBe(401);
      }
    }
    expect((await pluginClaim(a, { code: 'ZZZZZ-ZZZZZ', port: 7777 })).status).toBe(429);
    expect(await keysOf(a, 'rate:pluginClaimPerIp:*')).toEqual([
      `${a.config.REDIS_PREFIX}rate:pluginClaimPerIp:127.0.0.1`,
    ]);

    // A code for "the address the claim comes from" registers the peer, not the text.
    const b = await api();
    const { code } = await b.store.issueClaimCode();
    const res = await pluginClaim(b, { code, port: 7777 }, from('unknown'));
    expect(res.status).toBe(200);
    const [registration] = await b.store.listRegistrations();
    expect(registration).toMatchObject({ ip: '127.0.0.1', port: 7777 });
  });
});

describe('the self-claim probe goes to the request address as TRUST_PROXY judges it', () => {
  it('a forwarded ::1 is believed from a trusted peer (probe to ::1) and not from another', async () => {
    const v6 = await startFakeA2sServer({ mode: 'direct', host: '::1' });
    fakes.push(v6);
    const probed = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '300' };

    const untrusting = await api({ ...probed, TRUST_PROXY: 'false' });
    const refused = await selfClaim(untrusting, { port: v6.port }, from('::1'));
    // Probed at 127.0.0.1, where nothing answers on that port: the forged address got nothing.
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'no game server' });
    expect(v6.requests).toBe(0);

    const trusting = await api(probed);
    const verified = await selfClaim(trusting, { port: v6.port }, from('::1'));
    expect(verified.status).toBe(200);
    expect(v6.requests).toBe(1);
  });
});

/** An API in this process whose log lines (at info) are kept, parsed. */
async function loggingApi(env: Record<string, string> = {}) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const running = await startTestApi(env, pino(logOptions('info', 'api'), sink));
  return { lines, base: running.base, close: () => running.close() };
}

describe('X-Forwarded-For from a peer TRUST_PROXY does not trust', () => {
  let lines: Record<string, unknown>[];
  let close: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    // A CDN's ranges, as the README says to configure them; our loopback peer is not one of them.
    ({ lines, base: url, close } = await loggingApi({ TRUST_PROXY: '173.245.48.0/20, 2400:cb00::/32' }));
  });
  afterAll(async () => {
    await close();
  });

  const warnings = () => lines.filter((l) => l.level === 40 && String(l.msg).includes('X-Forwarded-For'));

  it('is ignored, and logged once at warn naming the peer and TRUST_PROXY', async () => {
    await send(`${url}/plugin/v1/version`);
    expect(warnings()).toEqual([]);
    for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      const res = await send(`${url}/plugin/v1/version`, { headers: from(forged) });
      expect(res.status).toBe(200);
    }
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ peer: '127.0.0.1', trustProxy: '173.245.48.0/20, 2400:cb00::/32' });
    expect(String(warnings()[0]!.msg)).toContain('TRUST_PROXY');
  });

  it('is not warned about when the peer is trusted', async () => {
    const trusted = await loggingApi();
    try {
      const res = await send(`${trusted.base}/plugin/v1/version`, { headers: from('198.51.100.1') });
      expect(res.status).toBe(200);
    } finally {
      await trusted.close();
    }
    expect(trusted.lines.map((l) => l.msg)).toContain('request');
    expect(JSON.stringify(trusted.lines)).not.toContain('X-Forwarded-For');
  });
});
