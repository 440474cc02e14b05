import { ButtonStyle, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { SUPERSEDED_MEANING, type Review, type ReviewStatus } from '../../store/index.ts';
import { VERSION_TEXT_MAX } from '../../store/constants.ts';
import { buttonRow } from '../buttons.ts';
import { discordTime, inlineCode, showMember } from '../command.ts';
import { showModerator } from '../moderators.ts';

// The moderators' channel message of one review: an embed with its facts (who asked for the code
// and when among them), and while it is pending the instructions and two buttons. Once decided or
// closed it says so (who decided, and when) and has no buttons: nothing is left to press.

/** What a review button does: approve, ask to confirm a rejection, reject (confirmed), keep it. */
export type ReviewAction = 'approve' | 'reject' | 'confirm-reject' | 'keep';
export type Decision = 'approved' | 'rejected';

export function reviewButtonId(action: ReviewAction, reviewId: string): string {
  return `review:${action}:${reviewId}`;
}

/** The review and action a button stands for; null for a custom id that is not a review button. */
export function parseReviewButton(customId: string): { reviewId: string; action: ReviewAction } | null {
  const match = /^review:(approve|reject|confirm-reject|keep):([A-Za-z0-9-]{1,64})$/.exec(customId);
  return match ? { reviewId: match[2]!, action: match[1] as ReviewAction } : null;
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
  expired: 0x80848e,
  cancelled: 0x80848e,
};

const CLOSED: Record<'superseded' | 'expired' | 'cancelled', string> = {
  superseded: `Superseded: ${SUPERSEDED_MEANING}`,
  expired: 'Closed: its code expired before anyone decided',
  cancelled: 'Closed: its code was cancelled',
};

/** Who asked for the code: a mention of the member, or the operator for a code from the CLI. */
export function claimant(review: Review): string {
  return review.issuedBy ? showMember(review.issuedBy) : 'the operator (CLI)';
}

/** The closing line of a review that is no longer pending. */
export function outcome(review: Review): string {
  const when = review.decidedAt ? ` ${discordTime(review.decidedAt, 'f')}` : '';
  if (review.status === 'approved' || review.status === 'rejected') {
    const verb = review.status === 'approved' ? 'Approved' : 'Rejected';
    return `${verb} by ${review.decidedBy ? showModerator(review.decidedBy) : 'a moderator'}${when}`;
  }
  if (review.status === 'superseded') return `${CLOSED.superseded} (\`${review.expectedAddress}\`)${when}`;
  return `${CLOSED[review.status as 'expired' | 'cancelled']}${when}`;
}

export interface ReviewMessage {
  content?: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
}

function fields(review: Review): NonNullable<APIEmbed['fields']> {
  return [
    { name: 'Code', value: `\`${review.code}\``, inline: true },
    { name: 'Requested by', value: claimant(review), inline: true },
    {
      name: 'Code issued',
      value: review.codeIssuedAt ? discordTime(review.codeIssuedAt, 'f') : 'unknown',
      inline: true,
    },
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
}

/** The message for a review in its current state: buttons and instructions only while pending. */
export function reviewMessage(review: Review): ReviewMessage {
  const pending = review.status === 'pending';
  const embed: APIEmbed = {
    title: pending ? 'Claim review' : `Claim review: ${review.status}`,
    description: pending
      ? 'A plugin claimed with a code issued for another address. **Approve** lets the server at the ' +
        'actual address register when the plugin resends the code; **Reject** (asked to confirm) ' +
        `refuses the code for good. The claimant is told either way.\nRequested ${discordTime(review.createdAt)}.`
      : `${outcome(review)}.\nRequested ${discordTime(review.createdAt, 'f')}.`,
    color: COLORS[review.status],
    fields: pending ? fields(review) : [...fields(review), { name: 'Decision', value: outcome(review) }],
    footer: { text: `Review ${review.id}` },
    timestamp: review.createdAt,
  };
  if (!pending) return { embeds: [embed], components: [] };
  return {
    embeds: [embed],
    components: [
      buttonRow([
        { style: ButtonStyle.Success, label: 'Approve', custom_id: reviewButtonId('approve', review.id) },
        { style: ButtonStyle.Danger, label: 'Reject…', custom_id: reviewButtonId('reject', review.id) },
      ]),
    ],
  };
}
