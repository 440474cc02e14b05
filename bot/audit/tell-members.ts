import { DiscordAPIError, RESTJSONErrorCodes, Routes, type APIChannel, type REST } from 'discord.js';
import type { Logger } from '../../runtime/logger.ts';
import { CLI_ACTOR, type AuditEntry, type Store } from '../../store/index.ts';
import { inlineCode, isDiscordId } from '../command.ts';
import { LABEL_MAX } from '../../store/constants.ts';

// People are told what happened to them, by direct message: the member who asked for a claim code
// when its review is decided, and an owner when someone else (a moderator, the operator) revoked
// their key. A member who does not accept direct messages is not told, and that is no error.

export interface Telling {
  userId: string;
  content: string;
}

const byWhom = (actor: string) => (actor === CLI_ACTOR ? 'The operator' : 'A moderator');

/** Whom an audited action concerns and what they are told; null when no one is. */
export async function tellingOf(store: Store, entry: AuditEntry): Promise<Telling | null> {
  const { action, actor, owner, target } = entry;
  if (!isDiscordId(owner) || owner === actor) return null;
  if ((action === 'review.approve' || action === 'review.reject') && entry.review) {
    const review = await store.getReview(entry.review);
    const from = review ? ` from \`${review.actualAddress}\`` : '';
    const content =
      action === 'review.approve'
        ? `${byWhom(actor)} approved the claim with your code \`${target}\`${from}: the plugin there ` +
          'registers the server when it sends the code again (it does so by itself within a minute).'
        : `${byWhom(actor)} refused the claim with your code \`${target}\`${from}: the code no longer ` +
          'works. If that server is yours, ask a moderator, or run /claim for a new code.';
    return { userId: owner, content };
  }
  if (action === 'registration.revoke') {
    const registration = await store.getRegistration(target);
    const label = registration?.clientName ? ` ${inlineCode(registration.clientName, LABEL_MAX)}` : '';
    const kind = registration?.kind === 'http' ? 'HTTP key' : 'server registration';
    return {
      userId: owner,
      content:
        `${byWhom(actor)} revoked your ${kind}${label} (server id \`${target}\`): its key no longer ` +
        'works. /keys shows what you still hold.',
    };
  }
  return null;
}

/**
 * Sends a direct message. 'closed' when the member does not accept them (Discord 50007): logged
 * at info, not retried. Anything else Discord refuses is thrown.
 */
export async function sendDirectMessage(
  rest: REST,
  logger: Logger,
  { userId, content }: Telling,
): Promise<'sent' | 'closed'> {
  try {
    const channel = (await rest.post(Routes.userChannels(), {
      body: { recipient_id: userId },
    })) as APIChannel;
    await rest.post(Routes.channelMessages(channel.id), {
      body: { content, allowed_mentions: { parse: [] } },
    });
    return 'sent';
  } catch (err) {
    if (!(err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser))
      throw err;
    logger.info({ user: userId }, 'member does not accept direct messages: not told');
    return 'closed';
  }
}
