// Issue 18, point 3, for the bot: `npm run bot` (a real process, logged in to Discord's stand-in
// on loopback) writes one `error` line when its Redis dies and one `info` line when it is back,
// naming the address, and no ioredis stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordStandIn, type DiscordStandIn } from '../support/fakes/discord-server.ts';
import { testPrefix } from '../support/api.ts';
import { spawnLogged, type LoggedProcess } from '../support/logged-process.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { APPLICATION_ID, BOT_TOKEN } from './support/snowflakes.ts';

let discord: DiscordStandIn;
let redis: PrivateRedis;
let bot: LoggedProcess;

/** The bot's log lines whose msg starts with `start`. */
const linesStarting = (start: string) =>
  bot
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => typeof l.msg === 'string' && l.msg.startsWith(start));

beforeAll(async () => {
  discord = await startDiscordStandIn();
  redis = await startPrivateRedis({ name: 'bot-outage' });
  bot = spawnLogged('bot/main.ts', {
    NODE_ENV: 'test',
    REDIS_URL: redis.url,
    REDIS_PREFIX: testPrefix(),
    LOG_LEVEL: 'info',
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_TOKEN: BOT_TOKEN,
    DISCORD_APPLICATION_ID: APPLICATION_ID,
  });
  await discord.waitFor(() => bot.stdout().match(/"msg":"bot connected"/g) ?? [], 1, '"bot connected"');
}, 60_000);

afterAll(async () => {
  await bot?.stop(15_000);
  await Promise.all([discord?.close(), redis?.stop()]);
});

describe('npm run bot when its Redis goes away and comes back', () => {
  it('logs "Redis lost" once at error and "Redis back" once at info', async () => {
    await redis.kill('SIGKILL');
    await discord.waitFor(() => linesStarting('Redis lost'), 1, '"Redis lost"');
    await redis.restart();
    const [back] = await discord.waitFor(() => linesStarting('Redis back'), 1, '"Redis back"');
    expect(back).toMatchObject({ level: 30, name: 'bot', redis: redis.url, downMs: expect.any(Number) });
    expect(linesStarting('Redis lost')).toEqual([
      expect.objectContaining({ level: 50, name: 'bot', redis: redis.url }),
    ]);
    expect(linesStarting('Redis back')).toHaveLength(1);
    // An expected state: no ioredis internals on stderr.
    expect(bot.stderr()).not.toMatch(/ioredis|Stream isn't writeable/);
    expect(bot.alive()).toBe(true);
  }, 60_000);
});
