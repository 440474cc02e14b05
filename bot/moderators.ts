import { PermissionFlagsBits, PermissionsBitField, type BaseInteraction, type User } from 'discord.js';

/** What an interaction tells about the member who sent it. */
export interface MemberFacts {
  guildId: string;
  roleIds: readonly string[];
  /** The member's permissions in the channel, as Discord computed them; null when not sent. */
  permissions: bigint | null;
}

export interface ModeratorPolicy {
  moderatorRoleId: string | null;
  /** When set, only members acting in this guild count (Manage Server elsewhere means nothing here). */
  guildId: string | null;
}

/**
 * Moderators hold the configured role or may manage our server (Administrator implies that).
 * Checked on our side for every command and button press: Discord's command permissions can be
 * changed by any server admin and do not cover buttons at all.
 */
export function isModerator(member: MemberFacts | null, policy: ModeratorPolicy): boolean {
  if (!member) return false;
  if (policy.guildId && member.guildId !== policy.guildId) return false;
  if (policy.moderatorRoleId && member.roleIds.includes(policy.moderatorRoleId)) return true;
  // Manage Server counts only in our own guild: without DISCORD_GUILD_ID, the owner of any other
  // server the bot sits in would otherwise decide our reviews.
  return (
    policy.guildId !== null &&
    member.permissions !== null &&
    new PermissionsBitField(member.permissions).has(PermissionFlagsBits.ManageGuild)
  );
}

/** True when no one can be a moderator: no role to hold and no guild for Manage Server to count in. */
export function nobodyCanModerate(policy: ModeratorPolicy): boolean {
  return policy.moderatorRoleId === null && policy.guildId === null;
}

/**
 * Why the bot does nothing for an interaction from where it was sent, or null: every command and
 * button is for members in a guild (a direct message has no member to own a key or be a
 * moderator), and with DISCORD_GUILD_ID for that guild only.
 */
export function placeRefusal(interaction: BaseInteraction, guildId: string | null): string | null {
  if (!interaction.inGuild()) {
    return 'This bot works only in its Discord server: use its commands there, not in a direct message. Nothing was issued.';
  }
  if (guildId !== null && interaction.guildId !== guildId) {
    return 'This bot serves another Discord server; its commands do nothing here. Nothing was issued.';
  }
  return null;
}

/** The member facts Discord sent with the interaction; null outside a guild. */
export function memberFacts(interaction: BaseInteraction): MemberFacts | null {
  if (!interaction.inGuild() || !interaction.member) return null;
  // An uncached guild gives the raw member (role ids); a cached one a GuildMember.
  const roles = interaction.member.roles;
  const roleIds = Array.isArray(roles) ? roles : [...roles.cache.keys()];
  return {
    guildId: interaction.guildId,
    roleIds,
    permissions: interaction.memberPermissions?.bitfield ?? null,
  };
}

/**
 * How a moderator is recorded with a decision: readable in the CLI's review list, and with the
 * user id so the chat can show a mention.
 */
export function moderatorName(user: Pick<User, 'id' | 'username'>): string {
  return `${user.username} (discord:${user.id})`;
}

/** A recorded moderator as chat text: a mention for chat users, the name as is otherwise (the CLI). */
export function showModerator(recorded: string): string {
  const id = /\(discord:(\d+)\)$/.exec(recorded)?.[1];
  return id ? `<@${id}>` : recorded;
}
