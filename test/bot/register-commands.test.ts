import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../bot/commands/index.ts';
import { fakeDiscord } from './support/fake-discord.ts';
import { APPLICATION_ID, BOT_TOKEN, GUILD_ID } from './support/snowflakes.ts';
import { startTestBot } from './support/test-bot.ts';

// On start the bot replaces its slash commands with one bulk PUT.

const discord = fakeDiscord();
beforeAll(() => discord.server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => discord.reset());
afterAll(() => discord.server.close());

const NAMES = ['claim', 'httpkey', 'servers', 'revoke', 'minimum-version', 'blocklist'];

describe('command registration', () => {
  it('PUTs every command definition to the guild when DISCORD_GUILD_ID is set', async () => {
    const t = await startTestBot();
    try {
      await t.bot.registerCommands();
    } finally {
      await t.close();
    }
    expect(discord.requests).toHaveLength(1);
    const [put] = discord.requests;
    expect(put!.method).toBe('PUT');
    expect(put!.path).toBe(`/applications/${APPLICATION_ID}/guilds/${GUILD_ID}/commands`);
    expect(put!.headers.get('authorization')).toBe(`Bot ${BOT_TOKEN}`);

    const body = put!.body as { name: string }[];
    expect(body.map((c) => c.name)).toEqual(NAMES);
    expect(body).toEqual(COMMANDS.map((c) => JSON.parse(JSON.stringify(c.definition))));
  });

  it('PUTs them globally without DISCORD_GUILD_ID', async () => {
    const t = await startTestBot({ DISCORD_GUILD_ID: '' });
    try {
      await t.bot.registerCommands();
    } finally {
      await t.close();
    }
    const [put] = discord.requests;
    expect(put!.path).toBe(`/applications/${APPLICATION_ID}/commands`);
    expect((put!.body as { name: string }[]).map((c) => c.name)).toEqual(NAMES);
  });

  it('defines the options each command takes', () => {
    const byName = Object.fromEntries(COMMANDS.map((c) => [c.definition.name, c.definition]));
    const optionNames = (name: string) => byName[name]!.options?.map((o) => o.name) ?? [];
    expect(optionNames('claim')).toEqual(['address']);
    expect(byName.claim!.options![0]).toMatchObject({ required: false });
    expect(optionNames('revoke')).toEqual(['server-id']);
    expect(optionNames('minimum-version')).toEqual(['set', 'clear']);
    expect(optionNames('blocklist')).toEqual(['add', 'remove']);
    // Moderator commands are for the guild only; who may run them is checked by the bot itself.
    for (const name of ['servers', 'revoke', 'minimum-version', 'blocklist']) {
      expect(byName[name]!.contexts).toEqual([0]);
      expect(COMMANDS.find((c) => c.definition.name === name)!.moderatorOnly).toBe(true);
    }
  });
});
