import { Client, Events, PermissionFlagsBits, type RESTOptions } from 'discord.js';
import type { Logger } from '../runtime/logger.ts';
import type { Config } from '../runtime/config.ts';
import type { Review, Store, StoreRedis } from '../store/index.ts';
import { startAuditFeed } from './audit/audit-feed.ts';
import { ChannelHealth } from './channel-health.ts';
import { COMMANDS } from './commands/index.ts';
import { deploymentOf } from './deployment.ts';
import { createInteractionHandler } from './interactions.ts';
import { loggableError } from './log-error.ts';
import { nobodyCanModerate } from './moderators.ts';
import { registerCommands } from './register-commands.ts';
import { reviewButtons } from './reviews/review-buttons.ts';
import { startReviewNotices, type ReviewNotices } from './reviews/review-notices.ts';
import { discordSettings, type DiscordSettings } from './settings.ts';
import type { Worker } from './worker-loop.ts';

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
   * Says at start, once, what keeps the bot from doing its work (not fatal): nobody can moderate,
   * or a channel it posts to cannot be read or posted to. Needs login() first.
   */
  checkSetup(): Promise<void>;
  /**
   * Works off review notices (posts new reviews, edits decided and closed ones, reminds of old
   * ones) until stopped; null (with a warning) when no review channel is set.
   */
  startReviewNotices(
    blocking: StoreRedis,
    options?: { timeoutSeconds?: number; onPosted?: (review: Review, messageId: string) => void },
  ): ReviewNotices | null;
  /** Follows the audit trail: a line per action in the audit channel, direct messages to those concerned. */
  startAuditFeed(blocking: StoreRedis, options?: { timeoutSeconds?: number }): Worker;
  /** Resolves once every interaction received so far has been answered. */
  idle(): Promise<void>;
  destroy(): Promise<void>;
}

/** What the bot needs in the channels it posts to. */
const POSTS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
const REVIEW_CHANNEL_NEEDS = POSTS | PermissionFlagsBits.EmbedLinks;

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
  const policy = { moderatorRoleId: settings.moderatorRoleId, guildId: settings.guildId };
  const reviewChannel = settings.reviewChannelId
    ? new ChannelHealth(logger, 'review', 'DISCORD_REVIEW_CHANNEL_ID', settings.reviewChannelId)
    : null;
  const auditChannel = settings.auditChannelId
    ? new ChannelHealth(logger, 'audit', 'DISCORD_AUDIT_CHANNEL_ID', settings.auditChannelId)
    : null;

  const handleInteraction = createInteractionHandler({
    store,
    logger,
    policy,
    deployment: deploymentOf(config),
    commands: COMMANDS,
    buttons: [reviewButtons],
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
    registerCommands: () => registerCommands({ rest: client.rest, store, logger }, settings, COMMANDS),
    async checkSetup() {
      if (nobodyCanModerate(policy)) {
        logger.warn(
          { settings: ['DISCORD_MODERATOR_ROLE_ID', 'DISCORD_GUILD_ID'] },
          'nobody can moderate: neither DISCORD_MODERATOR_ROLE_ID nor DISCORD_GUILD_ID is set, so no member is one of the moderators (moderator commands and review buttons refuse everyone)',
        );
      }
      const botUserId = client.user?.id;
      if (!botUserId) return;
      const checks = [
        reviewChannel?.check(client.rest, botUserId, REVIEW_CHANNEL_NEEDS),
        auditChannel?.check(client.rest, botUserId, POSTS),
      ];
      await Promise.all(
        checks.map((check) =>
          check?.catch((err: unknown) =>
            logger.warn({ err: loggableError(err) }, 'could not check a channel the bot posts to'),
          ),
        ),
      );
    },
    startReviewNotices(blocking, options = {}) {
      if (!reviewChannel) {
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
        health: reviewChannel,
        channelId: reviewChannel.channelId,
        moderatorRoleId: settings.moderatorRoleId,
        guildId: settings.guildId,
        blocking,
      });
    },
    startAuditFeed(blocking, options = {}) {
      return startAuditFeed({
        ...options,
        rest: client.rest,
        store,
        logger,
        channel: auditChannel,
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
