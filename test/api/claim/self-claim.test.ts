// Spec 4.1 (POST /v1/servers/claim): every row and rule, over real HTTP, against the real probe
// and fake A2S servers on loopback. Packets only ever go to 127.0.0.1 or ::1; other client IPs
// come from X-Forwarded-For and are either refused by the address guard (nothing sent) or never
// probed at all.
import dgram from 'node:dgram';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeA2sServer, type FakeA2sMode, type FakeA2sServer } from '../../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { from, registrationHash, report, selfClaim, UUID } from '../../support/claims.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';
import { bearer, send } from '../../support/http.ts';

const T0 = '2026-03-01T08:00:00.000Z';
const PROBED = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '300' };

let api: TestApi;
const fakes: FakeA2sServer[] = [];
const apis: TestApi[] = [];

async function fake(mode: FakeA2sMode = 'direct', host?: '127.0.0.1' | '::1'): Promise<FakeA2sServer> {
  const server = await startFakeA2sServer({ mode, host });
  fakes.push(server);
  return server;
}

async function anotherApi(overrides: Record<string, string>): Promise<TestApi> {
  const other = await startTestApi(overrides);
  apis.push(other);
  return other;
}

/** A UDP port on 127.0.0.1 where nothing listens (the kernel answers port unreachable). */
async function closedUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

beforeEach(async () => {
  api = await startTestApi(PROBED);
  await setClock(api, T0);
});
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await api.close();
});

describe('200 verified', () => {
  it('issues a UUID, a credential and issuedAt; the record keeps clientName, gameVersion and User-Agent', async () => {
    const server = await fake('direct');
    const res = await selfClaim(
      api,
      { port: server.port, clientName: 'Alpha Facility', gameVersion: '14.1.2' },
      { 'user-agent': 'MyLauncher/2.3.4' },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['credential', 'issuedAt', 'serverId', 'status']);
    expect(res.body.status).toBe('verified');
    // It carries the credential, shown this once: no cache may keep it.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.serverId).toMatch(UUID);
    expect(res.body.credential).toMatch(/^sbk_[0-9A-Za-z]{38}$/);
    expect(res.body.issuedAt).toBe(T0);
    expect(server.requests).toBeGreaterThanOrEqual(1);

    const registration = await api.store.getRegistration(res.body.serverId);
    expect(registration).toMatchObject({
      serverId: res.body.serverId,
      kind: 'self',
      issuedAt: T0,
      ip: '127.0.0.1',
      port: server.port,
      clientName: 'Alpha Facility',
      lastReportAt: null,
      revokedAt: null,
    });
    const hash = await registrationHash(api, res.body.serverId);
    expect(hash).toMatchObject({ gameVersion: '14.1.2', userAgent: 'MyLauncher/2.3.4' });
    // Only the hash of the credential is stored.
    expect(Object.values(hash)).not.toContain(res.body.credential);

    // The credential works, from the registered IP only.
    expect((await report(api, res.body.credential, { port: server.port })).status).toBe(200);
    expect((await report(api, res.body.credential, { headers: from('198.51.100.9') })).status).toBe(401);
  });

  it('optional fields may be left out; a 64-character clientName is accepted', async () => {
    const a = await fake('direct');
    const res = await selfClaim(api, {
      port: a.port,
      clientName: 'n'.repeat(64),
      gameVersion: 'v'.repeat(32),
    });
    expect(res.status).toBe(200);
    expect((await api.store.getRegistration(res.body.serverId))?.clientName).toBe('n'.repeat(64));

    await advanceClock(api, 5 * MINUTE);
    const b = await fake('direct');
    const bare = await selfClaim(api, { port: b.port });
    expect(bare.status).toBe(200);
    const hash = await registrationHash(api, bare.body.serverId);
    expect(hash.clientName).toBeUndefined();
    expect(hash.gameVersion).toBeUndefined();
  });

  it.each(['challenge', 'split'] as const)('confirms a server that answers in %s form', async (mode) => {
    const server = await fake(mode);
    expect((await selfClaim(api, { port: server.port })).status).toBe(200);
  });

  it('registers IPv6 clients at their own address', async () => {
    const server = await fake('direct', '::1');
    const res = await selfClaim(api, { port: server.port }, from('::1'));
    expect(res.status).toBe(200);
    expect(await api.store.getRegistration(res.body.serverId)).toMatchObject({
      ip: '::1',
      port: server.port,
    });
  });
});

describe('400 invalid request, naming the field that failed', () => {
  type Case = [string, (port: number) => { raw?: string; body?: unknown; type?: string }, string | undefined];
  const cases: Case[] = [
    ['port 0', () => ({ body: { port: 0 } }), 'port'],
    ['port 65536', () => ({ body: { port: 65536 } }), 'port'],
    ['port as a string', (p) => ({ body: { port: String(p) } }), 'port'],
    ['port not an integer', (p) => ({ body: { port: p + 0.5 } }), 'port'],
    ['port missing', () => ({ body: { clientName: 'x' } }), 'port'],
    ['clientName of 65 characters', (p) => ({ body: { port: p, clientName: 'x'.repeat(65) } }), 'clientName'],
    ['empty clientName', (p) => ({ body: { port: p, clientName: '' } }), 'clientName'],
    [
      'gameVersion of 33 characters',
      (p) => ({ body: { port: p, gameVersion: '1'.repeat(33) } }),
      'gameVersion',
    ],
    ['clientName not a string', (p) => ({ body: { port: p, clientName: 5 } }), 'clientName'],
    // The body as a whole: no field to name.
    ['malformed JSON', (p) => ({ raw: `{"port":${p},` }), undefined],
    ['a JSON array', (p) => ({ raw: `[${p}]` }), undefined],
    ['not sent as JSON', (p) => ({ raw: `port=${p}`, type: 'application/x-www-form-urlencoded' }), undefined],
  ];

  it.each(cases)('%s: 400, no probe, and the interval is not spent', async (_name, make, field) => {
    const server = await fake('direct');
    const { raw, body, type } = make(server.port);
    const init =
      raw === undefined ? { json: body } : { raw, headers: { 'content-type': type ?? 'application/json' } };
    const res = await send<{ error: string }>(`${api.base}/v1/servers/claim`, init);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      field === undefined ? { error: 'invalid request' } : { error: 'invalid request', field },
    );
    expect(server.requests).toBe(0);
    expect((await selfClaim(api, { port: server.port })).status).toBe(200);
  });
});

describe('403 no game server', () => {
  it.each(['silent', 'garbage', 'closed port'] as const)(
    '%s: 403, no key, and an immediate retry with a good server succeeds',
    async (mode) => {
      const port = mode === 'closed port' ? await closedUdpPort() : (await fake(mode)).port;
      const res = await selfClaim(api, { port });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'no game server' });
      expect(await api.store.listRegistrations()).toEqual([]);

      const good = await fake('direct');
      expect((await selfClaim(api, { port: good.port })).status).toBe(200);
    },
  );
});

describe('403 private address (PROBE_ALLOW_PRIVATE unset)', () => {
  const NON_PUBLIC = [
    // IPv4
    '0.0.0.0',
    '0.1.2.3',
    '10.1.2.3',
    '100.64.0.1',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.1.1',
    '172.16.0.1',
    '172.31.255.254',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.7',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6
    '::',
    '::1',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:2::1',
    '2001:db8::1',
    '2002:c0a8:101::1',
    '3fff::1',
    '4000::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    // IPv4 inside IPv6: mapped, compatible and NAT64 spellings of private/loopback hosts
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:c0a8:101',
    '::a00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
  ];

  // One guarded API and one pair of listening servers for the whole table: nothing is issued.
  let guarded: TestApi;
  let v4: FakeA2sServer;
  let v6: FakeA2sServer;
  beforeAll(async () => {
    guarded = await startTestApi({ PROBE_TIMEOUT_MS: '300' });
    v4 = await startFakeA2sServer({ mode: 'direct' });
    v6 = await startFakeA2sServer({ mode: 'direct', host: '::1' });
  });
  afterAll(async () => {
    await Promise.all([guarded.close(), v4.close(), v6.close()]);
  });

  it.each(NON_PUBLIC)('%s: 403 private address and not one packet sent', async (ip) => {
    for (const server of [v4, v6]) {
      const res = await selfClaim(guarded, { port: server.port }, from(ip));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'private address' });
    }
    await new Promise((r) => setTimeout(r, 30)); // room for a stray datagram to land
    expect(v4.requests).toBe(0);
    expect(v6.requests).toBe(0);
  });

  it('does not spend the interval: another API on the same Redis that may probe loopback issues at once', async () => {
    const server = await fake('direct');
    const refused = await selfClaim(guarded, { port: server.port });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'private address' });
    expect(server.requests).toBe(0);

    const lan = await anotherApi({ ...PROBED, REDIS_PREFIX: guarded.config.REDIS_PREFIX });
    const res = await selfClaim(lan, { port: server.port });
    expect(res.status).toBe(200);
    expect(server.requests).toBeGreaterThan(0);
  });
});

describe('409 address in use', () => {
  it('refuses a live registration at IP:port unless its credential is the bearer; then the old one is revoked', async () => {
    const server = await fake('direct');
    const first = await selfClaim(api, { port: server.port });
    expect(first.status).toBe(200);
    await advanceClock(api, 5 * MINUTE);

    const probesBefore = server.requests;
    expect(await selfClaim(api, { port: server.port })).toMatchObject({
      status: 409,
      body: { error: 'address in use' },
    });
    // A credential that is not the one at this address does not count (here: an HTTP key).
    const other = await api.store.issueHttpKey();
    expect(await selfClaim(api, { port: server.port }, bearer(other.credential))).toMatchObject({
      status: 409,
      body: { error: 'address in use' },
    });
    expect(server.requests).toBe(probesBefore); // refused before the probe

    const second = await selfClaim(api, { port: server.port }, bearer(first.body.credential));
    expect(second.status).toBe(200);
    expect(second.body.serverId).not.toBe(first.body.serverId);

    expect(await report(api, first.body.credential, { port: server.port })).toMatchObject({
      status: 401,
      body: { error: 'invalid credential' },
    });
    expect((await report(api, second.body.credential, { port: server.port })).status).toBe(200);
    expect((await api.store.getRegistration(first.body.serverId))?.revokedAt).not.toBeNull();
    const live = (await api.store.listRegistrations()).filter((r) => r.kind === 'self');
    expect(live.map((r) => r.serverId)).toEqual([second.body.serverId]);
  });

  it('a 409 does not spend the interval: a claim for another port right after is issued', async () => {
    const a = await fake('direct');
    const b = await fake('direct');
    expect((await selfClaim(api, { port: a.port })).status).toBe(200);
    await advanceClock(api, 5 * MINUTE);
    expect((await selfClaim(api, { port: a.port })).status).toBe(409);
    expect((await selfClaim(api, { port: b.port })).status).toBe(200);
  });

  it('replaces a registration silent over one hour without its credential (not at exactly one hour)', async () => {
    const server = await fake('direct');
    const first = await selfClaim(api, { port: server.port });
    await advanceClock(api, 60 * MINUTE);
    expect((await selfClaim(api, { port: server.port })).status).toBe(409);
    await advanceClock(api, 1 * MINUTE);
    const second = await selfClaim(api, { port: server.port });
    expect(second.status).toBe(200);
    expect((await report(api, first.body.credential, { port: server.port })).status).toBe(401);
    expect((await report(api, second.body.credential, { port: server.port })).status).toBe(200);
  });

  it('silence counts from the last report, not from the issue', async () => {
    const server = await fake('direct');
    const first = await selfClaim(api, { port: server.port });
    await advanceClock(api, 50 * MINUTE);
    expect((await report(api, first.body.credential, { port: server.port })).status).toBe(200);
    await advanceClock(api, 50 * MINUTE); // 100 minutes since issue, 50 since the report
    expect((await selfClaim(api, { port: server.port })).status).toBe(409);
    await advanceClock(api, 11 * MINUTE); // 61 minutes since the report
    expect((await selfClaim(api, { port: server.port })).status).toBe(200);
    expect((await report(api, first.body.credential, { port: server.port })).status).toBe(401);
  });

  it('a plugin registration at the same IP:port is neither a conflict nor revoked (5.4: self-issued only)', async () => {
    const server = await fake('direct');
    const { code } = await api.store.issueClaimCode();
    const plugin = await api.store.claimWithCode({ code, ip: '127.0.0.1', port: server.port });
    expect(plugin.status).toBe('verified');
    const self = await selfClaim(api, { port: server.port });
    expect(self.status).toBe(200);
    if (plugin.status !== 'verified') return;
    expect((await report(api, plugin.credential, { port: server.port })).status).toBe(200);
  });
});

describe('429 too many credentials', () => {
  async function claimThree() {
    const servers = [await fake('direct'), await fake('direct'), await fake('direct')];
    const issued = [];
    for (const server of servers) {
      const res = await selfClaim(api, { port: server.port });
      expect(res.status).toBe(200);
      issued.push(res.body);
      await advanceClock(api, 5 * MINUTE);
    }
    return { servers, issued };
  }

  it('refuses a 4th live key at one IP with live 3, max 3, before probing', async () => {
    await claimThree();
    const fourth = await fake('direct');
    const res = await selfClaim(api, { port: fourth.port });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'too many credentials', live: 3, max: 3 });
    // Every 429 says when to retry: here when the oldest unused key lapses (issued 15 min ago).
    expect(res.headers.get('retry-after')).toBe(String(24 * 3600 - 15 * 60));
    expect(fourth.requests).toBe(0);
    // Another IP is not affected.
    const v6 = await fake('direct', '::1');
    expect((await selfClaim(api, { port: v6.port }, from('::1'))).status).toBe(200);
  });

  it('a re-claim of the same IP:port with its credential frees that slot; the count stays at 3', async () => {
    const { servers, issued } = await claimThree();
    const again = await selfClaim(api, { port: servers[0]!.port }, bearer(issued[0]!.credential));
    expect(again.status).toBe(200);
    await advanceClock(api, 5 * MINUTE);
    const fourth = await fake('direct');
    expect((await selfClaim(api, { port: fourth.port })).body).toEqual({
      error: 'too many credentials',
      live: 3,
      max: 3,
    });
  });

  it('an unused key lapses 24 hours after its issue and frees its slot; a used one never does', async () => {
    const { servers, issued } = await claimThree(); // issued at T0, T0+5, T0+10 min
    expect((await report(api, issued[0]!.credential, { port: servers[0]!.port })).status).toBe(200);
    const fourth = await fake('direct');

    await setClock(api, new Date(Date.parse(T0) + 24 * 60 * MINUTE + 5 * MINUTE - 1).toISOString());
    expect((await selfClaim(api, { port: fourth.port })).body).toMatchObject({ live: 3 });
    await advanceClock(api, 1); // the second key is now 24 hours old and was never used
    const res = await selfClaim(api, { port: fourth.port });
    expect(res.status).toBe(200);
    expect((await report(api, issued[1]!.credential, { port: servers[1]!.port })).status).toBe(401);
    expect((await report(api, issued[2]!.credential, { port: servers[2]!.port })).status).toBe(200);
    expect((await report(api, issued[0]!.credential, { port: servers[0]!.port })).status).toBe(200);
  });

  it('an unused key that lapsed is refused on its first report even with no claim since', async () => {
    const server = await fake('direct');
    const res = await selfClaim(api, { port: server.port });
    expect(res.status).toBe(200);
    await advanceClock(api, 24 * 60 * MINUTE - 1);
    const justBefore = await selfClaim(api, { port: server.port }, bearer(res.body.credential));
    expect(justBefore.status).toBe(200); // replaced with its own credential: a fresh key
    await advanceClock(api, 24 * 60 * MINUTE);
    expect((await report(api, justBefore.body.credential, { port: server.port })).status).toBe(401);
    expect(await registrationHash(api, justBefore.body.serverId)).toHaveProperty('revoked');
  });
});

describe('429 rate limited: one issue per IP every 5 minutes', () => {
  it('answers the exact remainder in Retry-After, without probing', async () => {
    const a = await fake('direct');
    const b = await fake('direct');
    expect((await selfClaim(api, { port: a.port })).status).toBe(200);
    await advanceClock(api, 2 * MINUTE);
    const res = await selfClaim(api, { port: b.port });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'rate limited' });
    expect(res.headers.get('retry-after')).toBe('180');
    expect(b.requests).toBe(0);

    await advanceClock(api, 179_500);
    expect((await selfClaim(api, { port: b.port })).headers.get('retry-after')).toBe('1');
    await advanceClock(api, 500);
    expect((await selfClaim(api, { port: b.port })).status).toBe(200);
  });

  it('two claims at once from one IP: both are probed, only one is issued', async () => {
    const a = await fake('direct');
    const b = await fake('direct');
    const results = await Promise.all([selfClaim(api, { port: a.port }), selfClaim(api, { port: b.port })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ error: 'rate limited' });
    expect(refused.headers.get('retry-after')).toBe('300');
    expect((await api.store.listRegistrations()).length).toBe(1);
  });

  it('is per IP', async () => {
    const a = await fake('direct');
    const b = await fake('direct', '::1');
    expect((await selfClaim(api, { port: a.port })).status).toBe(200);
    expect((await selfClaim(api, { port: b.port }, from('::1'))).status).toBe(200);
  });

  it('survives an API restart (kept in Redis)', async () => {
    const a = await fake('direct');
    const b = await fake('direct');
    expect((await selfClaim(api, { port: a.port })).status).toBe(200);
    const prefix = api.config.REDIS_PREFIX;
    await api.close();
    api = await startTestApi({ ...PROBED, REDIS_PREFIX: prefix });
    const res = await selfClaim(api, { port: b.port });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'rate limited' });
    expect(res.headers.get('retry-after')).toBe('300');
    expect(b.requests).toBe(0);
  });
});

describe('the server check runs at most 10 times per minute per IP', () => {
  it('the 11th check is 429 rate limited with Retry-After, and sends nothing', async () => {
    const garbage = await fake('garbage');
    for (let i = 0; i < 10; i++) {
      expect((await selfClaim(api, { port: garbage.port })).body).toEqual({ error: 'no game server' });
    }
    expect(garbage.requests).toBe(10);
    await advanceClock(api, 15_000);
    const res = await selfClaim(api, { port: garbage.port });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'rate limited' });
    expect(res.headers.get('retry-after')).toBe('45');
    expect(garbage.requests).toBe(10);

    // Another IP still has its own checks; this one gets them back when the minute ends.
    const v6 = await fake('direct', '::1');
    expect((await selfClaim(api, { port: v6.port }, from('::1'))).status).toBe(200);
    await advanceClock(api, 45_000);
    const good = await fake('direct');
    expect((await selfClaim(api, { port: good.port })).status).toBe(200);
  });

  it('a closed port counts as a check like any other', async () => {
    const port = await closedUdpPort();
    for (let i = 0; i < 10; i++) expect((await selfClaim(api, { port })).status).toBe(403);
    expect((await selfClaim(api, { port })).status).toBe(429);
  });
});

describe('503 probe unavailable', () => {
  it('when the probe cannot route to the target (IPv6 link-local without a zone): 503, nothing issued', async () => {
    // connect() on a UDP socket to fe80::/10 without a scope id fails locally (EINVAL on Linux;
    // any host without IPv6 fails to open the socket): no datagram leaves the machine.
    const res = await selfClaim(api, { port: 27015 }, from('fe80::1'));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'probe unavailable' });
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(await api.store.listRegistrations()).toEqual([]);
  });

  it('when too many probes are in flight: 503 for the overflow, and the interval is not spent', async () => {
    // The probe runs at most 64 checks at once; the benchmark multiplier lifts the per-IP check
    // limit, and a higher cap of requests with a body per IP lets one IP fill it. Each check waits
    // for a silent server until its timeout.
    const loaded = await anotherApi({
      ...PROBED,
      PROBE_TIMEOUT_MS: '1500',
      RATE_LIMIT_MULTIPLIER: '20',
      MAX_CONNECTIONS_PER_IP: '200',
    });
    const silent = await fake('silent');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => selfClaim(loaded, { port: silent.port })),
    );
    const unavailable = results.filter((r) => r.status === 503);
    const noServer = results.filter((r) => r.status === 403);
    expect(unavailable.length).toBeGreaterThanOrEqual(1);
    expect(unavailable.length + noServer.length).toBe(100);
    for (const r of unavailable) expect(r.body).toEqual({ error: 'probe unavailable' });
    for (const r of noServer) expect(r.body).toEqual({ error: 'no game server' });
    // A refused-for-overload check sent nothing: one datagram per check that ran.
    expect(silent.requests).toBe(noServer.length);

    const good = await fake('direct');
    expect((await selfClaim(loaded, { port: good.port })).status).toBe(200);
  });
});
