import {
  ApplicationCommandOptionType,
  InteractionContextType,
  SlashCommandBuilder,
  type APIApplicationCommandOption,
} from 'discord.js';
import type { BotCommand, BotReply } from '../command.ts';
import { serviceLink, type Deployment } from '../deployment.ts';

// /help: every command of the bot in one ephemeral message, as their definitions say them (so it
// never drifts from what is registered), and where the service is.

export const definition = new SlashCommandBuilder()
  .setName('help')
  .setDescription('What this bot does: every command, and links to the map viewer and the API')
  .setContexts(InteractionContextType.Guild)
  .toJSON();

/** How an option is typed: `<name>` required, `[name]` optional; subcommands as `a <x> | b`. */
function usage(options: readonly APIApplicationCommandOption[] = []): string {
  if (options.some((o) => o.type === ApplicationCommandOptionType.Subcommand)) {
    return options.map((o) => `${o.name}${usage('options' in o ? o.options : [])}`).join(' | ');
  }
  return options.map((o) => ` ${o.required ? `<${o.name}>` : `[${o.name}]`}`).join('');
}

function line({ definition: d }: BotCommand): string {
  const args = usage(d.options);
  const typed = `/${d.name}${args && !args.startsWith(' ') ? ' ' : ''}${args}`;
  return `\`${typed}\`: ${d.description.replace(/^Moderators: /, '')}`;
}

export function help(commands: readonly BotCommand[], deployment: Deployment): BotReply {
  return {
    content: [
      '**SeedBlock bot**: hides the map of a round while it is played. Every answer is shown to you only.',
      ...commands.filter((c) => !c.moderatorOnly).map(line),
      '',
      '**For moderators** (the moderator role, or Manage Server):',
      ...commands.filter((c) => c.moderatorOnly).map(line),
      '',
      `Map viewer: ${serviceLink(deployment, '/')}`,
      `API reference, for your own tools: ${serviceLink(deployment, '/docs')}`,
    ].join('\n'),
  };
}

/** /help over the other commands (and itself). */
export function helpCommand(others: readonly BotCommand[]): BotCommand {
  const command: BotCommand = {
    definition,
    moderatorOnly: false,
    defers: false,
    execute: async (_interaction, { deployment }) => help([...others, command], deployment),
  };
  return command;
}
