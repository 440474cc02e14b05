import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIEmbed,
} from 'discord.js';
import { SUPERSEDED_MEANING, type Review, type ReviewStatus } from '../../store/index.ts';
import { VERSION_TEXT_MAX } from '../../store/constants.ts';
import { discordTime, inlineCode } from '../command.ts';
import { showModerator } from '../moderators.ts';

// The moderators' channel message of one review: an embed with its facts and two buttons (none
// once superseded: there is nothing left to decide, nor anyone's decision to show).

export type ReviewAction = 'approve' | 'reject';
export type Decision = 'approved' | 'rejected';

const DECISION: Record<ReviewAction, Decision> = { approve: 'approved', reject: 'rejected' };

export function reviewButtonId(action: ReviewAction, reviewId: string): string {
  return `review:${action}:${reviewId}`;
}

/** The review and decision a button stands for; null for a custom id that is not a review button. */
export function parseReviewButton(customId: string): { reviewId: string; decision: Decision } | null {
  const match = /^review:(approve|reject):([A-Za-z0-9-]{1,64})$/.exec(customId);
  return match ? { reviewId: match[2]!, decision: DECISION[match[1] as ReviewAction] } : null;
}

const REASONS: Record<string, string> = {
  ip_mismatch: 'the claim came from another IP',
  port_mismatch: 'the claim came from another port',
};

const COLORS: Record<ReviewStatus, number> = {
  pending: 0xf0b232,
  approved: 0x23a55a,
  rejected: 0xda373c,
  superseded: 0x80848e,
};

/** The closing line of a review that is no longer pending. */
function outcome(review: Review): string {
  if (review.status === 'superseded') {
    return `Superseded: ${SUPERSEDED_MEANING} (\`${review.expectedAddress}\`)`;
  }
  const verb = review.status === 'approved' ? 'Approved' : 'Rejected';
  return `${verb} by ${review.decidedBy ? showModerator(review.decidedBy) : 'a moderator'}`;
}

export interface ReviewMessage {
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponentWithCustomId>[];
}

/**
 * The message for a review in its current state: buttons live while pending, disabled once
 * decided, gone once superseded.
 */
export function reviewMessage(review: Review): ReviewMessage {
  const decided = review.status !== 'pending';
  const fields = [
    { name: 'Code', value: `\`${review.code}\``, inline: true },
    {
      name: 'Plugin version',
      value: review.pluginVersion ? inlineCode(review.pluginVersion, VERSION_TEXT_MAX) : 'not sent',
      inline: true,
    },
    {
      name: 'Reason',
      value: `${REASONS[review.reason] ?? review.reason} (\`${review.reason}\`)`,
      inline: false,
    },
    { name: 'Expected address', value: `\`${review.expectedAddress}\``, inline: true },
    { name: 'Actual address', value: `\`${review.actualAddress}\``, inline: true },
  ];
  if (decided) fields.push({ name: 'Decision', value: outcome(review), inline: false });
  const embed: APIEmbed = {
    title: decided ? `Claim review: ${review.status}` : 'Claim review',
    description:
      'A plugin claimed with a code issued for another address. Approve to register the server at the ' +
      'actual address when the plugin resends the code; reject to refuse the code for good.\n' +
      `Requested ${discordTime(review.createdAt)}.`,
    color: COLORS[review.status],
    fields,
    footer: { text: `Review ${review.id}` },
    timestamp: review.createdAt,
  };
  if (review.status === 'superseded') return { embeds: [embed], components: [] };
  return {
    embeds: [embed],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Success,
            label: 'Approve',
            custom_id: reviewButtonId('approve', review.id),
            disabled: decided,
          },
          {
            type: ComponentType.Button,
            style: ButtonStyle.Danger,
            label: 'Reject',
            custom_id: reviewButtonId('reject', review.id),
            disabled: decided,
          },
        ],
      },
    ],
  };
}
