import {
  ButtonStyle,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ButtonInteraction,
} from 'discord.js';
import type { Store } from '../../store/index.ts';
import { buttonRow } from '../buttons.ts';
import {
  isDiscordId,
  type BotButton,
  type BotCommand,
  type BotReply,
  type CommandContext,
} from '../command.ts';
import { isModerator, memberFacts } from '../moderators.ts';
import { registrationLine } from '../registration-text.ts';
import { ephemeral, message } from '../replies.ts';

// /servers [owner] (moderators): the live registrations, as `servers list` of the CLI shows them,
// PAGE_SIZE a page with Previous and Next buttons; with an owner, only theirs.

/** Registrations per page: the longest lines (a 64-character label, an IPv6 address) still fit a message. */
export const PAGE_SIZE = 8;

export const definition = new SlashCommandBuilder()
  .setName('servers')
  .setDescription('Moderators: list live server registrations')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addUserOption((o) => o.setName('owner').setDescription('Only the registrations and keys of this member'))
  .toJSON();

const pageButton = (page: number, owner: string | null) => `servers:page:${page}:${owner ?? ''}`;

/** Page `page` (from 0) of the live registrations, of `owner` only when given. */
export async function listServers(
  store: Store,
  { page = 0, owner = null }: { page?: number; owner?: string | null } = {},
): Promise<BotReply> {
  const servers = owner ? await store.listOwnedRegistrations(owner) : await store.listRegistrations();
  const whose = owner ? ` of <@${owner}>` : '';
  if (servers.length === 0) return { content: `No live registrations${whose}.` };
  const pages = Math.ceil(servers.length / PAGE_SIZE);
  const shown = Math.min(Math.max(page, 0), pages - 1);
  const header =
    `${servers.length} live registration${servers.length === 1 ? '' : 's'}${whose}, oldest first` +
    (pages > 1 ? ` (page ${shown + 1} of ${pages}):` : ':');
  const lines = servers
    .slice(shown * PAGE_SIZE, (shown + 1) * PAGE_SIZE)
    .map((r) => `• ${registrationLine(r, { owner: true })}`);
  if (pages === 1) return { content: [header, ...lines].join('\n') };
  return {
    content: [header, ...lines].join('\n'),
    components: [
      buttonRow([
        {
          style: ButtonStyle.Secondary,
          label: '‹ Previous',
          custom_id: pageButton(shown - 1, owner),
          disabled: shown === 0,
        },
        {
          style: ButtonStyle.Secondary,
          label: 'Next ›',
          custom_id: pageButton(shown + 1, owner),
          disabled: shown === pages - 1,
        },
      ]),
    ],
  };
}

async function press(interaction: ButtonInteraction, { store, policy }: CommandContext) {
  if (!isModerator(memberFacts(interaction), policy)) {
    await interaction.reply(ephemeral('Only moderators can use this command.'));
    return;
  }
  const [, , page = '0', owner = ''] = interaction.customId.split(':');
  const reply = await listServers(store, {
    page: Number(page) || 0,
    owner: isDiscordId(owner) ? owner : null,
  });
  await interaction.update(message(reply));
}

const pageButtons: BotButton = { prefix: 'servers:', press };

export const command: BotCommand = {
  definition,
  moderatorOnly: true,
  defers: false,
  execute: (interaction, { store }) =>
    listServers(store, { owner: interaction.options.getUser('owner')?.id ?? null }),
  buttons: [pageButtons],
};
