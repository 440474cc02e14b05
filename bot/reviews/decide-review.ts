import { SUPERSEDED_MEANING, type Review, type Store } from '../../store/index.ts';
import { showModerator } from '../moderators.ts';
import type { Decision } from './review-message.ts';

// A moderator's decision from the chat, as plain data: the store decides atomically, so of two
// moderators pressing at once one gets 'decided' and the other 'already' with who decided.

export type ChatDecision =
  | { outcome: 'decided'; review: Review }
  | { outcome: 'already'; review: Review; notice: string }
  | { outcome: 'unknown'; notice: string };

/** What a moderator is told about a review that is no longer pending. */
export function alreadyNotice(review: Review): string {
  switch (review.status) {
    case 'superseded':
      return `This review was superseded: ${SUPERSEDED_MEANING}.`;
    case 'expired':
      return 'This review was closed: its code expired.';
    case 'cancelled':
      return 'This review was closed: its code was cancelled.';
    default:
      return `This review was already ${review.status} by ${showModerator(review.decidedBy ?? 'a moderator')}.`;
  }
}

export async function decideReview(
  store: Store,
  {
    reviewId,
    decision,
    moderator,
    actor,
  }: { reviewId: string; decision: Decision; moderator: string; actor: string },
): Promise<ChatDecision> {
  const result = await store.decideReview({ id: reviewId, decision, moderator, actor });
  const review = result.outcome === 'unknown' ? null : await store.getReview(reviewId);
  if (result.outcome === 'unknown' || !review) {
    return { outcome: 'unknown', notice: 'This review no longer exists.' };
  }
  if (result.outcome === 'decided') return { outcome: 'decided', review };
  return { outcome: 'already', review, notice: alreadyNotice(review) };
}
