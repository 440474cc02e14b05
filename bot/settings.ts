import { ConfigError, type Config } from '../runtime/config.ts';

/** The Discord part of the configuration, with what the bot cannot start without checked. */
export interface DiscordSettings {
  token: string;
  applicationId: string;
  /** Commands are registered in this guild only (instant), else globally. */
  guildId: string | null;
  /** Where review requests are posted; without it reviews are left for the CLI. */
  reviewChannelId: string | null;
  moderatorRoleId: string | null;
  /** Where each audited action is posted as one line; without it the trail is in Redis only. */
  auditChannelId: string | null;
}

/** A setting the bot cannot run without: a configuration error like any other. */
export class MissingSettingError extends ConfigError {
  override name = 'MissingSettingError';
}

function required(config: Config, name: 'DISCORD_TOKEN' | 'DISCORD_APPLICATION_ID', why: string): string {
  const value = config[name];
  if (!value) throw new MissingSettingError(`${name} is not set: ${why}`);
  return value;
}

export function discordSettings(config: Config): DiscordSettings {
  return {
    token: required(config, 'DISCORD_TOKEN', 'the bot token from the Discord developer portal'),
    applicationId: required(
      config,
      'DISCORD_APPLICATION_ID',
      'the application id from the Discord developer portal (slash commands are registered under it)',
    ),
    guildId: config.DISCORD_GUILD_ID ?? null,
    reviewChannelId: config.DISCORD_REVIEW_CHANNEL_ID ?? null,
    moderatorRoleId: config.DISCORD_MODERATOR_ROLE_ID ?? null,
    auditChannelId: config.DISCORD_AUDIT_CHANNEL_ID ?? null,
  };
}
