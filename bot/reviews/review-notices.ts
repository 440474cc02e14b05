import { setTimeout as sleep } from 'node:timers/promises';
import { DiscordAPIError, RESTJSONErrorCodes, Routes, type APIMessage, type REST } from 'discord.js';
import type { Logger } from '../../runtime/logger.ts';
import { failureFields, type Review, type Store, type StoreRedis } from '../../store/index.ts';
import { reviewMessage } from './review-message.ts';
import { loggableError } from '../log-error.ts';

// Keeps the moderators' channel showing each review as it stands. The store hands notices over
// with BLMOVE (reviews:notify → reviews:posting) and forgets one only once markReviewPosted
// recorded the message, so a notice taken by a bot that stopped before showing it is still in
// reviews:posting: on start, and after any failure, those are shown (again) first. A review
// without a message is posted; one with a message (a later notice: it was superseded) has its
// message edited to its current state. At least once, never lost; showing twice is harmless.

/**
 * Posts or edits the message of one review; returns its id, or null when the message to edit
 * is gone from the channel (deleted: there is nothing left to update).
 */
export async function showReview(
  { rest, store, channelId }: { rest: REST; store: Store; channelId: string },
  review: Review,
): Promise<string | null> {
  if (review.messageId) {
    let gone = false;
    try {
      await rest.patch(Routes.channelMessage(channelId, review.messageId), { body: reviewMessage(review) });
    } catch (err) {
      if (!(err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage)) throw err;
      gone = true;
    }
    await store.markReviewPosted(review.id, review.messageId);
    return gone ? null : review.messageId;
  }
  const message = (await rest.post(Routes.channelMessages(channelId), {
    body: { ...reviewMessage(review), allowed_mentions: { parse: [] } },
  })) as APIMessage;
  await store.markReviewPosted(review.id, message.id);
  return message.id;
}

export interface ReviewNoticeOptions {
  rest: REST;
  store: Store;
  logger: Logger;
  channelId: string;
  /** A connection of its own (connectRedis with blocking: true), as BLMOVE holds it; stop() closes it. */
  blocking: StoreRedis;
  /** How long one BLMOVE waits. */
  timeoutSeconds?: number;
  /** Called after each review message posted or updated (tests wait on it). */
  onPosted?: (review: Review, messageId: string) => void;
}

export interface ReviewNotices {
  /** Ends the loop: interrupts the waiting BLMOVE by closing the blocking connection. */
  stop(): Promise<void>;
}

const MAX_BACKOFF_MS = 30_000;

export function startReviewNotices(options: ReviewNoticeOptions): ReviewNotices {
  const { store, logger, blocking, timeoutSeconds = 5 } = options;
  const stopping = new AbortController();

  const show = async (review: Review) => {
    const messageId = await showReview(options, review);
    const fields = { review: review.id, status: review.status, messageId: messageId ?? review.messageId };
    if (messageId === null) return logger.info(fields, 'review message deleted; nothing to update');
    logger.info(fields, review.messageId ? 'review message updated' : 'review posted');
    options.onPosted?.(review, messageId);
  };

  const loop = async () => {
    let sweep = true;
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        if (sweep) {
          for (const review of await store.reviewsAwaitingPost()) await show(review);
          sweep = false;
        }
        const review = await store.nextReviewNotice(blocking, timeoutSeconds);
        if (review) await show(review);
        failures = 0;
      } catch (err) {
        if (stopping.signal.aborted) break;
        // Redis or Discord trouble: the notice stays in reviews:posting; retry after a pause.
        failures += 1;
        sweep = true;
        const delay = Math.min(250 * 2 ** failures, MAX_BACKOFF_MS);
        logger.warn(
          {
            ...('err' in failureFields(err) ? { err: loggableError(err) } : failureFields(err)),
            retryInMs: delay,
          },
          'posting review notices failed',
        );
        await sleep(delay, undefined, { signal: stopping.signal }).catch(() => {});
      }
    }
  };
  const done = loop();

  return {
    async stop() {
      stopping.abort();
      blocking.disconnect();
      await done;
    },
  };
}
