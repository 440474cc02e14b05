import { setTimeout as sleep } from 'node:timers/promises';
import { Routes, type APIMessage, type REST } from 'discord.js';
import type { Logger } from '../../store/logger.ts';
import type { Review, Store, StoreRedis } from '../../store/index.ts';
import { reviewMessage } from './review-message.ts';
import { loggableError } from '../log-error.ts';

// Posts each new review to the moderators' channel. The store hands notices over with BLMOVE
// (reviews:notify → reviews:posting) and forgets one only once markReviewPosted recorded the
// message, so a notice taken by a bot that stopped before posting is still in reviews:posting:
// on start, and after any failure, those are posted (again) first. At least once, never lost.

/** Posts one review message; returns the message id. */
export async function postReview(
  { rest, store, channelId }: { rest: REST; store: Store; channelId: string },
  review: Review,
): Promise<string> {
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
  /** Called after each posted review (tests wait on it). */
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

  const post = async (review: Review) => {
    const messageId = await postReview(options, review);
    logger.info({ review: review.id, messageId }, 'review posted');
    options.onPosted?.(review, messageId);
  };

  const loop = async () => {
    let sweep = true;
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        if (sweep) {
          for (const review of await store.reviewsAwaitingPost()) await post(review);
          sweep = false;
        }
        const review = await store.nextReviewNotice(blocking, timeoutSeconds);
        if (review) await post(review);
        failures = 0;
      } catch (err) {
        if (stopping.signal.aborted) break;
        // Redis or Discord trouble: the notice stays in reviews:posting; retry after a pause.
        failures += 1;
        sweep = true;
        const delay = Math.min(250 * 2 ** failures, MAX_BACKOFF_MS);
        logger.warn({ err: loggableError(err), retryInMs: delay }, 'posting review notices failed');
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
