// `npm run bot` (bot/main.ts) as a real process against the Discord stand-in on loopback
// (test/support/fakes/discord-server.ts), with a store of the test on the same Redis and prefix:
// interactions go in over the gateway, answers are read where the bot sends them.
import { InteractionResponseType } from 'discord.js';
import { inject } from 'vitest';
import type { Store } from '../../../store/index.ts';
import { testPrefix } from '../../support/api.ts';
import {
  startDiscordStandIn,
  type DiscordStandIn,
  type StandInRequest,
} from '../../support/fakes/discord-server.ts';
import { logLines, spawnLogged, type Exit, type LoggedProcess } from '../../support/logged-process.ts';
import type { RawInteraction } from './interactions.ts';
import type { MessageBody } from './replies.ts';
import {
  APPLICATION_ID,
  AUDIT_CHANNEL_ID,
  BOT_TOKEN,
  GUILD_ID,
  MODERATOR_ROLE_ID,
  REVIEW_CHANNEL_ID,
} from './snowflakes.ts';
import { openTestStore } from '../../support/test-store.ts';

export interface BotProcess {
  discord: DiscordStandIn;
  bot: LoggedProcess;
  /** A store of the test on the bot's Redis and prefix (manual clock unless the env says otherwise). */
  store: Store;
  prefix: string;
  env: Record<string, string>;
  /** The bot's log lines (JSON) so far. */
  logs(): Record<string, unknown>[];
  /** Stops the bot (SIGTERM) and everything else; resolves with how the bot exited. */
  close(): Promise<Exit>;
}

/** The bot's settings against `discord` and the suite's Redis under `prefix`: guild, review channel and role set. */
export const botEnv = (discord: Pick<DiscordStandIn, 'apiUrl'>, prefix: string): Record<string, string> => ({
  NODE_ENV: 'test',
  REDIS_URL: inject('redisUrl'),
  REDIS_PREFIX: prefix,
  LOG_LEVEL: 'info',
  DISCORD_API_URL: discord.apiUrl,
  DISCORD_TOKEN: BOT_TOKEN,
  DISCORD_APPLICATION_ID: APPLICATION_ID,
  DISCORD_GUILD_ID: GUILD_ID,
  DISCORD_REVIEW_CHANNEL_ID: REVIEW_CHANNEL_ID,
  DISCORD_MODERATOR_ROLE_ID: MODERATOR_ROLE_ID,
});

/**
 * Starts the stand-in and the bot with every DISCORD_* setting (guild, role, review and audit
 * channels; `env` overrides or unsets them with ''), and waits until its commands are registered.
 * `prepare` sets the stand-in and the store up before the bot starts.
 */
export async function startBotProcess(
  env: Record<string, string> = {},
  prepare: (ready: Pick<BotProcess, 'discord' | 'store'>) => Promise<void> | void = () => {},
): Promise<BotProcess> {
  const discord = await startDiscordStandIn();
  const prefix = env.REDIS_PREFIX ?? testPrefix();
  const fullEnv: Record<string, string> = {
    ...botEnv(discord, prefix),
    SEEDBLOCK_CLOCK: 'manual',
    DISCORD_AUDIT_CHANNEL_ID: AUDIT_CHANNEL_ID,
    ...env,
  };
  const store = await openTestStore({
    redisUrl: fullEnv.REDIS_URL!,
    prefix,
    clock: fullEnv.SEEDBLOCK_CLOCK === 'system' ? 'system' : 'manual',
    name: 'bot-process-test',
  });
  await prepare({ discord, store });
  const bot = spawnLogged('bot/main.ts', fullEnv);
  const logs = () => logLines(bot.stdout()).filter((l) => typeof l.msg === 'string');
  const running: BotProcess = {
    discord,
    bot,
    store,
    prefix,
    env: fullEnv,
    logs,
    async close() {
      const exit = await bot.stop(15_000);
      await Promise.all([discord.close(), store.close()]);
      return exit;
    },
  };
  await logged(
    running,
    /^slash commands registered$|^registering slash commands failed$/,
    'registration',
    60_000,
  );
  return running;
}

/** Resolves with the bot's log lines whose message matches, once there are `count`. */
export function logged(
  { discord, logs }: Pick<BotProcess, 'discord' | 'logs'>,
  msg: RegExp,
  what = String(msg),
  timeoutMs = 30_000,
  count = 1,
): Promise<Record<string, unknown>[]> {
  return discord.waitFor(() => logs().filter((l) => msg.test(String(l.msg))), count, what, timeoutMs);
}

/** What the bot finally showed for an interaction: its reply, or the edit of what it deferred. */
export interface Answer {
  /** The interaction response type: 4 reply, 5 deferred reply, 6 deferred update, 7 update, 8 suggestions. */
  type: InteractionResponseType;
  /** The reply's flags (64: ephemeral); for an edit, those of the deferred reply. */
  flags: number;
  body: MessageBody & { choices?: { name: string; value: string }[] };
  content: string;
  /** When the interaction was sent, and when its first response and final message reached Discord (ms). */
  dispatchedAt: number;
  respondedAt: number;
  answeredAt: number;
}

const DEFERRED: readonly InteractionResponseType[] = [
  InteractionResponseType.DeferredChannelMessageWithSource,
  InteractionResponseType.DeferredMessageUpdate,
];

/** The PATCH that edits the answer to `payload` (or the message its button is on). */
export const isEditOf = (payload: RawInteraction) => (r: StandInRequest) =>
  r.method === 'PATCH' && r.path === `/webhooks/${APPLICATION_ID}/${payload.token}/messages/@original`;

/** A follow-up message sent for `payload`. */
const isFollowUpOf = (payload: RawInteraction) => (r: StandInRequest) =>
  r.method === 'POST' && r.path === `/webhooks/${APPLICATION_ID}/${payload.token}`;

/** The follow-up messages sent for `payload`. */
export const followUpsOf = ({ discord }: Pick<BotProcess, 'discord'>, payload: RawInteraction) =>
  discord.requests.filter(isFollowUpOf(payload)).map((r) => r.body as MessageBody);

/** Hands an interaction to the bot over the gateway and waits for its answer (the edit or follow-up, if it deferred). */
export async function interact(
  { discord }: Pick<BotProcess, 'discord'>,
  payload: RawInteraction,
): Promise<Answer> {
  const dispatchedAt = Date.now();
  discord.dispatch('INTERACTION_CREATE', payload);
  const callbackPath = `/interactions/${payload.id}/${payload.token}/callback`;
  const [callback] = await discord.waitFor(
    () => discord.requests.filter((r) => r.method === 'POST' && r.path === callbackPath),
    1,
    `the answer to interaction ${payload.id}`,
  );
  const first = callback!.body as {
    type: InteractionResponseType;
    data?: Answer['body'] & { flags?: number };
  };
  let final = { body: first.data ?? {}, at: callback!.at };
  if (DEFERRED.includes(first.type)) {
    // A deferred update that fails leaves the message as it was and says so in a follow-up.
    const [edit] = await discord.waitFor(
      () => discord.requests.filter((r) => isEditOf(payload)(r) || isFollowUpOf(payload)(r)),
      1,
      `the edit of the answer to ${payload.id}, or a follow-up`,
    );
    final = { body: edit!.body as MessageBody, at: edit!.at };
  }
  return {
    type: first.type,
    flags: first.data?.flags ?? 0,
    body: final.body,
    content: final.body.content ?? '',
    dispatchedAt,
    respondedAt: callback!.at,
    answeredAt: final.at,
  };
}

/** The custom ids of the buttons of a message body, in order. */
export function buttonIds(body: MessageBody | undefined): string[] {
  return (body?.components ?? []).flatMap((row) => row.components.map((b) => b.custom_id));
}
