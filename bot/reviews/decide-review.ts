import { SUPERSEDED_MEANING, type Review, type Store } from '../../store/index.ts';
import { showModerator } from '../moderators.ts';
import type { Decision } from './review-message.ts';

// A moderator's decision from the chat, as plain data: the store decides atomically, so of two
// moderators pressing at once one gets 'decided' and the other 'already' with who decided.

export type ChatDecision =
  | { outcome: 'decided'; review: Review }
  | { outcome: 'already'; review: Review; notice: string }
  | { outcome: 'unknown'; notice: string };

export async function decideReview(
  store: Store,
  { reviewId, decision, moderator }: { reviewId: string; decision: Decision; moderator: string },
): Promise<ChatDecision> {
  const result = await store.decideReview({ id: reviewId, decision, moderator });
  const review = result.outcome === 'unknown' ? null : await store.getReview(reviewId);
  if (result.outcome === 'unknown' || !review) {
    return { outcome: 'unknown', notice: 'This review no longer exists.' };
  }
  if (result.outcome === 'decided') return { outcome: 'decided', review };
  return {
    outcome: 'already',
    review,
    notice:
      result.decision === 'superseded'
        ? `This review was superseded: ${SUPERSEDED_MEANING}.`
        : `This review was already ${result.decision} by ${showModerator(result.moderator)}.`,
  };
}
