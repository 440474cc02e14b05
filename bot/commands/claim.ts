import { SlashCommandBuilder } from 'discord.js';
import type { IssuedClaimCode, Store } from '../../store/index.ts';
import { formatAddress, parseServerAddress } from '../address.ts';
import { discordTime, type BotCommand, type BotReply } from '../command.ts';

// /claim [address]: a one-time code the plugin sends to POST /plugin/v1/claim (spec 4.4).

/** The plugin's config entry for the code. */
export const PLUGIN_CONFIG_KEY = 'claim_code';

export const definition = new SlashCommandBuilder()
  .setName('claim')
  .setDescription('Get a one-time code that registers your game server through the SeedBlock plugin')
  .addStringOption((o) =>
    o
      .setName('address')
      .setDescription('Old-style: the ip:port the claim must come from, e.g. 203.0.113.5:7777')
      .setMaxLength(64),
  )
  .toJSON();

export async function issueCode(
  store: Store,
  { address, userId }: { address?: string | null; userId: string },
): Promise<BotReply> {
  let expected: { ip: string; port: number } | undefined;
  if (address) {
    const parsed = parseServerAddress(address);
    if (!parsed.ok) return { content: parsed.error };
    expected = parsed;
  }
  const issued = await store.issueClaimCode({ ...expected, issuedBy: userId });
  return { content: instructions(issued) };
}

function instructions(issued: IssuedClaimCode): string {
  const where =
    issued.expectedIp === null
      ? 'The server is registered at the address the plugin connects from.'
      : `Only ${formatAddress(issued.expectedIp, issued.expectedPort)} can claim with it; a claim from ` +
        'anywhere else waits for a moderator to review it.';
  return [
    `Your claim code: **\`${issued.code}\`**`,
    `It works once and expires ${discordTime(issued.expiresAt)} (${discordTime(issued.expiresAt, 't')}).`,
    '',
    '**Put it into the plugin config** on your game server (SeedBlock plugin 1.1.0 or newer):',
    "1. Open the SeedBlock plugin's config file.",
    `2. Set \`${PLUGIN_CONFIG_KEY}: "${issued.code}"\` and save.`,
    '3. Restart the server (or reload the plugin). The plugin sends the code once, keeps the server key ' +
      'it gets back and clears the code.',
    '',
    where,
    'Keep the code to yourself until then: whoever uses it first gets the registration.',
  ].join('\n');
}

export const command: BotCommand = {
  definition,
  moderatorOnly: false,
  execute: (interaction, { store, caller }) =>
    issueCode(store, { address: interaction.options.getString('address'), userId: caller.userId }),
};
