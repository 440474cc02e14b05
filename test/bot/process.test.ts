import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewButtonId } from '../../bot/reviews/review-message.ts';
import type { Store } from '../../store/index.ts';
import {
  startDiscordStandIn,
  OP,
  type DiscordStandIn,
  type GatewayFrame,
} from '../support/fakes/discord-server.ts';
import { testPrefix } from '../support/api.ts';
import { spawnLogged, type LoggedProcess } from '../support/logged-process.ts';
import { botEnv, interact as interactWith } from './support/bot-process.ts';
import { buttonPress, member, slashCommand, type RawInteraction } from './support/interactions.ts';
import {
  APPLICATION_ID,
  BOT_TOKEN,
  GUILD_ID,
  MODERATOR_ROLE_ID,
  REVIEW_CHANNEL_ID,
} from './support/snowflakes.ts';
import { openTestStore } from '../support/test-store.ts';

// `npm run bot` as a real process (bot/main.ts), a real Redis, and Discord's stand-in on loopback
// (test/support/fakes/discord-server.ts) reached through DISCORD_API_URL: login over the gateway, slash
// commands registered despite a 429, a command answered, a review posted and decided by its
// button, a gateway drop and a RECONNECT resumed. One process goes through all of it, in order.

const RETRY_AFTER_SECONDS = 1;

let discord: DiscordStandIn;
let store: Store;
let bot: LoggedProcess;

/** Hands an interaction to the bot over the gateway and waits for its answer. */
const interact = (interaction: RawInteraction) => interactWith({ discord }, interaction);

const sent = (op: number) => () => discord.received.filter((f: GatewayFrame) => f.op === op);

beforeAll(async () => {
  discord = await startDiscordStandIn();
  // Discord's first answer to the registration is a 429: the bot must wait it out, then retry.
  discord.rateLimitNext('PUT', /\/commands$/, RETRY_AFTER_SECONDS);
  const prefix = testPrefix();
  store = await openTestStore({ prefix, clock: 'system', name: 'bot-process-test' });
  bot = spawnLogged('bot/main.ts', botEnv(discord, prefix));
});

afterAll(async () => {
  const exit = await bot?.stop(15_000);
  await Promise.all([discord?.close(), store?.close()]);
  // SIGTERM ends it cleanly.
  expect(exit).toEqual({ code: 0, signal: null });
});

describe('npm run bot against a Discord stand-in on loopback', { timeout: 120_000 }, () => {
  it('logs in: gateway address from GET /gateway/bot, IDENTIFY with the token, READY', async () => {
    const [identify] = await discord.waitFor(sent(OP.identify), 1, 'IDENTIFY');
    expect(identify!.d).toMatchObject({ token: BOT_TOKEN, intents: 0 });
    expect(discord.requests.find((r) => r.path === '/gateway/bot')?.headers.get('authorization')).toBe(
      `Bot ${BOT_TOKEN}`,
    );
    // Heartbeats start after HELLO (the stand-in asks for one a second).
    await discord.waitFor(sent(OP.heartbeat), 1, 'a heartbeat');
    await discord.waitFor(() => bot.stdout().match(/"msg":"bot connected"/g) ?? [], 1, '"bot connected"');
  });

  it('registers its slash commands in the guild, retrying a 429 only after retry_after', async () => {
    const path = `/applications/${APPLICATION_ID}/guilds/${GUILD_ID}/commands`;
    const puts = await discord.waitFor(
      () => discord.requests.filter((r) => r.method === 'PUT' && r.path === path),
      2,
      'the registration PUT and its retry',
    );
    expect(puts[1]!.at - puts[0]!.at).toBeGreaterThanOrEqual(RETRY_AFTER_SECONDS * 1000 - 50);
    const names = (puts[1]!.body as { name: string }[]).map((c) => c.name).sort();
    expect(names).toEqual([
      'blocklist',
      'claim',
      'help',
      'httpkey',
      'keys',
      'minimum-version',
      'revoke',
      'servers',
    ]);
    await discord.waitFor(
      () => bot.stdout().match(/"msg":"slash commands registered"/g) ?? [],
      1,
      'registered',
    );
  });

  it('answers a slash command that arrives over the gateway', async () => {
    const answer = await interact(slashCommand('httpkey', member('alice')));
    expect(answer.type).toBe(5); // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: its write may wait on replicas
    expect(answer.flags).toBe(64); // ephemeral
    expect(answer.content).toMatch(/Your HTTP key/);
  });

  it('posts a review to the moderators and records the decision of its button', async () => {
    const code = await store.issueClaimCode({ ip: '127.0.0.1', port: 7777 });
    await store.claimWithCode({ code: code.code, ip: '127.0.0.1', port: 7778 });
    const [review] = await store.listReviews();
    const [posted] = await discord.waitFor(
      () => [...discord.messages.values()].filter((m) => m.channel_id === REVIEW_CHANNEL_ID),
      1,
      'the review message',
    );
    expect(JSON.stringify(posted!.components)).toContain(reviewButtonId('approve', review!.id));

    const moderator = member('mod', { roles: [MODERATOR_ROLE_ID] });
    const answer = await interact(buttonPress(reviewButtonId('approve', review!.id), moderator, posted!));
    expect(answer.type).toBe(6); // DEFERRED_UPDATE_MESSAGE, then the message edited
    expect((await store.getReview(review!.id))?.status).toBe('approved');
  });

  it('resumes its session after the gateway connection drops, and answers again', async () => {
    const beforeDrop = discord.received.length;
    discord.drop();
    const [resume] = await discord.waitFor(
      () => discord.received.slice(beforeDrop).filter((f) => f.op === OP.resume),
      1,
      'RESUME',
    );
    expect(resume!.d).toMatchObject({
      token: BOT_TOKEN,
      session_id: expect.any(String),
      seq: expect.any(Number),
    });
    // A resumed session is not a new login.
    expect(sent(OP.identify)()).toHaveLength(1);
    // The stand-in answered RESUMED; a command on the resumed session is answered.
    expect(bot.alive()).toBe(true);
    const answer = await interact(slashCommand('httpkey', member('bob')));
    expect(answer.content).toMatch(/Your HTTP key/);
  });

  it('on RECONNECT (op 7) closes and resumes the same session', async () => {
    const before = discord.received.length;
    discord.reconnect();
    await discord.waitFor(
      () => discord.received.slice(before).filter((f) => f.op === OP.resume),
      1,
      'RESUME',
    );
    expect(sent(OP.identify)()).toHaveLength(1);
    const answer = await interact(slashCommand('httpkey', member('carol')));
    expect(answer.content).toMatch(/Your HTTP key/);
  });
});
