import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Store } from '../../store/index.ts';
import { inlineCode, type BotCommand, type BotReply } from '../command.ts';

// /revoke <server-id> (moderators): ends a registration's key, as `revoke` of the CLI.

export const definition = new SlashCommandBuilder()
  .setName('revoke')
  .setDescription('Moderators: revoke a server registration (its key stops working)')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o
      .setName('server-id')
      .setDescription('The server id, as /servers shows it')
      .setRequired(true)
      .setMaxLength(64),
  )
  .toJSON();

const ServerIdSchema = z.uuid();

export async function revoke(store: Store, { serverId }: { serverId: string }): Promise<BotReply> {
  const id = serverId.trim().toLowerCase();
  if (!ServerIdSchema.safeParse(id).success) {
    return { content: `${inlineCode(serverId)} is not a server id (a UUID, as /servers shows it).` };
  }
  if (!(await store.revokeRegistration(id))) {
    return { content: `No live registration \`${id}\` (unknown or already revoked).` };
  }
  return { content: `Revoked \`${id}\`: its key no longer works. A block window it opened runs to its end.` };
}

export const command: BotCommand = {
  definition,
  moderatorOnly: true,
  execute: (interaction, { store }) =>
    revoke(store, { serverId: interaction.options.getString('server-id', true) }),
};
