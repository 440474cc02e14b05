import type { RESTOptions } from 'discord.js';
import { createLogger, type Logger } from '../../../runtime/logger.ts';
import { createBot, type Bot } from '../../../bot/bot.ts';
import { loadConfig, type Config } from '../../../runtime/config.ts';
import type { Store } from '../../../store/index.ts';
import { testEnv } from '../../support/api.ts';
import { APPLICATION_ID, BOT_TOKEN, GUILD_ID, MODERATOR_ROLE_ID, REVIEW_CHANNEL_ID } from './snowflakes.ts';
import { openTestStore } from '../../support/test-store.ts';

type MakeRequest = RESTOptions['makeRequest'];

/** Looks the global fetch up per call (msw replaces it), instead of undici's own request. */
const viaGlobalFetch: MakeRequest = (url, init) =>
  fetch(url, init as RequestInit) as unknown as ReturnType<MakeRequest>;

export interface TestBot {
  bot: Bot;
  store: Store;
  config: Config;
  close(): Promise<void>;
}

/**
 * The bot over a real store (fresh key prefix) without a gateway connection. Its REST calls go
 * through the global fetch at call time, so msw's interception (set up by the suite) sees them.
 */
export async function startTestBot(
  overrides: Record<string, string> = {},
  logger: Logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'bot'),
): Promise<TestBot> {
  const config = loadConfig(
    testEnv({
      SEEDBLOCK_CLOCK: 'system',
      DISCORD_TOKEN: BOT_TOKEN,
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_GUILD_ID: GUILD_ID,
      DISCORD_REVIEW_CHANNEL_ID: REVIEW_CHANNEL_ID,
      DISCORD_MODERATOR_ROLE_ID: MODERATOR_ROLE_ID,
      ...overrides,
    }),
  );
  const store = await openTestStore({
    redisUrl: config.REDIS_URL!,
    prefix: config.REDIS_PREFIX,
    clock: config.SEEDBLOCK_CLOCK,
    name: 'test-bot',
  });
  const bot = createBot({
    config,
    store,
    logger,
    rest: { makeRequest: viaGlobalFetch, retries: 0 },
  });
  return {
    bot,
    store,
    config,
    async close() {
      await bot.idle();
      await bot.destroy();
      await store.close();
    },
  };
}
