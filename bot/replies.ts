import { MessageFlags, type InteractionReplyOptions, type RepliableInteraction } from 'discord.js';
import { isDbUnavailable } from '../store/index.ts';
import type { BotReply } from './command.ts';

/** Every answer of the bot is for the asker only, and never pings anyone. */
export function ephemeral(
  reply: BotReply | string,
): InteractionReplyOptions & { flags: MessageFlags.Ephemeral } {
  const { content, embeds } = typeof reply === 'string' ? { content: reply, embeds: undefined } : reply;
  return { content, embeds, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } };
}

/** Tells the user something failed on our side; used after the error is logged. */
export async function replyWithFailure(interaction: RepliableInteraction, err: unknown): Promise<void> {
  const text = isDbUnavailable(err)
    ? 'The database is briefly unavailable; try again in a moment.'
    : 'Something went wrong on our side; it was logged.';
  if (interaction.replied || interaction.deferred) await interaction.followUp(ephemeral(text));
  else await interaction.reply(ephemeral(text));
}
