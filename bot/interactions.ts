import type { Interaction } from 'discord.js';
import type { Logger } from '../runtime/logger.ts';
import type { Store } from '../store/index.ts';
import type { BotCommand } from './command.ts';
import { isModerator, memberFacts, type ModeratorPolicy } from './moderators.ts';
import { ephemeral, replyWithFailure } from './replies.ts';
import { pressReviewButton } from './reviews/review-buttons.ts';
import { loggableError } from './log-error.ts';

export interface InteractionDeps {
  store: Store;
  logger: Logger;
  policy: ModeratorPolicy;
  commands: readonly BotCommand[];
}

/**
 * The adapter between Discord and the operations: a slash command runs its command's operation
 * (after our own moderator check where needed) and the reply goes back ephemeral; a button (the
 * bot's only buttons are review buttons) goes to pressReviewButton. Failures are logged and answered, never thrown at discord.js.
 */
export function createInteractionHandler(deps: InteractionDeps): (interaction: Interaction) => Promise<void> {
  const byName = new Map(deps.commands.map((c) => [c.definition.name, c]));
  const { logger } = deps;

  return async function handleInteraction(interaction) {
    if (!interaction.isRepliable()) return;
    const what = interaction.isChatInputCommand()
      ? `/${interaction.commandName}`
      : interaction.isButton()
        ? interaction.customId
        : `interaction type ${interaction.type}`;
    try {
      if (interaction.isChatInputCommand()) {
        const command = byName.get(interaction.commandName);
        if (!command) {
          await interaction.reply(ephemeral('This command is not known to the bot any more.'));
          return;
        }
        if (command.moderatorOnly && !isModerator(memberFacts(interaction), deps.policy)) {
          await interaction.reply(ephemeral('Only moderators can use this command.'));
          return;
        }
        const caller = { userId: interaction.user.id, username: interaction.user.username };
        const reply = await command.execute(interaction, { store: deps.store, caller });
        await interaction.reply(ephemeral(reply));
        logger.info({ interaction: what, user: caller.userId }, 'command answered');
      } else if (interaction.isButton()) {
        await pressReviewButton(interaction, deps);
        logger.info({ interaction: what, user: interaction.user.id }, 'review button answered');
      }
    } catch (err) {
      logger.error(
        { err: loggableError(err), interaction: what, user: interaction.user.id },
        'interaction failed',
      );
      await replyWithFailure(interaction, err).catch((replyErr: unknown) =>
        logger.warn(
          { err: loggableError(replyErr), interaction: what },
          'could not tell the user about the failure',
        ),
      );
    }
  };
}
