import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { isBelowMinimum, SemverSchema, type Store, type VersionInfo } from '../../store/index.ts';
import { inlineCode, type BotCommand, type BotReply } from '../command.ts';

// /minimum-version set <version> | clear (moderators): plugins below it get 426 on claim and report.

export const definition = new SlashCommandBuilder()
  .setName('minimum-version')
  .setDescription('Moderators: the oldest plugin version allowed to claim and report')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) =>
    s
      .setName('set')
      .setDescription('Refuse plugins below this version')
      .addStringOption((o) =>
        o.setName('version').setDescription('A version like 1.2.0').setRequired(true).setMaxLength(32),
      ),
  )
  .addSubcommand((s) => s.setName('clear').setDescription('Allow every plugin version'))
  .toJSON();

export async function setMinimumVersion(
  store: Store,
  { version, actor }: { version: string; actor: string },
): Promise<BotReply> {
  const parsed = SemverSchema.safeParse(version.trim());
  if (!parsed.success) {
    return { content: `${inlineCode(version)} is not a version like 1.2.0 (three numbers, no "v").` };
  }
  const info = await store.setMinimumVersion(parsed.data, { actor });
  const lines = [
    `Minimum plugin version is now ${info.minimum}: older plugins get 426 \`plugin_outdated\` on claim and report.`,
  ];
  if (info.latest && info.minimum && isBelowMinimum(info.latest, info.minimum)) {
    lines.push(`Note: the latest release (${info.latest}) is below it, so no released plugin passes.`);
  }
  return { content: lines.join('\n') };
}

export async function clearMinimumVersion(store: Store, { actor }: { actor: string }): Promise<BotReply> {
  const info: VersionInfo = await store.clearMinimumVersion({ actor });
  return {
    content: `No minimum plugin version any more${info.latest ? ` (latest release: ${info.latest})` : ''}.`,
  };
}

export const command: BotCommand = {
  definition,
  moderatorOnly: true,
  defers: true,
  execute: (interaction, { store, caller }) =>
    interaction.options.getSubcommand() === 'set'
      ? setMinimumVersion(store, {
          version: interaction.options.getString('version', true),
          actor: caller.userId,
        })
      : clearMinimumVersion(store, { actor: caller.userId }),
};
