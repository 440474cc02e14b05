import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Registration, Store } from '../../store/index.ts';
import { LABEL_MAX } from '../../store/constants.ts';
import { inlineCode, plainText, showMember, type BotCommand, type BotReply } from '../command.ts';

// /revoke <server-id> (moderators): ends a registration's key, as `revoke` of the CLI. The server
// id autocompletes from the live registrations, by id, label or owner. The owner is told by
// direct message (the audit follower does it, as for the CLI's revokes).

export const definition = new SlashCommandBuilder()
  .setName('revoke')
  .setDescription('Moderators: revoke a server registration (its key stops working)')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addStringOption((o) =>
    o
      .setName('server-id')
      .setDescription('The server id (type part of it, or of its label)')
      .setRequired(true)
      .setMaxLength(64)
      .setAutocomplete(true),
  )
  .toJSON();

const ServerIdSchema = z.uuid();
/** Discord shows at most 25 suggestions, each named in at most 100 characters. */
const CHOICES_MAX = 25;

export async function revoke(
  store: Store,
  { serverId, actor }: { serverId: string; actor: string },
): Promise<BotReply> {
  const id = serverId.trim().toLowerCase();
  if (!ServerIdSchema.safeParse(id).success) {
    return { content: `${inlineCode(serverId)} is not a server id (a UUID, as /servers shows it).` };
  }
  const registration = await store.getRegistration(id);
  if (!(await store.revokeRegistration(id, { actor }))) {
    return { content: `No live registration \`${id}\` (unknown or already revoked).` };
  }
  const told = registration?.owner ? ` Its owner ${showMember(registration.owner, LABEL_MAX)} is told.` : '';
  return {
    content: `Revoked \`${id}\`: its key no longer works. A block window it opened runs to its end.${told}`,
  };
}

/** Live registrations whose id, label or owner contains what was typed. */
export async function suggestServers(store: Store, typed: string) {
  const wanted = typed.trim().toLowerCase();
  const matches = (r: Registration) =>
    [r.serverId, r.clientName ?? '', r.owner ?? ''].some((text) => text.toLowerCase().includes(wanted));
  return (await store.listRegistrations())
    .filter(matches)
    .slice(0, CHOICES_MAX)
    .map((r) => ({
      // Shown as plain text in the picker: the label cleaned of what could disguise it.
      name: `${plainText(r.clientName ?? '', 40) || '(no label)'} · ${r.kind} · ${r.serverId}`,
      value: r.serverId,
    }));
}

export const command: BotCommand = {
  definition,
  moderatorOnly: true,
  defers: true,
  execute: (interaction, { store, caller }) =>
    revoke(store, { serverId: interaction.options.getString('server-id', true), actor: caller.userId }),
  autocomplete: (interaction, { store }) => suggestServers(store, interaction.options.getFocused()),
};
