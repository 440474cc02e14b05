import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { Registration, Store } from '../../store/index.ts';
import { formatAddress } from '../address.ts';
import { CONTENT_MAX, discordTime, inlineCode, type BotCommand, type BotReply } from '../command.ts';
import { LABEL_MAX } from '../../store/constants.ts';

// /servers (moderators): the live registrations, as `servers list` of the CLI shows them.

export const definition = new SlashCommandBuilder()
  .setName('servers')
  .setDescription('Moderators: list live server registrations')
  .setContexts(InteractionContextType.Guild)
  .toJSON();

export async function listServers(store: Store): Promise<BotReply> {
  const servers = await store.listRegistrations();
  if (servers.length === 0) return { content: 'No live registrations.' };
  const header = `${servers.length} live registration${servers.length === 1 ? '' : 's'}, oldest first:`;
  const lines: string[] = [];
  let length = header.length;
  for (const [i, server] of servers.entries()) {
    const line = serverLine(server);
    const rest = servers.length - i;
    // Keep room for the "more" line so the reply stays within one message.
    if (length + line.length + 1 + (rest > 1 ? 120 : 0) > CONTENT_MAX) {
      lines.push(`… and ${rest} more; \`npm run --silent admin -- servers list\` shows all.`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return { content: [header, ...lines].join('\n') };
}

function serverLine(r: Registration): string {
  // Inline code: a masked link, a mention or a timestamp tag a claimant wrote stays plain text.
  const label = r.clientName ? inlineCode(r.clientName, LABEL_MAX) : '(no label)';
  const address = r.ip ? formatAddress(r.ip, r.port) : 'any address';
  const lastReport = r.lastReportAt ? discordTime(r.lastReportAt) : 'never';
  return `• ${label} · ${r.kind} · ${address} · last report ${lastReport}${ownerText(r.owner)} · \`${r.serverId}\``;
}

function ownerText(owner: string | null): string {
  if (!owner) return '';
  // Chat users own keys by their id (shown as a mention); the CLI's owners are names an operator
  // typed, shown inert like every other chosen text.
  return /^\d{17,20}$/.test(owner) ? ` · owner <@${owner}>` : ` · owner ${inlineCode(owner, LABEL_MAX)}`;
}

export const command: BotCommand = {
  definition,
  moderatorOnly: true,
  execute: (_interaction, { store }) => listServers(store),
};
