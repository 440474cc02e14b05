import { PermissionFlagsBits } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../bot/commands/index.ts';
import { testPrefix } from '../support/api.ts';
import { fakeDiscord } from './support/fake-discord.ts';
import { APPLICATION_ID, BOT_TOKEN, GUILD_ID, snowflake } from './support/snowflakes.ts';
import { startTestBot } from './support/test-bot.ts';

// On start the bot replaces its slash commands with one bulk PUT, and empties every other scope
// it knows of, so that no command ever shows twice.

const discord = fakeDiscord();
beforeAll(() => discord.server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => discord.reset());
afterAll(() => discord.server.close());

const NAMES = ['claim', 'httpkey', 'keys', 'servers', 'revoke', 'minimum-version', 'blocklist', 'help'];
const GLOBAL = `/applications/${APPLICATION_ID}/commands`;
const inGuild = (id: string) => `/applications/${APPLICATION_ID}/guilds/${id}/commands`;

/** Starts a bot on `prefix` with `guild` (or none), registers, and returns the PUTs it made. */
async function register(prefix: string, guild: string | null) {
  const t = await startTestBot({ REDIS_PREFIX: prefix, DISCORD_GUILD_ID: guild ?? '' });
  try {
    await t.bot.registerCommands();
  } finally {
    await t.close();
  }
  const puts = discord.requests.map((r) => ({
    method: r.method,
    path: r.path,
    body: r.body as { name: string }[],
  }));
  discord.reset();
  return puts;
}

describe('command registration', () => {
  it('with DISCORD_GUILD_ID: PUTs every command definition to the guild, and [] to the global scope', async () => {
    const t = await startTestBot();
    try {
      await t.bot.registerCommands();
    } finally {
      await t.close();
    }
    expect(discord.requests.map((r) => [r.method, r.path])).toEqual([
      ['PUT', inGuild(GUILD_ID)],
      ['PUT', GLOBAL],
    ]);
    const [put, global] = discord.requests;
    expect(put!.headers.get('authorization')).toBe(`Bot ${BOT_TOKEN}`);
    const body = put!.body as { name: string }[];
    expect(body.map((c) => c.name)).toEqual(NAMES);
    expect(body).toEqual(COMMANDS.map((c) => JSON.parse(JSON.stringify(c.definition))));
    expect(global!.body).toEqual([]);
  });

  it('switching scopes empties the one registered before: guild → global → another guild', async () => {
    const prefix = testPrefix();
    const other = snowflake();
    expect((await register(prefix, GUILD_ID)).map((p) => [p.path, p.body.length])).toEqual([
      [inGuild(GUILD_ID), NAMES.length],
      [GLOBAL, 0],
    ]);
    // Without DISCORD_GUILD_ID: the set goes global, and the guild it was in is emptied.
    expect((await register(prefix, null)).map((p) => [p.path, p.body.length])).toEqual([
      [GLOBAL, NAMES.length],
      [inGuild(GUILD_ID), 0],
    ]);
    // Global again: nothing else is known to empty.
    expect((await register(prefix, null)).map((p) => [p.path, p.body.length])).toEqual([
      [GLOBAL, NAMES.length],
    ]);
    // To another guild: global emptied; the first guild was emptied before.
    expect((await register(prefix, other)).map((p) => [p.path, p.body.length])).toEqual([
      [inGuild(other), NAMES.length],
      [GLOBAL, 0],
    ]);
    // And from it to the first guild: the other one is emptied.
    expect((await register(prefix, GUILD_ID)).map((p) => [p.path, p.body.length])).toEqual([
      [inGuild(GUILD_ID), NAMES.length],
      [GLOBAL, 0],
      [inGuild(other), 0],
    ]);
  });

  it('defines the options each command takes, where each works and who sees it', () => {
    const byName = Object.fromEntries(COMMANDS.map((c) => [c.definition.name, c.definition]));
    const optionNames = (name: string) => byName[name]!.options?.map((o) => o.name) ?? [];
    expect(optionNames('claim')).toEqual(['address']);
    expect(byName.claim!.options![0]).toMatchObject({ required: false });
    expect(optionNames('revoke')).toEqual(['server-id']);
    expect(byName.revoke!.options![0]).toMatchObject({ autocomplete: true });
    expect(optionNames('servers')).toEqual(['owner']);
    expect(optionNames('minimum-version')).toEqual(['set', 'clear']);
    expect(optionNames('blocklist')).toEqual(['add', 'remove']);
    // Every command is for the guild only (context 0): none answers in a direct message.
    for (const name of NAMES) expect(byName[name]!.contexts).toEqual([0]);
    // Moderator commands are shown to members who may manage the server (the bot checks itself too).
    const manageServer = String(PermissionFlagsBits.ManageGuild);
    for (const name of ['servers', 'revoke', 'minimum-version', 'blocklist']) {
      expect(byName[name]!.default_member_permissions).toBe(manageServer);
      expect(COMMANDS.find((c) => c.definition.name === name)!.moderatorOnly).toBe(true);
    }
    for (const name of ['claim', 'httpkey', 'keys', 'help']) {
      expect(byName[name]!.default_member_permissions ?? null).toBeNull();
      expect(COMMANDS.find((c) => c.definition.name === name)!.moderatorOnly).toBe(false);
    }
  });
});
