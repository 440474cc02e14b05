import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedCredential } from '../../store/credentials.ts';
import { manualClock } from '../../store/clock.ts';
import { SEED_MAX, type Store } from '../../store/index.ts';
import { RegistrationSchema } from '../../store/registrations.ts';
import { startTestApi, testPrefix, type TestApi } from '../support/api.ts';
import { adminEnv, runAdmin, spawnAdmin } from '../support/admin-cli.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { openTestStore } from '../support/test-store.ts';

// README "Operator CLI": `npm run --silent admin -- <command>` prints one JSON object on stdout;
// failures are an {"error"} object with exit code 1 (2 for a usage error). Run here in-process
// (scripts/admin.ts `run`, what the command runs) against the test redis-server under a fresh
// prefix, checked against an API on the same prefix; one smoke test runs the command itself as a
// child process (each costs a CPU-second or two of start-up).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NULL_VERSION = { latest: null, minimum: null, downloadUrl: null };

let api: TestApi;
const adminOn = (prefix: string, ...args: string[]) => runAdmin(args, adminEnv(prefix));
const admin = (...args: string[]) => adminOn(api.config.REDIS_PREFIX, ...args);

/** A store on a prefix of its own, for a test that must see everything on it. */
async function ownStore(): Promise<Store> {
  const store = await openTestStore({ name: 'cli-test' });
  return store;
}
let own: Store;

beforeAll(async () => {
  api = await startTestApi({ REDIS_PREFIX: testPrefix() });
  own = await ownStore();
});
afterAll(async () => {
  await Promise.all([api.close(), own.close()]);
});

describe('the command itself', () => {
  it('prints one JSON line and exits 0 with a result, 2 with a usage error', async () => {
    // Child processes take seconds to start on a loaded machine.
    const [issued, usage] = await Promise.all([
      spawnAdmin(['httpkey', 'issue', '--label', 'smoke'], adminEnv(api.config.REDIS_PREFIX)),
      spawnAdmin(['blocklist', 'add', '-5'], { NODE_ENV: 'test', REDIS_URL: 'redis://127.0.0.1:1' }),
    ]);
    const key = issued.ok();
    expect(isWellFormedCredential(String(key.credential))).toBe(true);
    expect((await api.store.listRegistrations()).map((s) => s.serverId)).toContain(key.serverId);
    expect(usage.failed(2)).toEqual({
      error: `seed must be an integer from 1 to ${SEED_MAX}`,
      usage: 'blocklist add <seed>',
    });
  }, 120_000);
});

describe.concurrent('operator CLI', () => {
  it('httpkey issue → one JSON line; the key works on the API; the 4th for an owner is refused', async () => {
    const first = (await admin('httpkey', 'issue', '--owner', 'x', '--label', 'bench box')).ok();
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
    fourth.failed(1);

    const list = listed.ok();
    // Without --limit every live registration, so there is no next page.
    expect(list).toMatchObject({ nextCursor: null });
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
    expect((await admin('revoke', String(first.serverId))).ok()).toEqual({
      ok: true,
      serverId: first.serverId,
    });
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

    expect((await admin('version', 'set-minimum', '1.2.0')).ok()).toEqual({
      ...NULL_VERSION,
      minimum: '1.2.0',
    });
    const res = await sendReport(api, key.credential, outdated);
    expect(res.status).toBe(426);
    expect(res.body).toMatchObject({ error: 'plugin_outdated', minimum: '1.2.0' });

    // A minimum that is not x.y.z is a usage error in plain words, and changes nothing.
    const [banana, shown] = await Promise.all([
      admin('version', 'set-minimum', 'banana'),
      admin('version', 'show'),
    ]);
    expect(banana.failed(2)).toEqual({
      error: 'the version must look like 1.2.0 (three numbers, no "v")',
      usage: 'version set-minimum <x.y.z>',
    });
    expect(shown.ok()).toEqual({ ...NULL_VERSION, minimum: '1.2.0' });
    expect((await api.store.getVersionInfo()).minimum).toBe('1.2.0');

    expect((await admin('version', 'clear-minimum')).ok()).toEqual(NULL_VERSION);
    expect((await sendReport(api, key.credential, outdated)).status).toBe(200);
  });

  it('revoke of an unknown server → exit 1 {error}; an unknown command → exit 2 {error}', async () => {
    const [unknownId, unknownCommand] = await Promise.all([
      admin('revoke', '00000000-0000-4000-8000-000000000000'),
      admin('frobnicate', 'everything'),
    ]);
    unknownId.failed(1);
    unknownCommand.failed(2);
  });

  it("reads back what it writes: blocklist, live codes, an owner's keys, open windows", async () => {
    const prefix = own.ctx.prefix;
    await own.addToBlocklist(42);
    await own.addToBlocklist(7);
    const open = await own.issueClaimCode({ ip: '127.0.0.1', port: 7777 });
    const cancelled = await own.issueClaimCode();
    await own.cancelClaimCode(cancelled.code);
    // A claim from another port puts this code under review: its holder may register once it is
    // approved, so the list never shows it.
    const reviewed = await own.issueClaimCode({ ip: '127.0.0.1', port: 7777 });
    await own.claimWithCode({ code: reviewed.code, ip: '127.0.0.1', port: 7778 });
    const [bobs, alices] = [
      await own.issueHttpKey({ owner: 'bob' }),
      await own.issueHttpKey({ owner: 'alice' }),
    ];
    const report = await own.reportSeed({
      serverId: bobs.serverId,
      kind: 'http',
      seed: 99,
      event: 'round_start',
    });
    expect(report.outcome).toBe('opened');

    const [blocklist, codes, bobsKeys, allKeys, windows] = await Promise.all([
      adminOn(prefix, 'blocklist', 'list'),
      adminOn(prefix, 'code', 'list'),
      adminOn(prefix, 'httpkey', 'list', '--owner', 'bob'),
      adminOn(prefix, 'httpkey', 'list'),
      adminOn(prefix, 'windows', 'list'),
    ]);
    expect(blocklist.ok()).toEqual({ seeds: [7, 42] });
    expect(codes.ok()).toEqual({ codes: [{ ...open, issuedBy: null }] });
    expect(codes.stdout).not.toContain(reviewed.code);
    const keyIds = (out: Record<string, unknown>) =>
      RegistrationSchema.array()
        .parse(out.keys)
        .map((k) => k.serverId)
        .sort();
    expect(keyIds(bobsKeys.ok())).toEqual([bobs.serverId]);
    expect(keyIds(allKeys.ok())).toEqual([bobs.serverId, alices.serverId].sort());
    expect(allKeys.stdout).not.toContain(bobs.credential);
    expect(windows.ok()).toEqual({
      windows: [
        {
          seed: 99,
          serverId: bobs.serverId,
          server: { kind: 'http', owner: 'bob', clientName: null, ip: null, port: null },
          openedAt: expect.any(String),
          until: new Date(Number(report.blockedUntil)).toISOString(),
        },
      ],
    });
  });

  it('servers list pages by --limit and --cursor, of one --kind, and covers every server once', async () => {
    const store = await ownStore();
    try {
      // Issued at the same manual instant, so the cursor must also order by id within one time.
      const http = [];
      for (let i = 0; i < 5; i++) http.push((await store.issueHttpKey()).serverId);
      await store
        .issueClaimCode()
        .then((c) => store.claimWithCode({ code: c.code, ip: '127.0.0.1', port: 7777 }));
      await manualClock(store.ctx.redis, store.ctx.prefix).advance(1000);
      for (let i = 0; i < 2; i++) http.push((await store.issueHttpKey()).serverId);

      const list = (...args: string[]) =>
        adminOn(store.ctx.prefix, 'servers', 'list', '--kind', 'http', ...args);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let pages = 1; ; pages++) {
        const page = (await list('--limit', '3', ...(cursor ? ['--cursor', cursor] : []))).ok();
        const servers = RegistrationSchema.array().parse(page.servers);
        expect(servers.length).toBeLessThanOrEqual(3);
        expect(servers.every((s) => s.kind === 'http')).toBe(true);
        seen.push(...servers.map((s) => s.serverId));
        cursor = page.nextCursor as string | null;
        if (!cursor) {
          expect(pages).toBe(3);
          break;
        }
      }
      expect(seen.sort()).toEqual(http.sort());

      const [badCursor, badKind] = await Promise.all([list('--cursor', 'nonsense'), list('--kind', 'ftp')]);
      expect(badCursor.failed(2).usage).toMatch(/^servers list/);
      expect(badKind.failed(2).error).toBe('--kind must be one of plugin, self, http');
    } finally {
      await store.close();
    }
  });

  it('--help and help <command> exit 0; usage errors exit 2 in plain words, checked before Redis', async () => {
    // No Redis at all behind these: help and usage errors never need it.
    const offline = (...args: string[]) =>
      runAdmin(args, { NODE_ENV: 'test', REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' });
    const [help, helpFlag, helpOne, helpGroup, negative, tooBig, unknownOption, missing, helpUnknown] =
      await Promise.all([
        offline('help'),
        offline('--help'),
        offline('help', 'servers', 'list'),
        offline('blocklist', '--help'),
        offline('blocklist', 'add', '-5'),
        offline('blocklist', 'add', String(SEED_MAX + 1)),
        offline('code', 'issue', '--colour', 'red'),
        offline('revoke'),
        offline('help', 'frobnicate'),
      ]);
    const commands = help.ok().commands as string[];
    for (const name of [
      'blocklist list',
      'code list',
      'httpkey list',
      'version show',
      'windows list',
      'servers list',
    ]) {
      expect(commands.some((c) => c.startsWith(name))).toBe(true);
    }
    expect(helpFlag.ok()).toEqual(help.ok());
    expect(helpOne.ok()).toMatchObject({ usage: expect.stringMatching(/^servers list .*--cursor/) });
    expect(helpGroup.ok().commands).toEqual(commands.filter((c) => c.startsWith('blocklist ')));
    expect(helpGroup.ok().commands).toContainEqual(expect.stringMatching(/^blocklist list/));
    const range = { error: `seed must be an integer from 1 to ${SEED_MAX}`, usage: 'blocklist add <seed>' };
    expect(negative.failed(2)).toEqual(range);
    expect(tooBig.failed(2)).toEqual(range);
    expect(unknownOption.failed(2)).toMatchObject({ error: 'unknown option --colour' });
    expect(missing.failed(2)).toEqual({ error: 'missing <serverId>', usage: 'revoke <serverId>' });
    expect(helpUnknown.failed(2).usage).toEqual(expect.any(String));
  });
});
