import { ButtonStyle, type ButtonInteraction } from 'discord.js';
import type { BotButton, CommandContext } from '../command.ts';
import { buttonRow } from '../buttons.ts';
import { isModerator, memberFacts, moderatorName } from '../moderators.ts';
import { ephemeral, message } from '../replies.ts';
import { alreadyNotice, decideReview } from './decide-review.ts';
import { claimant, parseReviewButton, reviewButtonId, reviewMessage } from './review-message.ts';

// The buttons of a review: Approve decides at once, on the review message itself. Reject first
// asks the moderator (an ephemeral message with a second button); only `confirm-reject` refuses
// the claim, and `keep` leaves it pending. A decision waits on replicas, so the press is deferred
// first. The review message itself is brought up to date by the notice the decision queues too.

async function press(interaction: ButtonInteraction, { store, policy, caller }: CommandContext) {
  const target = parseReviewButton(interaction.customId);
  if (!target) {
    await interaction.reply(ephemeral('This button is not known to the bot.'));
    return;
  }
  if (!isModerator(memberFacts(interaction), policy)) {
    await interaction.reply(ephemeral('Only moderators can decide reviews.'));
    return;
  }
  const { reviewId, action } = target;
  if (action === 'keep') {
    await interaction.update(message('Kept: the review is still pending; nothing changed.'));
    return;
  }
  if (action === 'reject') {
    await askToConfirmReject(interaction, store, reviewId);
    return;
  }
  await interaction.deferUpdate();
  const decision = action === 'approve' ? 'approved' : 'rejected';
  const moderator = moderatorName(interaction.user);
  const result = await decideReview(store, { reviewId, decision, moderator, actor: caller.userId });
  if (result.outcome === 'unknown') {
    await interaction.followUp(ephemeral(result.notice));
  } else if (action === 'approve') {
    // The message pressed is the review's: show it as it stands now (decided, or by whom before).
    await interaction.editReply(reviewMessage(result.review));
    if (result.outcome === 'already') await interaction.followUp(ephemeral(result.notice));
  } else {
    // The message pressed is the moderator's confirmation.
    await interaction.editReply(
      message(
        result.outcome === 'decided'
          ? `Rejected: the code no longer works, and ${claimant(result.review)} is told.`
          : result.notice,
      ),
    );
  }
}

async function askToConfirmReject(
  interaction: ButtonInteraction,
  store: CommandContext['store'],
  reviewId: string,
) {
  const review = await store.getReview(reviewId);
  if (!review) {
    await interaction.reply(ephemeral('This review no longer exists.'));
    return;
  }
  if (review.status !== 'pending') {
    // The message may still show live buttons (e.g. decided from the CLI): bring it up to date.
    await interaction.update(reviewMessage(review));
    await interaction.followUp(ephemeral(alreadyNotice(review)));
    return;
  }
  await interaction.reply(
    ephemeral({
      content:
        `Reject the claim with code \`${review.code}\` from \`${review.actualAddress}\`? ` +
        `The code stops working for good and ${claimant(review)} is told.`,
      components: [
        buttonRow([
          {
            style: ButtonStyle.Danger,
            label: 'Reject for good',
            custom_id: reviewButtonId('confirm-reject', reviewId),
          },
          {
            style: ButtonStyle.Secondary,
            label: 'Keep it pending',
            custom_id: reviewButtonId('keep', reviewId),
          },
        ]),
      ],
    }),
  );
}

export const reviewButtons: BotButton = { prefix: 'review:', press };
