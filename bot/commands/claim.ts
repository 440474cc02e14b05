import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { ClaimCodeLimitError, isBelowMinimum, type IssuedClaimCode, type Store } from '../../store/index.ts';
import {
  CLAIM_CODES_LIVE_PER_MEMBER,
  CLAIM_CODES_PER_MEMBER_PER_DAY,
  PLUGIN_CLAIM_SINCE,
} from '../../store/constants.ts';
import { formatAddress, parseServerAddress } from '../address.ts';
import { discordTime, type BotCommand, type BotReply } from '../command.ts';

// /claim [address]: a one-time code the plugin sends to POST /plugin/v1/claim (spec 4.4), at most
// CLAIM_CODES_LIVE_PER_MEMBER live and CLAIM_CODES_PER_MEMBER_PER_DAY a day per member.

/** The plugin's config entry for the code. */
export const PLUGIN_CONFIG_KEY = 'claim_code';

export const definition = new SlashCommandBuilder()
  .setName('claim')
  .setDescription('Get a one-time code that registers your game server through the SeedBlock plugin')
  .setContexts(InteractionContextType.Guild)
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
  try {
    const issued = await store.issueClaimCode({ ...expected, issuedBy: userId });
    return { content: instructions(issued, await pluginNeeded(store)) };
  } catch (err) {
    if (!(err instanceof ClaimCodeLimitError)) throw err;
    return { content: limitReached(err) };
  }
}

/** The oldest plugin that can use a code: the operator's minimum when above the first with claims. */
async function pluginNeeded(store: Store): Promise<string> {
  const { minimum } = await store.getVersionInfo();
  return minimum && isBelowMinimum(PLUGIN_CLAIM_SINCE, minimum) ? minimum : PLUGIN_CLAIM_SINCE;
}

function limitReached(err: ClaimCodeLimitError): string {
  const next = err.nextAt
    ? `The next code is possible ${discordTime(err.nextAt)} (${discordTime(err.nextAt, 'f')}).`
    : 'The next code is possible once a moderator has decided the review of one of them, or you cancel one.';
  const limit =
    err.limit === 'live'
      ? `You already hold ${err.count} live claim codes, the most one member may hold at once (${CLAIM_CODES_LIVE_PER_MEMBER}). ` +
        'Use one, or cancel one you no longer need with /keys.'
      : `You were issued ${err.count} claim codes in the last 24 hours, the most one member may get in a day (${CLAIM_CODES_PER_MEMBER_PER_DAY}).`;
  return `${limit}\n${next} No code was issued.`;
}

function instructions(issued: IssuedClaimCode, plugin: string): string {
  const where =
    issued.expectedIp === null
      ? 'The server is registered at the address the plugin connects from.'
      : `Only ${formatAddress(issued.expectedIp, issued.expectedPort)} can claim with it; a claim from ` +
        'anywhere else waits for a moderator to review it.';
  return [
    `Your claim code: **\`${issued.code}\`**`,
    `It works once and expires ${discordTime(issued.expiresAt)} (${discordTime(issued.expiresAt, 't')}).`,
    '',
    `**Put it into the plugin config** on your game server (SeedBlock plugin ${plugin} or newer):`,
    "1. Open the SeedBlock plugin's config file.",
    `2. Set \`${PLUGIN_CONFIG_KEY}: "${issued.code}"\` and save.`,
    '3. Restart the server (or reload the plugin). The plugin sends the code once, keeps the server key ' +
      'it gets back and clears the code.',
    '',
    where,
    'Keep the code to yourself until then: whoever uses it first gets the registration. /keys lists your codes and servers.',
  ].join('\n');
}

export const command: BotCommand = {
  definition,
  moderatorOnly: false,
  defers: true,
  execute: (interaction, { store, caller }) =>
    issueCode(store, { address: interaction.options.getString('address'), userId: caller.userId }),
};
