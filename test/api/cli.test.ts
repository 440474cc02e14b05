import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isWellFormedCredential } from '../../store/credentials.ts';
import { RegistrationSchema } from '../../store/registrations.ts';
import { startTestApi, testPrefix, type TestApi } from '../support/api.ts';
import { oneJsonLine, runAdmin, type ChildResult } from '../support/child.ts';
import { sendReport, validReport } from '../support/requests.ts';

// README "Operator CLI": `npm run --silent admin -- <command>` prints one JSON object on stdout;
// failures are an {"error"} object with exit code 1 (2 for a usage error). Run here as real child
// processes against the test redis-server under a fresh prefix, checked against an API process
// on the same prefix. Each child costs about half a CPU-second, so there are few of them.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NULL_VERSION = { latest: null, minimum: null, downloadUrl: null };

function ok(result: ChildResult): Record<string, unknown> {
  expect(result.code, result.stderr || result.stdout).toBe(0);
  return oneJsonLine(result.stdout);
}

function failed(result: ChildResult, code: number): Record<string, unknown> {
  expect(result.code, result.stdout).toBe(code);
  const body = oneJsonLine(result.stdout);
  expect(typeof body.error).toBe('string');
  return body;
}

let api: TestApi;
const admin = (...args: string[]) =>
  runAdmin(args, {
    NODE_ENV: 'test',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: api.config.REDIS_PREFIX,
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'silent',
  });

beforeAll(async () => {
  api = await startTestApi({ REDIS_PREFIX: testPrefix() });
});
afterAll(async () => {
  await api.close();
});

describe.concurrent('operator CLI', () => {
  it('httpkey issue → one JSON line; the key works on the API; the 4th for an owner is refused', async () => {
    const first = ok(await admin('httpkey', 'issue', '--owner', 'x', '--label', 'bench box'));
    expect(Object.keys(first).sort()).toEqual(['credential', 'issuedAt', 'serverId']);
    expect(first.serverId).toMatch(UUID);
    expect(isWellFormedCredential(String(first.credential))).toBe(true);
    expect(new Date(String(first.issuedAt)).toISOString()).toBe(first.issuedAt);

    // The issued key works against an API process on the same prefix.
    const report = await sendReport(api, String(first.credential), validReport({ event: 'round_end' }), {
      path: '/v1/servers/report',
    });
    expect(report.status).toBe(200);

    // Two more for the owner (as the bot issues them), then the CLI's 4th is refused.
    const more = [await api.store.issueHttpKey({ owner: 'x' }), await api.store.issueHttpKey({ owner: 'x' })];
    const [fourth, listed] = await Promise.all([
      admin('httpkey', 'issue', '--owner', 'x'),
      admin('servers', 'list'),
    ]);
    failed(fourth, 1);

    const list = ok(listed);
    expect(Object.keys(list)).toEqual(['servers']);
    const servers = RegistrationSchema.array().parse(list.servers);
    // (The other tests here issue keys without an owner at the same time.)
    const ownersKeys = servers.filter((s) => s.owner === 'x').map((s) => s.serverId);
    expect(ownersKeys.sort()).toEqual([first.serverId, ...more.map((k) => k.serverId)].sort());
    expect(servers.find((s) => s.serverId === first.serverId)).toMatchObject({
      kind: 'http',
      owner: 'x',
      clientName: 'bench box',
      ip: null,
      revokedAt: null,
      lastReportAt: expect.any(String),
    });
    // The list never shows a credential.
    for (const credential of [first.credential, ...more.map((k) => k.credential)]) {
      expect(listed.stdout).not.toContain(String(credential));
    }

    // Revoke: {ok, serverId}; the key stops working, leaves the list and frees its owner's slot.
    expect(ok(await admin('revoke', String(first.serverId)))).toEqual({ ok: true, serverId: first.serverId });
    const refused = await sendReport(api, String(first.credential), validReport(), {
      path: '/v1/servers/report',
    });
    expect(refused.status).toBe(401);
    expect((await api.store.listRegistrations()).map((s) => s.serverId)).not.toContain(first.serverId);
    await expect(api.store.issueHttpKey({ owner: 'x' })).resolves.toHaveProperty('credential');
  });

  it('version set-minimum and clear-minimum, as the API sees them', async () => {
    const key = await api.store.issueHttpKey();
    const outdated = validReport({ event: 'round_end', pluginVersion: '1.1.0' });

    expect(ok(await admin('version', 'set-minimum', '1.2.0'))).toEqual({ ...NULL_VERSION, minimum: '1.2.0' });
    const res = await sendReport(api, key.credential, outdated);
    expect(res.status).toBe(426);
    expect(res.body).toMatchObject({ error: 'plugin_outdated', minimum: '1.2.0' });

    // A minimum that is not x.y.z is refused and changes nothing.
    failed(await admin('version', 'set-minimum', 'banana'), 1);
    expect((await api.store.getVersionInfo()).minimum).toBe('1.2.0');

    expect(ok(await admin('version', 'clear-minimum'))).toEqual(NULL_VERSION);
    expect((await sendReport(api, key.credential, outdated)).status).toBe(200);
  });

  it('revoke of an unknown server → exit 1 {error}; an unknown command → exit 2 {error}', async () => {
    const [unknownId, unknownCommand] = await Promise.all([
      admin('revoke', '00000000-0000-4000-8000-000000000000'),
      admin('frobnicate', 'everything'),
    ]);
    failed(unknownId, 1);
    failed(unknownCommand, 2);
  });
});
