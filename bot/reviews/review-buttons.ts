import type { ButtonInteraction } from 'discord.js';
import type { Store } from '../../store/index.ts';
import { isModerator, memberFacts, moderatorName, type ModeratorPolicy } from '../moderators.ts';
import { ephemeral } from '../replies.ts';
import { decideReview } from './decide-review.ts';
import { parseReviewButton, reviewMessage } from './review-message.ts';

/** Approve/Reject pressed on a review message: maps the press to decideReview and shows the outcome. */
export async function pressReviewButton(
  interaction: ButtonInteraction,
  { store, policy }: { store: Store; policy: ModeratorPolicy },
): Promise<void> {
  const target = parseReviewButton(interaction.customId);
  if (!target) {
    await interaction.reply(ephemeral('This button is not known to the bot.'));
    return;
  }
  if (!isModerator(memberFacts(interaction), policy)) {
    await interaction.reply(ephemeral('Only moderators can decide reviews.'));
    return;
  }
  const result = await decideReview(store, { ...target, moderator: moderatorName(interaction.user) });
  switch (result.outcome) {
    case 'decided':
      await interaction.update(reviewMessage(result.review));
      return;
    case 'already':
      // The message may still show live buttons (e.g. decided from the CLI): bring it up to date,
      // then tell this moderator who decided.
      await interaction.update(reviewMessage(result.review));
      await interaction.followUp(ephemeral(result.notice));
      return;
    case 'unknown':
      await interaction.reply(ephemeral(result.notice));
      return;
  }
}
