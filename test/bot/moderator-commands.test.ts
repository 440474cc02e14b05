import { PermissionFlagsBits } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeDiscord } from './support/fake-discord.ts';
import { deliver, member, option, slashCommand, type TestMember } from './support/interactions.ts';
import { ephemeralReply } from './support/replies.ts';
import { MODERATOR_ROLE_ID } from './support/snowflakes.ts';
import { startTestBot, type TestBot } from './support/test-bot.ts';

// /servers, /revoke, /minimum-version, /blocklist: refused unless the member is a moderator by
// our own check (the configured role or Manage Server), and then the same store operations as the CLI.

const discord = fakeDiscord();
let t: TestBot;

beforeAll(async () => {
  discord.server.listen({ onUnhandledRequest: 'error' });
  t = await startTestBot();
});
afterEach(() => discord.reset());
afterAll(async () => {
  await t?.close();
  discord.server.close();
});

const roleHolder = member('role holder', { roles: [MODERATOR_ROLE_ID] });
const serverManager = member('server manager', { permissions: PermissionFlagsBits.ManageGuild });
const admin = member('admin', { permissions: PermissionFlagsBits.Administrator });
const player = member('player', { roles: ['1234567890123456789'] });

async function run(...args: Parameters<typeof slashCommand>): Promise<string> {
  const payload = slashCommand(...args);
  await deliver(t.bot, payload);
  return ephemeralReply(discord, payload);
}

describe('who counts as a moderator', () => {
  const cases: [string, ReturnType<typeof slashCommand>][] = [
    ['/servers', slashCommand('servers', player)],
    ['/revoke', slashCommand('revoke', player, [option.string('server-id', crypto.randomUUID())])],
    [
      '/minimum-version set',
      slashCommand('minimum-version', player, [
        option.subcommand('set', [option.string('version', '9.9.9')]),
      ]),
    ],
    ['/minimum-version clear', slashCommand('minimum-version', player, [option.subcommand('clear')])],
    [
      '/blocklist add',
      slashCommand('blocklist', player, [option.subcommand('add', [option.integer('seed', 42)])]),
    ],
    [
      '/blocklist remove',
      slashCommand('blocklist', player, [option.subcommand('remove', [option.integer('seed', 42)])]),
    ],
  ];

  it.each(cases)('refuses %s to a member without the role or Manage Server', async (_name, payload) => {
    await t.store.addToBlocklist(42);
    await deliver(t.bot, payload);
    expect(ephemeralReply(discord, payload)).toBe('Only moderators can use this command.');
    // Nothing changed.
    expect((await t.store.getVersionInfo()).minimum).toBeNull();
    expect(await t.store.listBlocklist()).toContain(42);
    await t.store.removeFromBlocklist(42);
  });

  it.each([
    ['the moderator role', roleHolder],
    ['Manage Server', serverManager],
    ['Administrator', admin],
  ] as [string, TestMember][])('lets a member with %s in', async (_name, who) => {
    expect(await run('blocklist', who, [option.subcommand('add', [option.integer('seed', 7)])])).toContain(
      'Seed 7 is now on the blocklist',
    );
    await t.store.removeFromBlocklist(7);
  });

  it('ignores Manage Server held in another guild: the bot does nothing there', async () => {
    const payload = { ...slashCommand('servers', serverManager), guild_id: '1111111111111111111' };
    await deliver(t.bot, payload);
    expect(ephemeralReply(discord, payload)).toMatch(/^This bot serves another Discord server/);
  });
});

describe('/servers', () => {
  it('lists live registrations with label, kind, address and last report', async () => {
    const owner = member('keyholder');
    const key = await t.store.issueHttpKey({ owner: owner.id, label: 'stats *bot*' });
    const code = await t.store.issueClaimCode({});
    const plugin = await t.store.claimWithCode({ code: code.code, ip: '198.51.100.7', port: 7777 });
    if (plugin.status !== 'verified') throw new Error('claim failed');
    await t.store.reportSeed({
      serverId: plugin.serverId,
      kind: 'plugin',
      seed: 123_456,
      event: 'round_start',
    });

    const reply = await run('servers', roleHolder);
    expect(reply).toMatch(/^\d+ live registrations?, oldest first:/);
    const keyLine = reply.split('\n').find((l) => l.includes(key.serverId))!;
    expect(keyLine).toContain('`stats *bot*`');
    expect(keyLine).toContain(' · http · any address · last report never');
    expect(keyLine).toContain(`owner <@${owner.id}>`);
    const pluginLine = reply.split('\n').find((l) => l.includes(plugin.serverId))!;
    expect(pluginLine).toMatch(/\(no label\) · plugin · 198\.51\.100\.7:7777 · last report <t:\d+:R>/);
  });
});

describe('/revoke', () => {
  it('revokes a registration so its key stops working', async () => {
    const key = await t.store.issueHttpKey({ label: 'to revoke' });
    expect(await run('revoke', roleHolder, [option.string('server-id', key.serverId)])).toContain(
      `Revoked \`${key.serverId}\``,
    );
    expect(await t.store.authenticate(key.credential)).toBeNull();
    expect(await run('revoke', roleHolder, [option.string('server-id', key.serverId)])).toContain(
      'No live registration',
    );
  });

  it('says so for something that is not a server id', async () => {
    expect(await run('revoke', roleHolder, [option.string('server-id', 'abc')])).toContain(
      '`abc` is not a server id',
    );
  });
});

describe('/minimum-version', () => {
  it('sets and clears the minimum', async () => {
    expect(
      await run('minimum-version', serverManager, [
        option.subcommand('set', [option.string('version', '1.2.0')]),
      ]),
    ).toContain('Minimum plugin version is now 1.2.0');
    expect((await t.store.getVersionInfo()).minimum).toBe('1.2.0');

    expect(await run('minimum-version', serverManager, [option.subcommand('clear')])).toContain(
      'No minimum plugin version',
    );
    expect((await t.store.getVersionInfo()).minimum).toBeNull();
  });

  it.each(['v1.2.0', '1.2', 'latest'])('refuses %s with a clear message', async (version) => {
    expect(
      await run('minimum-version', serverManager, [
        option.subcommand('set', [option.string('version', version)]),
      ]),
    ).toBe(`\`${version}\` is not a version like 1.2.0 (three numbers, no "v").`);
    expect((await t.store.getVersionInfo()).minimum).toBeNull();
  });
});

describe('/blocklist', () => {
  it('adds and removes seeds on the permanent blocklist', async () => {
    const add = (seed: number) =>
      run('blocklist', roleHolder, [option.subcommand('add', [option.integer('seed', seed)])]);
    const remove = (seed: number) =>
      run('blocklist', roleHolder, [option.subcommand('remove', [option.integer('seed', seed)])]);

    expect(await add(224_593_721)).toContain('Seed 224593721 is now on the blocklist');
    expect(await t.store.listBlocklist()).toContain(224_593_721);
    expect(await add(224_593_721)).toContain('was already on the blocklist');

    expect(await remove(224_593_721)).toContain('Seed 224593721 is off the blocklist');
    expect(await t.store.listBlocklist()).not.toContain(224_593_721);
    expect(await remove(224_593_721)).toContain('was not on the blocklist');
  });

  it('refuses a seed outside the range', async () => {
    expect(
      await run('blocklist', roleHolder, [option.subcommand('add', [option.integer('seed', 0)])]),
    ).toContain('The seed must be an integer 1..2147483647');
  });
});
