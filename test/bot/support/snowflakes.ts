// Discord ids for tests: real snowflakes (time-based), unique within the process.
const DISCORD_EPOCH = 1_420_070_400_000n;
let sequence = 0n;

export function snowflake(): string {
  sequence = (sequence + 1n) & 0xfffn;
  return (
    ((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) |
    (BigInt(process.pid & 0x3ff) << 12n) |
    sequence
  ).toString();
}

export const APPLICATION_ID = snowflake();
export const GUILD_ID = snowflake();
export const COMMAND_CHANNEL_ID = snowflake();
export const REVIEW_CHANNEL_ID = snowflake();
export const MODERATOR_ROLE_ID = snowflake();
export const BOT_USER_ID = snowflake();
/** Shaped like a real one (id, timestamp, signature), as the config schema requires. */
export const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GtEsTs.test-bot-token-signature-part';
export const AUDIT_CHANNEL_ID = snowflake();
