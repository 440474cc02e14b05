import type {
  APIActionRowComponent,
  APIApplicationCommandOptionChoice,
  APIButtonComponent,
  APIEmbed,
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Store } from '../store/index.ts';
import type { Deployment } from './deployment.ts';
import type { ModeratorPolicy } from './moderators.ts';

/** What an operation answers, as plain data; the adapter sends it as an ephemeral reply. */
export interface BotReply {
  content: string;
  embeds?: APIEmbed[];
  /** Rows of buttons (the /keys and /servers messages). */
  components?: APIActionRowComponent<APIButtonComponent>[];
}

/** Who runs a command, taken from the interaction. */
export interface Caller {
  userId: string;
  username: string;
}

export interface CommandContext {
  store: Store;
  caller: Caller;
  deployment: Deployment;
  policy: ModeratorPolicy;
}

/** One slash command: its definition for Discord and the mapping of its options to an operation. */
export interface BotCommand {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Checked on our side for every use, whatever Discord's command permissions say. */
  moderatorOnly: boolean;
  /**
   * Its write may wait on replicas (up to REDIS_REPLICAS_ACK_TIMEOUT_MS): the answer is deferred
   * (ephemeral) at once and edited once the operation is done, never late for Discord's 3 s.
   */
  defers: boolean;
  execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<BotReply>;
  /** Suggestions for the option being typed (at most 25). */
  autocomplete?(
    interaction: AutocompleteInteraction,
    ctx: CommandContext,
  ): Promise<APIApplicationCommandOptionChoice<string>[]>;
  /** The buttons its messages carry. */
  buttons?: readonly BotButton[];
}

/** Buttons whose custom ids start with `prefix`; the handler answers the press itself. */
export interface BotButton {
  prefix: string;
  press(interaction: ButtonInteraction, ctx: CommandContext): Promise<void>;
}

/** Discord's limit for message content. */
export const CONTENT_MAX = 2000;

// Backticks (which would end the code span), bidi overrides and isolates, and zero-width
// characters: none may change how chat shows text a claimant chose, so they are removed. Control
// characters (a line break among them) become a space, so words stay apart.
const NOT_INERT = /[`\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/gu;
const CONTROL = /\p{Cc}/gu;

/** Text someone chose, without what could change how it shows, cut to `max` characters. */
export function plainText(text: string, max = 100): string {
  const clean = text.replace(NOT_INERT, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  // Cut on a character, never between the halves of a surrogate pair.
  return clean.length > max ? `${clean.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…` : clean;
}

/**
 * Shows text a claimant or key holder chose inside inline code, so it can neither format, link
 * nor mention, cut to `max` (its spec length).
 */
export function inlineCode(text: string, max = 100): string {
  return `\`${plainText(text, max) || ' '}\``;
}

/** A Discord timestamp tag: `R` relative ("in 30 minutes"), `f` date and time in the reader's zone. */
export function discordTime(iso: string, style: 'R' | 'f' | 't' = 'R'): string {
  return `<t:${Math.floor(Date.parse(iso) / 1000)}:${style}>`;
}

/** True for a Discord user id (chat members own keys and codes by it; the CLI's owners are names). */
export function isDiscordId(value: string | null | undefined): value is string {
  return value !== null && value !== undefined && /^\d{17,20}$/.test(value);
}

/** A Discord member as chat text: a mention for a user id; anything else (a CLI name) inert. */
export function showMember(value: string, max = 64): string {
  return isDiscordId(value) ? `<@${value}>` : inlineCode(value, max);
}
