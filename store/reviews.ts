import type { StoreContext } from './context.ts';

// Manual reviews of old-style plugin claims (a code issued for one address, used from another).

/**
 * pending until a moderator approves or rejects it, or until it closes with nothing left to
 * decide: its code registered from the expected address after all (superseded), its code is gone
 * (expired) or was cancelled (cancelled).
 */
export type ReviewStatus = 'pending' | 'approved' | 'rejected' | 'superseded' | 'expired' | 'cancelled';

/** What `superseded` means, for the bot and the CLI to say. */
export const SUPERSEDED_MEANING = 'its code registered the server from the expected address';

export interface Review {
  id: string;
  code: string;
  status: ReviewStatus;
  expectedAddress: string;
  actualAddress: string;
  reason: string;
  pluginVersion: string | null;
  createdAt: string;
  /** The chat member who asked for the code; null for the operator's codes (and older reviews). */
  issuedBy: string | null;
  /** When the code was issued; null for older reviews. */
  codeIssuedAt: string | null;
  /** The moderator who approved or rejected it; null while pending and when closed otherwise. */
  decidedBy: string | null;
  /** When it was decided or closed; null while pending. */
  decidedAt: string | null;
  /** When the moderators were reminded of it (once, REVIEW_REMIND_AFTER_MS after it opened). */
  remindedAt: string | null;
  /** The chat message that shows this review, once the bot posted it. */
  messageId: string | null;
}

const address = (ip: string | undefined, port: string | undefined) => `${ip || '*'}:${port || '*'}`;
const iso = (ms: string | undefined) => (ms ? new Date(Number(ms)).toISOString() : null);

function toReview(h: Record<string, string>): Review {
  return {
    id: h.id ?? '',
    code: h.code ? `${h.code.slice(0, 5)}-${h.code.slice(5)}` : '',
    status: h.status as Review['status'],
    expectedAddress: address(h.expectedIp, h.expectedPort),
    actualAddress: address(h.actualIp, h.actualPort),
    reason: h.reason ?? '',
    pluginVersion: h.pluginVersion || null,
    createdAt: new Date(Number(h.createdAt)).toISOString(),
    issuedBy: h.issuedBy || null,
    codeIssuedAt: iso(h.codeIssuedAt),
    decidedBy: h.decidedBy || null,
    decidedAt: iso(h.decidedAt),
    remindedAt: iso(h.remindedAt),
    messageId: h.messageId || null,
  };
}

export async function getReview(ctx: StoreContext, id: string): Promise<Review | null> {
  const h = await ctx.redis.hgetall(`${ctx.prefix}review:${id}`);
  return h.id ? toReview(h) : null;
}

/** Pending reviews, oldest first. */
export async function listReviews(ctx: StoreContext): Promise<Review[]> {
  const ids = await ctx.redis.zrange(`${ctx.prefix}reviews:pending`, '0', '-1');
  const reviews = await Promise.all(ids.map((id) => getReview(ctx, id)));
  return reviews.filter((r): r is Review => r !== null);
}

export type ReviewDecision =
  | { outcome: 'decided'; decision: 'approved' | 'rejected'; moderator: string }
  /** Closed before: `decision` is its final status; `moderator` is '' unless a moderator decided. */
  | { outcome: 'already'; decision: Exclude<ReviewStatus, 'pending'>; moderator: string }
  | { outcome: 'unknown' };

/**
 * Approves or rejects a pending review; of two decisions at once, the first wins. `moderator` is
 * how the decision is shown; `actor` records it in the audit trail.
 */
export async function decideReview(
  ctx: StoreContext,
  {
    id,
    decision,
    moderator,
    actor,
  }: { id: string; decision: 'approved' | 'rejected'; moderator: string; actor?: string },
): Promise<ReviewDecision> {
  const [outcome, decided, by] = await ctx.redis.decideReview(
    ctx.prefix,
    id,
    decision,
    moderator,
    ctx.clock.scriptArg,
    actor ?? '',
  );
  if (outcome === 'unknown') return { outcome };
  if (outcome === 'decided') return { outcome, decision, moderator: by ?? '' };
  return { outcome: 'already', decision: decided as Exclude<ReviewStatus, 'pending'>, moderator: by ?? '' };
}

/**
 * Closes the pending reviews whose code expired or was cancelled (queuing their notices) and
 * returns those pending REVIEW_REMIND_AFTER_MS without a reminder yet, oldest first.
 */
export async function sweepReviews(ctx: StoreContext): Promise<Review[]> {
  const due = await ctx.redis.sweepReviews(ctx.prefix, ctx.clock.scriptArg);
  const reviews = await Promise.all(due.map((id) => getReview(ctx, id)));
  return reviews.filter((r): r is Review => r !== null);
}

/** Records that the moderators were reminded of a review (it is not returned by sweepReviews again). */
export async function markReviewReminded(ctx: StoreContext, id: string): Promise<void> {
  await ctx.redis.hset(`${ctx.prefix}review:${id}`, 'remindedAt', String(await ctx.clock.now()));
}

/**
 * Waits up to `timeoutSeconds` for a review whose chat message needs posting, or (once it was
 * posted) bringing up to date, as when the review was superseded.
 * Uses its own blocking connection (`redis`), as BLMOVE holds it.
 */
export async function nextReviewNotice(
  ctx: StoreContext,
  blocking: StoreContext['redis'],
  timeoutSeconds: number,
): Promise<Review | null> {
  const id = await blocking.blmove(
    `${ctx.prefix}reviews:notify`,
    `${ctx.prefix}reviews:posting`,
    'RIGHT',
    'LEFT',
    timeoutSeconds,
  );
  return id ? getReview(ctx, id) : null;
}

/** Records where a review's message is (posted or updated) and drops the notice from the posting list. */
export async function markReviewPosted(ctx: StoreContext, id: string, messageId: string): Promise<void> {
  await ctx.redis
    .multi()
    .hset(`${ctx.prefix}review:${id}`, 'messageId', messageId)
    .lrem(`${ctx.prefix}reviews:posting`, 1, id)
    .exec();
}

/**
 * Reviews whose notice was taken for posting (reviews:posting) but never marked posted: the bot
 * stopped in between. The bot posts them again on start, oldest first. Ids without a review
 * record are dropped from the list, since there is nothing to post.
 */
export async function reviewsAwaitingPost(ctx: StoreContext): Promise<Review[]> {
  const key = `${ctx.prefix}reviews:posting`;
  // Notices enter on the left, so the oldest is on the right.
  const ids = (await ctx.redis.lrange(key, 0, -1)).reverse();
  const found: Review[] = [];
  for (const id of new Set(ids)) {
    const review = await getReview(ctx, id);
    if (review) found.push(review);
    else await ctx.redis.lrem(key, 0, id);
  }
  return found;
}
