import { Client, Events, type RESTOptions } from 'discord.js';
import type { Logger } from '../runtime/logger.ts';
import type { Config } from '../runtime/config.ts';
import type { Review, Store, StoreRedis } from '../store/index.ts';
import { COMMANDS } from './commands/index.ts';
import { createInteractionHandler } from './interactions.ts';
import { loggableError } from './log-error.ts';
import { registerCommands } from './register-commands.ts';
import { startReviewNotices, type ReviewNotices } from './reviews/review-notices.ts';
import { discordSettings, type DiscordSettings } from './settings.ts';

export interface BotOptions {
  config: Config;
  store: Store;
  logger: Logger;
  /** discord.js REST options; tests pass a makeRequest that goes through the global fetch. */
  rest?: Partial<RESTOptions>;
}

export interface Bot {
  readonly client: Client;
  readonly settings: DiscordSettings;
  /** Connects to the gateway; interactions arrive from then on. */
  login(): Promise<void>;
  registerCommands(): Promise<void>;
  /**
   * Works off review notices (posts new reviews, edits superseded ones) until stopped; null (with
   * a warning) when no review channel is set.
   */
  startReviewNotices(
    blocking: StoreRedis,
    options?: { timeoutSeconds?: number; onPosted?: (review: Review, messageId: string) => void },
  ): ReviewNotices | null;
  /** Resolves once every interaction received so far has been answered. */
  idle(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * The bot without its gateway connection: REST is ready (token set), interactions are handled as
 * the client emits them. main.ts logs in; tests feed raw interactions to the client instead.
 */
export function createBot({ config, store, logger, rest }: BotOptions): Bot {
  const settings = discordSettings(config);
  // No intents: the bot only answers interactions, which carry the member's roles and permissions,
  // and posts through REST; it needs no guild, member or message events.
  const client = new Client({
    intents: [],
    rest: { api: config.DISCORD_API_URL, ...rest },
    allowedMentions: { parse: [] },
  });
  client.rest.setToken(settings.token);

  const handleInteraction = createInteractionHandler({
    store,
    logger,
    policy: { moderatorRoleId: settings.moderatorRoleId, guildId: settings.guildId },
    commands: COMMANDS,
  });
  const inFlight = new Set<Promise<void>>();
  client.on(Events.InteractionCreate, (interaction) => {
    const handled = handleInteraction(interaction).finally(() => inFlight.delete(handled));
    inFlight.add(handled);
  });
  client.on(Events.Error, (err) => logger.error({ err: loggableError(err) }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, 'discord client warning'));
  client.once(Events.ClientReady, (ready) => logger.info({ user: ready.user.tag }, 'bot connected'));

  return {
    client,
    settings,
    async login() {
      await client.login(settings.token);
    },
    async registerCommands() {
      await registerCommands(client.rest, settings, COMMANDS);
      logger.info(
        { guild: settings.guildId ?? 'global', count: COMMANDS.length },
        'slash commands registered',
      );
    },
    startReviewNotices(blocking, options = {}) {
      if (!settings.reviewChannelId) {
        logger.warn(
          'DISCORD_REVIEW_CHANNEL_ID is not set: reviews are not posted (the CLI still lists them)',
        );
        return null;
      }
      return startReviewNotices({
        ...options,
        rest: client.rest,
        store,
        logger,
        channelId: settings.reviewChannelId,
        blocking,
      });
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async destroy() {
      await client.destroy();
    },
  };
}
