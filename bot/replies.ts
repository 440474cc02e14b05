import {
  MessageFlags,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type RepliableInteraction,
} from 'discord.js';
import { isDbUnavailable } from '../store/index.ts';
import type { BotReply } from './command.ts';

/** An answer as message options: its components replaced (none when it has none), no pings. */
export function message(reply: BotReply | string): InteractionEditReplyOptions {
  const { content, embeds, components = [] } = typeof reply === 'string' ? { content: reply } : reply;
  return { content, embeds, components, allowedMentions: { parse: [] } };
}

/** Every answer of the bot is for the asker only, and never pings anyone. */
export function ephemeral(
  reply: BotReply | string,
): InteractionReplyOptions & { flags: MessageFlags.Ephemeral } {
  const { content, embeds, components, allowedMentions } = message(reply);
  return {
    content: content ?? undefined,
    embeds: embeds ?? undefined,
    components,
    allowedMentions,
    flags: MessageFlags.Ephemeral,
  };
}

/** What the bot says when the store is briefly unavailable, whatever the operation. */
export const TRY_AGAIN = 'The database is briefly unavailable; try again in a moment.';

/**
 * Tells the user something failed on our side; used after the error is logged. A deferred slash
 * command gets its placeholder replaced; a button press that changed its message gets a note.
 */
export async function replyWithFailure(interaction: RepliableInteraction, err: unknown): Promise<void> {
  const text = isDbUnavailable(err) ? TRY_AGAIN : 'Something went wrong on our side; it was logged.';
  if (interaction.isChatInputCommand() && interaction.deferred) await interaction.editReply(message(text));
  else if (interaction.replied || interaction.deferred) await interaction.followUp(ephemeral(text));
  else await interaction.reply(ephemeral(text));
}
