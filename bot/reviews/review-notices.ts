import { DiscordAPIError, RESTJSONErrorCodes, Routes, type APIMessage, type REST } from 'discord.js';
import type { Logger } from '../../runtime/logger.ts';
import { REVIEW_REMIND_AFTER_MS, type Review, type Store, type StoreRedis } from '../../store/index.ts';
import type { ChannelHealth } from '../channel-health.ts';
import { runWorker, type Worker } from '../worker-loop.ts';
import { reviewMessage } from './review-message.ts';

// Keeps the moderators' channel showing each review as it stands. The store hands notices over
// with BLMOVE (reviews:notify → reviews:posting) and forgets one only once markReviewPosted
// recorded the message, so a notice taken by a bot that stopped before showing it is still in
// reviews:posting: on start, and after any failure, those are shown (again) first. A review
// without a message is posted (mentioning the moderator role once, when it is pending); one with
// a message (a later notice: decided or closed) has its message edited to its current state. At
// least once, never lost; showing twice is harmless. Every SWEEP_EVERY_MS the pending reviews are
// looked over: those whose code is gone close, and one pending REVIEW_REMIND_AFTER_MS is brought
// up again, once.

const SWEEP_EVERY_MS = 5_000;

export interface ReviewChannel {
  rest: REST;
  store: Store;
  channelId: string;
  /** The role a new review and a reminder mention; null: none. */
  moderatorRoleId: string | null;
  /** For the link to a review message in a reminder; null: no link. */
  guildId: string | null;
}

const needsReview = 'A claim needs a moderator’s review.';

/** Mentions the moderator role (only it) when one is set. */
function rolePing(roleId: string | null, text: string) {
  return {
    content: roleId ? `<@&${roleId}> ${text}` : text,
    allowed_mentions: { parse: [], roles: roleId ? [roleId] : [] },
  };
}

/**
 * Posts or edits the message of one review; returns its id, or null when the message to edit
 * is gone from the channel (deleted: there is nothing left to update).
 */
export async function showReview(
  { rest, store, channelId, moderatorRoleId }: ReviewChannel,
  review: Review,
): Promise<string | null> {
  if (review.messageId) {
    let gone = false;
    try {
      // Once decided or closed, the line that called the moderators goes too.
      const content = review.status === 'pending' ? undefined : '';
      await rest.patch(Routes.channelMessage(channelId, review.messageId), {
        body: { ...reviewMessage(review), content, allowed_mentions: { parse: [] } },
      });
    } catch (err) {
      if (!(err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage)) throw err;
      gone = true;
    }
    await store.markReviewPosted(review.id, review.messageId);
    return gone ? null : review.messageId;
  }
  const ping =
    review.status === 'pending'
      ? rolePing(moderatorRoleId, needsReview)
      : { allowed_mentions: { parse: [] } };
  const message = (await rest.post(Routes.channelMessages(channelId), {
    body: { ...reviewMessage(review), ...ping },
  })) as APIMessage;
  await store.markReviewPosted(review.id, message.id);
  return message.id;
}

/** Brings a review pending REVIEW_REMIND_AFTER_MS up again, with the role mentioned. */
async function remindOf({ rest, channelId, moderatorRoleId, guildId }: ReviewChannel, review: Review) {
  const where =
    guildId && review.messageId
      ? `https://discord.com/channels/${guildId}/${channelId}/${review.messageId}`
      : `review \`${review.id}\``;
  const minutes = REVIEW_REMIND_AFTER_MS / 60_000;
  await rest.post(Routes.channelMessages(channelId), {
    body: rolePing(moderatorRoleId, `A claim review has waited ${minutes} minutes for a decision: ${where}`),
  });
}

export interface ReviewNoticeOptions extends ReviewChannel {
  logger: Logger;
  health: ChannelHealth;
  /** A connection of its own (connectRedis with blocking: true), as BLMOVE holds it; stop() closes it. */
  blocking: StoreRedis;
  /** How long one BLMOVE waits. */
  timeoutSeconds?: number;
  /** Called after each review message posted or updated (tests wait on it). */
  onPosted?: (review: Review, messageId: string) => void;
}

export type ReviewNotices = Worker;

export function startReviewNotices(options: ReviewNoticeOptions): ReviewNotices {
  const { store, logger, blocking, health, timeoutSeconds = 5 } = options;

  const show = async (review: Review) => {
    const messageId = await showReview(options, review);
    health.usable();
    const fields = { review: review.id, status: review.status, messageId: messageId ?? review.messageId };
    if (messageId === null) return logger.info(fields, 'review message deleted; nothing to update');
    logger.info(fields, review.messageId ? 'review message updated' : 'review posted');
    options.onPosted?.(review, messageId);
  };
  const remind = async (review: Review) => {
    await remindOf(options, review);
    health.usable();
    await store.markReviewReminded(review.id);
    logger.info({ review: review.id }, 'review reminded');
  };

  let backlog = true;
  let nextSweep = 0;
  return runWorker({
    logger,
    what: 'posting review notices',
    interrupt: () => blocking.disconnect(),
    alreadySaid: (err) => health.refusedBy(err),
    step: async () => {
      try {
        if (backlog) {
          for (const review of await store.reviewsAwaitingPost()) await show(review);
          backlog = false;
        }
        if (Date.now() >= nextSweep) {
          nextSweep = Date.now() + SWEEP_EVERY_MS;
          for (const review of await store.sweepReviews()) await remind(review);
        }
        const review = await store.nextReviewNotice(blocking, timeoutSeconds);
        if (review) await show(review);
      } catch (err) {
        // The notice stays in reviews:posting: shown first on the next try.
        backlog = true;
        throw err;
      }
    },
  });
}
