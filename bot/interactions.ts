import {
  MessageFlags,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
} from 'discord.js';
import type { Logger } from '../runtime/logger.ts';
import { failureFields, isDbUnavailable, type Store } from '../store/index.ts';
import type { BotButton, BotCommand, CommandContext } from './command.ts';
import type { Deployment } from './deployment.ts';
import { isModerator, memberFacts, placeRefusal, type ModeratorPolicy } from './moderators.ts';
import { ephemeral, message, replyWithFailure } from './replies.ts';
import { loggableError } from './log-error.ts';

export interface InteractionDeps {
  store: Store;
  logger: Logger;
  policy: ModeratorPolicy;
  deployment: Deployment;
  commands: readonly BotCommand[];
  /** Buttons that belong to no command (the review messages'). */
  buttons: readonly BotButton[];
}

/**
 * The adapter between Discord and the operations. Every interaction from a direct message, or from
 * another guild than DISCORD_GUILD_ID, is refused before anything else. A slash command runs its
 * command's operation (after our own moderator check where needed); one whose write may wait on
 * replicas is deferred first and its answer edited in. A button goes to the handler of its custom
 * id's prefix; autocomplete to its command. Failures are logged and answered, never thrown at
 * discord.js.
 */
export function createInteractionHandler(deps: InteractionDeps): (interaction: Interaction) => Promise<void> {
  const byName = new Map(deps.commands.map((c) => [c.definition.name, c]));
  const buttons = [...deps.buttons, ...deps.commands.flatMap((c) => c.buttons ?? [])];
  const { logger } = deps;
  const contextOf = (interaction: Interaction): CommandContext => ({
    store: deps.store,
    caller: { userId: interaction.user.id, username: interaction.user.username },
    deployment: deps.deployment,
    policy: deps.policy,
  });

  return async function handleInteraction(interaction) {
    if (interaction.isAutocomplete()) return suggest(interaction).catch((err: unknown) => fail(err));
    if (!interaction.isRepliable()) return;
    try {
      const refusal = placeRefusal(interaction, deps.policy.guildId);
      if (refusal) {
        await interaction.reply(ephemeral(refusal));
        logger.info(
          { interaction: describe(interaction), user: interaction.user.id },
          'refused: wrong place',
        );
      } else if (interaction.isChatInputCommand()) {
        await runCommand(interaction);
      } else if (interaction.isButton()) {
        await press(interaction);
      }
    } catch (err) {
      await fail(err);
      await replyWithFailure(interaction, err).catch((replyErr: unknown) =>
        logger.warn(
          { err: loggableError(replyErr), interaction: describe(interaction) },
          'could not tell the user about the failure',
        ),
      );
    }

    function fail(err: unknown) {
      const fields = { interaction: describe(interaction), user: interaction.user.id };
      // The store briefly unavailable (Redis away, replicas not confirming) is said where it is
      // watched, and the user is asked to try again; anything else is a bug to read.
      if (isDbUnavailable(err))
        logger.warn({ ...fields, ...failureFields(err) }, 'interaction failed: the store is unavailable');
      else logger.error({ ...fields, err: loggableError(err) }, 'interaction failed');
    }
  };

  async function runCommand(interaction: ChatInputCommandInteraction) {
    const command = byName.get(interaction.commandName);
    const fields = { interaction: describe(interaction), user: interaction.user.id, args: args(interaction) };
    if (!command) {
      await interaction.reply(ephemeral('This command is not known to the bot any more.'));
      return;
    }
    if (command.moderatorOnly && !isModerator(memberFacts(interaction), deps.policy)) {
      await interaction.reply(ephemeral('Only moderators can use this command.'));
      logger.info(fields, 'refused: not a moderator');
      return;
    }
    if (command.defers) {
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      await interaction.editReply(message(await command.execute(interaction, contextOf(interaction))));
    } else {
      await interaction.reply(ephemeral(await command.execute(interaction, contextOf(interaction))));
    }
    logger.info(fields, 'command answered');
  }

  async function press(interaction: ButtonInteraction) {
    const button = buttons.find((b) => interaction.customId.startsWith(b.prefix));
    if (!button) {
      await interaction.reply(ephemeral('This button is not known to the bot.'));
      return;
    }
    await button.press(interaction, contextOf(interaction));
    logger.info({ interaction: interaction.customId, user: interaction.user.id }, 'button answered');
  }

  /** Autocomplete offers nothing where the command itself would be refused. */
  async function suggest(interaction: AutocompleteInteraction) {
    const command = byName.get(interaction.commandName);
    const refused =
      !command?.autocomplete ||
      placeRefusal(interaction, deps.policy.guildId) !== null ||
      (command.moderatorOnly && !isModerator(memberFacts(interaction), deps.policy));
    await interaction.respond(
      refused ? [] : await command.autocomplete!(interaction, contextOf(interaction)),
    );
  }
}

function describe(interaction: Interaction): string {
  if (interaction.isChatInputCommand() || interaction.isAutocomplete()) return `/${interaction.commandName}`;
  if (interaction.isButton()) return interaction.customId;
  return `interaction type ${interaction.type}`;
}

/** A command's options for the log line: subcommand and values (none is a secret). */
function args(interaction: ChatInputCommandInteraction): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (options: readonly CommandInteractionOption[]) => {
    for (const option of options) {
      if (option.options) {
        out.subcommand = option.name;
        walk(option.options);
      } else {
        out[option.name] = option.value;
      }
    }
  };
  walk(interaction.options.data);
  return out;
}
