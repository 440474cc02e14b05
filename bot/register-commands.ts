import { Routes, type REST } from 'discord.js';
import type { BotCommand } from './command.ts';
import type { DiscordSettings } from './settings.ts';

/**
 * Replaces the application's slash commands with ours (one bulk PUT, so removed commands go too).
 * In one guild when DISCORD_GUILD_ID is set (changes show at once), else globally.
 */
export async function registerCommands(
  rest: REST,
  { applicationId, guildId }: Pick<DiscordSettings, 'applicationId' | 'guildId'>,
  commands: readonly BotCommand[],
): Promise<void> {
  const route = guildId
    ? Routes.applicationGuildCommands(applicationId, guildId)
    : Routes.applicationCommands(applicationId);
  await rest.put(route, { body: commands.map((c) => c.definition) });
}
