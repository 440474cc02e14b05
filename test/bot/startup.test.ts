// Issue 33, items 1 (registration scopes) and 8 (say what is wrong at start), with `npm run bot` as
// a real process against the Discord stand-in: started without a moderator role or guild, with a
// review channel it may not post to and an audit channel that is gone, it says each once at
// start (not fatal), registers globally (emptying the guild it was in before), keeps what the
// channels refuse for later without a line per retry, and says once when a channel works again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../bot/commands/index.ts';
import { CLI_ACTOR } from '../../store/index.ts';
import { logged, startBotProcess, type BotProcess } from './support/bot-process.ts';
import { APPLICATION_ID, AUDIT_CHANNEL_ID, GUILD_ID, REVIEW_CHANNEL_ID } from './support/snowflakes.ts';

let p: BotProcess;

beforeAll(async () => {
  p = await startBotProcess(
    { DISCORD_GUILD_ID: '', DISCORD_MODERATOR_ROLE_ID: '' },
    async ({ discord, store }) => {
      discord.setChannel(REVIEW_CHANNEL_ID, 'no-send');
      discord.setChannel(AUDIT_CHANNEL_ID, 'gone');
      // An earlier start registered the commands in the guild.
      await store.rememberCommandGuild(GUILD_ID);
    },
  );
}, 90_000);
afterAll(async () => {
  expect(await p?.close()).toEqual({ code: 0, signal: null });
});

const warnings = (about: RegExp) => p.logs().filter((l) => l.level === 40 && about.test(String(l.msg)));

describe('npm run bot without a moderator role or guild, and with channels it cannot use', () => {
  it('registers its commands globally and empties the guild they were in before', () => {
    const puts = p.discord.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path, (r.body as unknown[]).length])).toEqual([
      [`/applications/${APPLICATION_ID}/commands`, COMMANDS.length],
      [`/applications/${APPLICATION_ID}/guilds/${GUILD_ID}/commands`, 0],
    ]);
  });

  it('says once, at warn, that nobody can moderate', async () => {
    const [line] = await logged(p, /nobody can moderate/);
    expect(line).toMatchObject({ level: 40 });
    expect(String(line!.msg)).toMatch(/moderators/);
    expect(warnings(/nobody can moderate/)).toHaveLength(1);
  });

  it('says once, at warn, that the review channel cannot be posted to and the audit channel cannot be read', async () => {
    const [review] = await logged(p, /^the review channel cannot be used/);
    expect(review).toMatchObject({
      level: 40,
      channel: REVIEW_CHANNEL_ID,
      setting: 'DISCORD_REVIEW_CHANNEL_ID',
    });
    expect(String(review!.msg)).toContain('SendMessages');
    const [audit] = await logged(p, /^the audit channel cannot be used/);
    expect(audit).toMatchObject({
      level: 40,
      channel: AUDIT_CHANNEL_ID,
      setting: 'DISCORD_AUDIT_CHANNEL_ID',
    });
    expect(String(audit!.msg)).toContain('Unknown Channel');
  });

  it('keeps a review the channel refuses, without a line per try; once it works: one line, and the review is posted', async () => {
    const code = await p.store.issueClaimCode({ ip: '203.0.113.5', port: 7777 });
    expect((await p.store.claimWithCode({ code: code.code, ip: '203.0.113.6', port: 7777 })).status).toBe(
      'review',
    );
    const posts = () =>
      p.discord.requests.filter(
        (r) => r.method === 'POST' && r.path === `/channels/${REVIEW_CHANNEL_ID}/messages`,
      );
    await p.discord.waitFor(posts, 2, 'two refused posts of the review');
    expect(warnings(/review channel/)).toHaveLength(1);
    expect(warnings(/review notices failed/)).toEqual([]);

    p.discord.setChannel(REVIEW_CHANNEL_ID, 'open');
    const [back] = await logged(p, /^the review channel can be used again$/);
    expect(back).toMatchObject({ level: 30, channel: REVIEW_CHANNEL_ID });
    await p.discord.waitFor(
      () => [...p.discord.messages.values()].filter((m) => m.channel_id === REVIEW_CHANNEL_ID),
      1,
      'the review posted',
    );
    expect(warnings(/review channel/)).toHaveLength(1);
  });

  it('skips audit lines the channel refuses (the trail stays in Redis); once it works: one line, and the next is posted', async () => {
    await p.store.addToBlocklist(515_151, { actor: CLI_ACTOR });
    const lines = () =>
      p.discord.requests.filter(
        (r) => r.method === 'POST' && r.path === `/channels/${AUDIT_CHANNEL_ID}/messages`,
      );
    await p.discord.waitFor(lines, 1, 'a refused audit line');
    expect(warnings(/audit/)).toHaveLength(1);

    p.discord.setChannel(AUDIT_CHANNEL_ID, 'open');
    await p.store.removeFromBlocklist(515_151, { actor: CLI_ACTOR });
    await logged(p, /^the audit channel can be used again$/);
    const [line] = await p.discord.waitFor(
      () => [...p.discord.messages.values()].filter((m) => m.channel_id === AUDIT_CHANNEL_ID),
      1,
      'the audit line',
    );
    expect(line!.content).toContain('The operator (CLI) removed seed 515151 from the blocklist.');
    expect(warnings(/audit/)).toHaveLength(1);
    expect((await p.store.listAudit({ target: '515151' })).map((e) => e.action)).toEqual([
      'blocklist.remove',
      'blocklist.add',
    ]);
  });
});
