import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { BLOCK_CAP_MS, TooManyKeysError, type IssuedCredential, type Store } from '../../store/index.ts';
import { LABEL_MAX } from '../../store/constants.ts';
import type { BotCommand, BotReply } from '../command.ts';
import { apiLink, type Deployment } from '../deployment.ts';

// /httpkey [label]: an HTTP key (not bound to an IP) owned by the Discord user, shown this once.

export const definition = new SlashCommandBuilder()
  .setName('httpkey')
  .setDescription('Get an HTTP key to report seeds from your own tools (shown once)')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o
      .setName('label')
      .setDescription('A name for the key, shown to moderators')
      .setMinLength(1)
      .setMaxLength(LABEL_MAX),
  )
  .toJSON();

export async function issueKey(
  store: Store,
  deployment: Deployment,
  { userId, label }: { userId: string; label?: string | null },
): Promise<BotReply> {
  try {
    const key = await store.issueHttpKey({ owner: userId, label: label?.trim() || undefined });
    return { content: instructions(key, deployment) };
  } catch (err) {
    if (!(err instanceof TooManyKeysError)) throw err;
    return {
      content:
        `You already have ${err.live} live HTTP keys, the most one user may hold (${err.max}). ` +
        'Revoke one you no longer use first: /keys lists them, each with a Revoke button.',
    };
  }
}

function instructions(key: IssuedCredential, deployment: Deployment): string {
  return [
    'Your HTTP key. It is shown this once and cannot be shown again: store it now.',
    `\`${key.credential}\``,
    `Server id: \`${key.serverId}\` (quote it when asking for help).`,
    '',
    `Send it as \`Authorization: Bearer <key>\` with report calls to ${apiLink(deployment, '/v1/servers/report')}. ` +
      `It works from any address; a seed it reports stays hidden for at most ${BLOCK_CAP_MS.http / 60_000} minutes.`,
    `If it leaks, end it at once: /keys (Revoke), or ${apiLink(deployment, '/v1/servers/revoke')} with it as the bearer token.`,
  ].join('\n');
}

export const command: BotCommand = {
  definition,
  moderatorOnly: false,
  defers: true,
  execute: (interaction, { store, caller, deployment }) =>
    issueKey(store, deployment, { userId: caller.userId, label: interaction.options.getString('label') }),
};
