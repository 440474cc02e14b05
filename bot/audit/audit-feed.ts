import { DiscordAPIError, Routes, type REST } from 'discord.js';
import type { Logger } from '../../runtime/logger.ts';
import type { AuditEntry, Store, StoreRedis } from '../../store/index.ts';
import type { ChannelHealth } from '../channel-health.ts';
import { loggableError } from '../log-error.ts';
import { runWorker, type Worker } from '../worker-loop.ts';
import { auditLine } from './audit-line.ts';
import { sendDirectMessage, tellingOf } from './tell-members.ts';

// Follows the audit trail (the stream every audited action is written to, by the bot, the CLI or
// anything else), entry by entry in order: posts each as one line to the audit channel (when
// DISCORD_AUDIT_CHANNEL_ID is set) and tells the member it concerns by direct message. Where it
// stands is kept in Redis and moved only once an entry is done, so a bot that stops picks up
// where it was: at least once. What Discord refuses for good (a closed channel, a member who
// takes no direct messages) is said and skipped; anything else is tried again after a pause.

export interface AuditFeedOptions {
  rest: REST;
  store: Store;
  logger: Logger;
  /** The audit channel; null when none is set. */
  channel: ChannelHealth | null;
  /** A connection of its own (connectRedis with blocking: true), as XREAD BLOCK holds it. */
  blocking: StoreRedis;
  /** How long one read waits. */
  timeoutSeconds?: number;
}

/** Discord refusing this request for good (not a 429, which discord.js waits out, nor a 5xx). */
const refusedForGood = (err: unknown) => err instanceof DiscordAPIError && err.status < 500;

export function startAuditFeed(options: AuditFeedOptions): Worker {
  const { rest, store, logger, channel, blocking, timeoutSeconds = 5 } = options;

  const skip = (err: unknown, entry: AuditEntry, what: string) => {
    if (!refusedForGood(err)) throw err;
    logger.warn(
      { err: loggableError(err), audit: entry.id, action: entry.action },
      `${what} refused; skipped`,
    );
  };

  const follow = async (entry: AuditEntry) => {
    if (channel) {
      try {
        await rest.post(Routes.channelMessages(channel.channelId), { body: auditLine(entry) });
        channel.usable();
      } catch (err) {
        if (!channel.refusedBy(err)) skip(err, entry, 'posting an audit line');
      }
    }
    const telling = await tellingOf(store, entry);
    if (telling) {
      try {
        if ((await sendDirectMessage(rest, logger, telling)) === 'sent')
          logger.info({ user: telling.userId, action: entry.action }, 'member told by direct message');
      } catch (err) {
        skip(err, entry, 'a direct message');
      }
    }
  };

  let after: string | null = null;
  return runWorker({
    logger,
    what: 'following the audit trail',
    interrupt: () => blocking.disconnect(),
    step: async () => {
      after ??= await store.auditFollowed();
      for (const entry of await store.nextAuditEntries(blocking, after, timeoutSeconds)) {
        await follow(entry);
        await store.markAuditFollowed(entry.id);
        after = entry.id;
      }
    },
  });
}
