import { Routes, type REST } from 'discord.js';
import type { Logger } from '../runtime/logger.ts';
import { failureFields, type Store } from '../store/index.ts';
import type { BotCommand } from './command.ts';
import { loggableError } from './log-error.ts';
import type { DiscordSettings } from './settings.ts';

/**
 * Replaces the application's slash commands with ours, one bulk PUT per scope (so removed
 * commands go too), and empties every other scope it knows of, so no command ever shows twice:
 * with DISCORD_GUILD_ID the set goes to that guild (changes show at once) and `[]` to the global
 * scope; without it the set goes global and `[]` to the guild it was last registered in, when
 * that is known (remembered in Redis).
 */
export async function registerCommands(
  { rest, store, logger }: { rest: REST; store: Store; logger: Logger },
  { applicationId, guildId }: Pick<DiscordSettings, 'applicationId' | 'guildId'>,
  commands: readonly BotCommand[],
): Promise<void> {
  const set = commands.map((c) => c.definition);
  const inGuild = (id: string) => Routes.applicationGuildCommands(applicationId, id);
  const last = await store.lastCommandGuild().catch((err: unknown) => {
    logger.warn(
      failureFields(err),
      'cannot tell where the commands were registered before; not emptied there',
    );
    return null;
  });
  await rest.put(guildId ? inGuild(guildId) : Routes.applicationCommands(applicationId), { body: set });
  if (guildId) await rest.put(Routes.applicationCommands(applicationId), { body: [] });
  if (last && last !== guildId) {
    // A guild the bot has left refuses; its commands went with the bot.
    await rest
      .put(inGuild(last), { body: [] })
      .catch((err: unknown) =>
        logger.warn(
          { err: loggableError(err), guild: last },
          'could not empty the commands of the guild they were in before',
        ),
      );
  }
  await store.rememberCommandGuild(guildId);
  logger.info(
    {
      guild: guildId ?? 'global',
      count: set.length,
      emptied: [guildId ? 'global' : null, last !== guildId ? last : null].filter(Boolean),
    },
    'slash commands registered',
  );
}
