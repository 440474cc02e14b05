import {
  DiscordAPIError,
  PermissionFlagsBits,
  PermissionsBitField,
  RESTJSONErrorCodes,
  Routes,
  type APIChannel,
  type APIGuild,
  type APIGuildMember,
  type APIOverwrite,
  type REST,
} from 'discord.js';
import type { Logger } from '../runtime/logger.ts';

// Whether the bot can use a channel it posts to (the review and the audit channel), said in one
// line per change: a warn line when it cannot (found at start, or by a post that failed), an info
// line when it can again (a post went through).

/** Discord's answers that mean the channel is gone, or closed to the bot. */
const CHANNEL_ERRORS = new Set<number | string>([
  RESTJSONErrorCodes.UnknownChannel,
  RESTJSONErrorCodes.MissingAccess,
  RESTJSONErrorCodes.MissingPermissions,
]);

export function isChannelError(err: unknown): err is DiscordAPIError {
  return err instanceof DiscordAPIError && CHANNEL_ERRORS.has(err.code);
}

export class ChannelHealth {
  private problem: string | null = null;
  private readonly logger: Logger;
  /** `review` or `audit`. */
  readonly name: string;
  /** The setting that names the channel, for the operator to look at. */
  readonly setting: string;
  readonly channelId: string;

  constructor(logger: Logger, name: string, setting: string, channelId: string) {
    this.logger = logger;
    this.name = name;
    this.setting = setting;
    this.channelId = channelId;
  }

  private get fields() {
    return { channel: this.channelId, setting: this.setting };
  }

  /** The channel cannot be used, and why: one warn line unless that was known already. */
  unusable(why: string): void {
    if (this.problem === null)
      this.logger.warn({ ...this.fields, problem: why }, `the ${this.name} channel cannot be used: ${why}`);
    this.problem = why;
  }

  /** A post went through: one info line if it could not be used before. */
  usable(): void {
    if (this.problem !== null) this.logger.info(this.fields, `the ${this.name} channel can be used again`);
    this.problem = null;
  }

  /** True (after saying so) when `err` is Discord refusing the channel itself. */
  refusedBy(err: unknown): boolean {
    if (!isChannelError(err)) return false;
    this.unusable(`Discord answered ${err.status} "${err.message}" (code ${err.code})`);
    return true;
  }

  /** Checks once (at start) that the bot can read the channel and post what it needs there. */
  async check(rest: REST, botUserId: string, needed: bigint): Promise<void> {
    try {
      const problem = await channelProblem(rest, this.channelId, botUserId, needed);
      if (problem) this.unusable(problem);
    } catch (err) {
      if (!this.refusedBy(err)) throw err;
    }
  }
}

/** What the bot lacks in a channel for `needed`, or null when it has it all. */
async function channelProblem(
  rest: REST,
  channelId: string,
  botUserId: string,
  needed: bigint,
): Promise<string | null> {
  const channel = (await rest.get(Routes.channel(channelId))) as APIChannel;
  const guildId = 'guild_id' in channel ? channel.guild_id : undefined;
  if (!guildId) return 'it is not a channel of a server';
  const [guild, member] = (await Promise.all([
    rest.get(Routes.guild(guildId)),
    rest.get(Routes.guildMember(guildId, botUserId)),
  ])) as [APIGuild, APIGuildMember];
  const overwrites = 'permission_overwrites' in channel ? (channel.permission_overwrites ?? []) : [];
  const has = channelPermissions(guild, member, botUserId, overwrites);
  const missing = new PermissionsBitField(needed & ~has).toArray();
  return missing.length === 0 ? null : `the bot lacks ${missing.join(', ')} there`;
}

/** The bot's permissions in a channel, computed as Discord does: roles, then overwrites. */
function channelPermissions(
  guild: APIGuild,
  member: APIGuildMember,
  userId: string,
  overwrites: APIOverwrite[],
): bigint {
  const roles = guild.roles.filter((r) => r.id === guild.id || member.roles.includes(r.id));
  let allowed = roles.reduce((bits, r) => bits | BigInt(r.permissions), 0n);
  if (guild.owner_id === userId || allowed & PermissionFlagsBits.Administrator)
    return PermissionsBitField.All;
  const apply = (found: APIOverwrite[]) => {
    const deny = found.reduce((bits, o) => bits | BigInt(o.deny), 0n);
    const allow = found.reduce((bits, o) => bits | BigInt(o.allow), 0n);
    allowed = (allowed & ~deny) | allow;
  };
  apply(overwrites.filter((o) => o.id === guild.id));
  apply(overwrites.filter((o) => o.id !== guild.id && member.roles.includes(o.id)));
  apply(overwrites.filter((o) => o.id === userId));
  return allowed;
}
