// The whole newcomer flow with the operator CLI as its own process (scripts/admin.ts) on the
// same Redis, prefix and manual clock as the API: issue a code, claim, review, approve, report.
// Each CLI call is a Node start-up (most of this suite's time), so the tests run side by side,
// each with its own API and key prefix, and use the CLI only where it is the thing under test.
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeA2sServer, type FakeA2sServer } from '../../support/fakes/a2s-server.ts';
import { adminEnv, runAdmin } from '../../support/admin-cli.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { from, pluginClaim, report } from '../../support/claims.ts';
import { MINUTE, setClock } from '../../support/clock.ts';
import type { Review } from '../../../store/index.ts';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanup.map((close) => close()));
});

async function newApi(): Promise<TestApi> {
  const api = await startTestApi();
  cleanup.push(() => api.close());
  return api;
}

async function newServer(): Promise<FakeA2sServer> {
  const server = await startFakeA2sServer({ mode: 'direct' });
  cleanup.push(() => server.close());
  return server;
}

const CURL = { 'user-agent': 'curl/8.5.0' };
/** The operator CLI on `api`'s Redis and prefix. */
const cli = (api: TestApi, ...args: string[]) => runAdmin(args, adminEnv(api.config.REDIS_PREFIX));

describe.concurrent('newcomer flow through the operator CLI', () => {
  it('code issue --ip/--port, claim from another port → 202, review list, review approve, resend → 200, report', async () => {
    const [api, server] = await Promise.all([newApi(), newServer()]);
    const now = await setClock(api, '2026-03-01T08:00:00.000Z');
    const expectedPort = server.port === 65535 ? server.port - 1 : server.port + 1;
    const issued = (await cli(api, 'code', 'issue', '--ip', '127.0.0.1', '--port', String(expectedPort))).ok<{
      code: string;
      expiresAt: string;
      expectedIp: string;
      expectedPort: number;
    }>();
    expect(issued).toEqual({
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/),
      expiresAt: new Date(now + 30 * MINUTE).toISOString(),
      expectedIp: '127.0.0.1',
      expectedPort,
    });
    const { code } = issued;

    // The game server on the fake's address, but on a port the code did not name.
    const claim = () => pluginClaim(api, { code, port: server.port, pluginVersion: '1.2.0' }, CURL);
    const first = await claim();
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      status: 'review',
      reason: 'port_mismatch',
      retryAfterSeconds: expect.any(Number),
    });

    const listed = (await cli(api, 'review', 'list')).ok<{ reviews: Review[] }>();
    expect(listed.reviews).toHaveLength(1);
    const review = listed.reviews[0]!;
    expect(review).toMatchObject({
      code,
      status: 'pending',
      expectedAddress: `127.0.0.1:${expectedPort}`,
      actualAddress: `127.0.0.1:${server.port}`,
      reason: 'port_mismatch',
      pluginVersion: '1.2.0',
    });

    expect((await claim()).status).toBe(202); // still waiting

    const approved = (await cli(api, 'review', 'approve', review.id)).ok();
    expect(approved).toMatchObject({ ok: true, id: review.id, decision: 'approved' });
    expect(await api.store.listReviews()).toEqual([]);

    const verified = await claim();
    expect(verified.status).toBe(200);
    expect(verified.body.status).toBe('verified');
    expect(await api.store.listRegistrations()).toEqual([
      expect.objectContaining({
        serverId: verified.body.serverId,
        kind: 'plugin',
        ip: '127.0.0.1',
        port: server.port,
      }),
    ]);

    const reported = await report(api, verified.body.credential, { seed: 31337, port: server.port });
    expect(reported.status).toBe(200);
    expect(reported.body).toEqual({ ok: true, blockedUntil: new Date(now + 60 * MINUTE).toISOString() });
  });

  it('code cancel: the cancelled code is 401; a second cancel fails', async () => {
    const api = await newApi();
    const { code } = await api.store.issueClaimCode();
    const cancelled = (await cli(api, 'code', 'cancel', code.toLowerCase())).ok();
    expect(cancelled).toMatchObject({ ok: true });
    expect(await api.store.cancelClaimCode(code)).toBe(false);
    const refused = await pluginClaim(api, { code, port: 27016 }, from('198.51.100.41'));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid code' });
  });

  it('review reject from the CLI: the resend is 403 claim rejected; a second decision is refused', async () => {
    const api = await newApi();
    const { code } = await api.store.issueClaimCode({ ip: '198.51.100.50', port: 7777 });
    const claim = () => pluginClaim(api, { code, port: 7777 }, from('198.51.100.51'));
    expect((await claim()).body).toMatchObject({ status: 'review', reason: 'ip_mismatch' });
    const [review] = await api.store.listReviews();
    const rejected = (await cli(api, 'review', 'reject', review!.id)).ok();
    expect(rejected).toMatchObject({ ok: true, id: review!.id, decision: 'rejected' });
    expect(await claim()).toMatchObject({ status: 403, body: { error: 'claim rejected' } });

    const again = (await cli(api, 'review', 'approve', review!.id)).failed(1);
    expect(again.error).toBe(`review ${review!.id} was already rejected by operator (CLI)`);
    expect(await claim()).toMatchObject({ status: 403 });
  });

  it('a review whose code then registers from its expected address: gone from review list, not decidable', async () => {
    const api = await newApi();
    const { code } = await api.store.issueClaimCode({ ip: '198.51.100.60', port: 7777 });
    const review = await pluginClaim(api, { code, port: 7777 }, from('198.51.100.61'));
    expect(review.body).toMatchObject({ status: 'review', reason: 'ip_mismatch' });
    const listed = (await cli(api, 'review', 'list')).ok<{ reviews: Review[] }>();
    expect(listed.reviews.map((r) => r.code)).toEqual([code]);
    const id = listed.reviews[0]!.id;

    const verified = await pluginClaim(api, { code, port: 7777 }, from('198.51.100.60'));
    expect(verified.status).toBe(200);
    expect((await cli(api, 'review', 'list')).ok()).toEqual({ reviews: [] });
    const approve = (await cli(api, 'review', 'approve', id)).failed(1);
    expect(approve.error).toBe(
      `review ${id} was superseded: its code registered the server from the expected address`,
    );
    // The registration the code made stands; the code is used up.
    expect(await api.store.listRegistrations()).toEqual([
      expect.objectContaining({ serverId: verified.body.serverId, ip: '198.51.100.60', port: 7777 }),
    ]);
    expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.61'))).status).toBe(401);
  });
});
