import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  ComponentType,
  InteractionContextType,
  InteractionType,
  PermissionFlagsBits,
} from 'discord.js';
import type { Bot } from '../../../bot/bot.ts';
import { APPLICATION_ID, COMMAND_CHANNEL_ID, GUILD_ID, REVIEW_CHANNEL_ID, snowflake } from './snowflakes.ts';

// Raw INTERACTION_CREATE payloads (API v10 shape), fed to the real discord.js client.

export interface TestMember {
  id: string;
  username: string;
  roles: string[];
  /** The member's permissions in the channel, as Discord sends them. */
  permissions: bigint;
}

const EVERYDAY =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.UseApplicationCommands;

export function member(username: string, extra: { roles?: string[]; permissions?: bigint } = {}): TestMember {
  return {
    id: snowflake(),
    username,
    roles: extra.roles ?? [],
    permissions: EVERYDAY | (extra.permissions ?? 0n),
  };
}

type Option =
  | { name: string; type: ApplicationCommandOptionType.String; value: string; focused?: boolean }
  | { name: string; type: ApplicationCommandOptionType.User; value: string }
  | { name: string; type: ApplicationCommandOptionType.Integer; value: number }
  | { name: string; type: ApplicationCommandOptionType.Subcommand; options: Option[] };

export const option = {
  string: (name: string, value: string): Option => ({
    name,
    type: ApplicationCommandOptionType.String,
    value,
  }),
  /** The option being typed, in an autocomplete interaction. */
  focused: (name: string, value: string): Option => ({
    name,
    type: ApplicationCommandOptionType.String,
    value,
    focused: true,
  }),
  user: (name: string, id: string): Option => ({ name, type: ApplicationCommandOptionType.User, value: id }),
  integer: (name: string, value: number): Option => ({
    name,
    type: ApplicationCommandOptionType.Integer,
    value,
  }),
  subcommand: (name: string, options: Option[] = []): Option => ({
    name,
    type: ApplicationCommandOptionType.Subcommand,
    options,
  }),
};

function base(type: InteractionType, who: TestMember, channelId: string) {
  return {
    id: snowflake(),
    application_id: APPLICATION_ID,
    type,
    token: `token-${snowflake()}`,
    version: 1,
    guild_id: GUILD_ID,
    guild: { id: GUILD_ID, locale: 'en-US', features: [] },
    channel_id: channelId,
    channel: { id: channelId, type: ChannelType.GuildText, guild_id: GUILD_ID, name: 'seedblock' },
    member: {
      user: { id: who.id, username: who.username, discriminator: '0', global_name: null, avatar: null },
      roles: who.roles,
      permissions: who.permissions.toString(),
      joined_at: '2024-01-01T00:00:00.000Z',
      deaf: false,
      mute: false,
      flags: 0,
    },
    locale: 'en-US',
    guild_locale: 'en-US',
    app_permissions: (PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks).toString(),
    entitlements: [],
    authorizing_integration_owners: { '0': GUILD_ID },
    context: InteractionContextType.Guild,
    attachment_size_limit: 10_485_760,
  };
}

export type RawInteraction = ReturnType<typeof base> & { data: unknown; message?: unknown };

/** A slash command invocation (type 2, APPLICATION_COMMAND). */
export function slashCommand(name: string, who: TestMember, options: Option[] = []): RawInteraction {
  // Discord sends the users a user option names along, in `resolved`.
  const users = options.flatMap((o) => (o.type === ApplicationCommandOptionType.User ? [o.value] : []));
  const resolved = Object.fromEntries(
    users.map((id) => [id, { id, username: 'member', discriminator: '0', global_name: null, avatar: null }]),
  );
  return {
    ...base(InteractionType.ApplicationCommand, who, COMMAND_CHANNEL_ID),
    data: {
      id: snowflake(),
      name,
      type: ApplicationCommandType.ChatInput,
      options,
      ...(users.length > 0 ? { resolved: { users: resolved } } : {}),
    },
  };
}

/** Suggestions asked for while typing an option (type 4, APPLICATION_COMMAND_AUTOCOMPLETE). */
export function autocomplete(name: string, who: TestMember, options: Option[]): RawInteraction {
  return {
    ...base(InteractionType.ApplicationCommandAutocomplete, who, COMMAND_CHANNEL_ID),
    data: { id: snowflake(), name, type: ApplicationCommandType.ChatInput, options },
  };
}

/** The same interaction sent from a direct message with the bot: no guild, no member, a user. */
export function inDirectMessage(payload: RawInteraction): RawInteraction {
  const { guild_id: _guild, guild: _g, member, ...rest } = payload;
  const channelId = snowflake();
  return {
    ...rest,
    channel_id: channelId,
    channel: { id: channelId, type: ChannelType.DM },
    user: member.user,
    authorizing_integration_owners: { '1': member.user.id },
    context: InteractionContextType.BotDM,
  } as unknown as RawInteraction;
}

/** The same interaction sent from another guild than the bot's. */
export function inOtherGuild(payload: RawInteraction): RawInteraction {
  const guildId = snowflake();
  return { ...payload, guild_id: guildId, guild: { ...payload.guild, id: guildId } };
}

/** A button press (type 3, MESSAGE_COMPONENT) on `message` as Discord holds it. */
export function buttonPress(
  customId: string,
  who: TestMember,
  message: { channel_id?: string },
): RawInteraction {
  return {
    ...base(InteractionType.MessageComponent, who, message.channel_id ?? REVIEW_CHANNEL_ID),
    data: { custom_id: customId, component_type: ComponentType.Button },
    message,
  };
}

/** Hands raw interactions to discord.js as the gateway would, and waits until the bot answered all. */
export async function deliver(bot: Bot, ...payloads: RawInteraction[]): Promise<void> {
  const actions = (
    bot.client as unknown as { actions: { InteractionCreate: { handle(data: unknown): void } } }
  ).actions;
  for (const payload of payloads) actions.InteractionCreate.handle(payload);
  await bot.idle();
}
