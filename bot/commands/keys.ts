import { ButtonStyle, InteractionContextType, SlashCommandBuilder, type ButtonInteraction } from 'discord.js';
import type { MemberClaimCode, Registration, Store } from '../../store/index.ts';
import { formatAddress } from '../address.ts';
import { buttonRow, buttonRows, BUTTONS_PER_ROW, ROWS_MAX, type ButtonSpec } from '../buttons.ts';
import {
  CONTENT_MAX,
  discordTime,
  type BotButton,
  type BotCommand,
  type BotReply,
  type CommandContext,
} from '../command.ts';
import { registrationLabel, registrationLine } from '../registration-text.ts';
import { message } from '../replies.ts';

// /keys (owners): the caller's own live registrations and HTTP keys, and live claim codes, each
// with a button: Revoke for a key (it asks to confirm, with a way to keep it; only the confirmed
// press revokes, at once), Cancel for a code. The store checks at the press that it is theirs.

export const definition = new SlashCommandBuilder()
  .setName('keys')
  .setDescription('Your server registrations, HTTP keys and claim codes: revoke or cancel them')
  .setContexts(InteractionContextType.Guild)
  .toJSON();

type Item = { line: string; button: ButtonSpec };

const BUTTONS_MAX = BUTTONS_PER_ROW * ROWS_MAX;

function codeLine(c: MemberClaimCode): string {
  const state =
    c.status === 'open'
      ? `expires ${discordTime(c.expiresAt)}`
      : c.status === 'review'
        ? 'waiting for a moderator’s review'
        : 'approved: waiting for the plugin to send it again';
  const where = c.expectedIp ? `only from ${formatAddress(c.expectedIp, c.expectedPort)}` : 'any address';
  return `claim code \`${c.code}\` · ${state} · ${where}`;
}

/** The caller's list, with `note` (what a press just did) on top. */
export async function listKeys(store: Store, userId: string, note?: string): Promise<BotReply> {
  const [owned, codes] = await Promise.all([
    store.listOwnedRegistrations(userId),
    store.listMemberCodes(userId),
  ]);
  const items = [
    ...owned.map((r, i) => ({
      line: registrationLine(r, { issued: true }),
      button: {
        style: ButtonStyle.Danger as const,
        label: `Revoke ${i + 1}`,
        custom_id: `keys:revoke:${r.serverId}`,
      },
    })),
    ...codes.map((c, i) => ({
      line: codeLine(c),
      button: {
        style: ButtonStyle.Secondary as const,
        label: `Cancel ${owned.length + i + 1}`,
        custom_id: `keys:cancel:${c.code}`,
      },
    })),
  ] satisfies Item[];
  const top = note ? [note, ''] : [];
  if (items.length === 0) {
    return {
      content: [
        ...top,
        'You hold no live server registration, HTTP key or claim code. /claim gives a code for a game server; /httpkey a key for your own tools.',
      ].join('\n'),
    };
  }
  const lines = [...top, '**Your registrations, HTTP keys and claim codes** (only you see this):'];
  const footer = 'Revoke a key or cancel a code with its button below; Revoke asks you to confirm first.';
  const shown: Item[] = [];
  let length = lines.join('\n').length + footer.length + 1;
  for (const [i, item] of items.entries()) {
    const line = `${i + 1}. ${item.line}`;
    // Keep room for the "more" line so the reply stays within one message.
    if (shown.length === BUTTONS_MAX || length + line.length + 1 + 100 > CONTENT_MAX) {
      lines.push(`… and ${items.length - i} more: revoke or cancel some of these first to see them.`);
      break;
    }
    lines.push(line);
    shown.push(item);
    length += line.length + 1;
  }
  return { content: [...lines, footer].join('\n'), components: buttonRows(shown.map((item) => item.button)) };
}

function confirmation(r: Registration): BotReply {
  const where = r.ip ? `, ${formatAddress(r.ip, r.port)}` : '';
  return {
    content:
      `Revoke ${registrationLabel(r)} (${r.kind}${where}, server id \`${r.serverId}\`)? Its key stops working ` +
      'at once: whatever uses it can no longer hide a seed. This cannot be undone.',
    components: [
      buttonRow([
        { style: ButtonStyle.Danger, label: 'Revoke now', custom_id: `keys:confirm:${r.serverId}` },
        { style: ButtonStyle.Secondary, label: 'Keep it', custom_id: 'keys:keep' },
      ]),
    ],
  };
}

async function press(interaction: ButtonInteraction, { store, caller }: CommandContext) {
  const [, action = '', target = ''] = interaction.customId.split(':');
  const owner = caller.userId;
  const answer = async (note: string) => message(await listKeys(store, owner, note));
  if (action === 'revoke') {
    const registration = (await store.listOwnedRegistrations(owner)).find((r) => r.serverId === target);
    await interaction.update(
      registration ? message(confirmation(registration)) : await answer('That key is no longer live.'),
    );
  } else if (action === 'keep') {
    await interaction.update(await answer('Kept: nothing was revoked.'));
  } else if (action === 'confirm') {
    // The revoke waits on replicas: the press is answered at once, the list edited in after.
    await interaction.deferUpdate();
    const revoked = await store.revokeRegistration(target, { actor: owner, owner });
    await interaction.editReply(
      await answer(
        revoked
          ? `Revoked \`${target}\`: its key no longer works.`
          : 'That key was no longer live; nothing changed.',
      ),
    );
  } else if (action === 'cancel') {
    await interaction.deferUpdate();
    const cancelled = await store.cancelClaimCode(target, { actor: owner, issuedBy: owner });
    await interaction.editReply(
      await answer(
        cancelled
          ? `Cancelled claim code \`${target}\`: it no longer works.`
          : 'That code was no longer live; nothing changed.',
      ),
    );
  } else {
    await interaction.update(await answer('That button is not known to the bot any more.'));
  }
}

const keysButtons: BotButton = { prefix: 'keys:', press };

export const command: BotCommand = {
  definition,
  moderatorOnly: false,
  defers: false,
  execute: (_interaction, { store, caller }) => listKeys(store, caller.userId),
  buttons: [keysButtons],
};
