import type {
  APIEmbed,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Store } from '../store/index.ts';

/** What an operation answers, as plain data; the adapter sends it as an ephemeral reply. */
export interface BotReply {
  content: string;
  embeds?: APIEmbed[];
}

/** Who runs a command, taken from the interaction. */
export interface Caller {
  userId: string;
  username: string;
}

export interface CommandContext {
  store: Store;
  caller: Caller;
}

/** One slash command: its definition for Discord and the mapping of its options to an operation. */
export interface BotCommand {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Checked on our side for every use, whatever Discord's command permissions say. */
  moderatorOnly: boolean;
  execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<BotReply>;
}

/** Discord's limit for message content. */
export const CONTENT_MAX = 2000;

// Backticks (which would end the code span), bidi overrides and isolates, and zero-width
// characters: none may change how chat shows text a claimant chose, so they are removed. Control
// characters (a line break among them) become a space, so words stay apart.
const NOT_INERT = /[`\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/gu;
const CONTROL = /\p{Cc}/gu;

/**
 * Shows text a claimant or key holder chose inside inline code, so it can neither format, link
 * nor mention, cut to `max` (its spec length).
 */
export function inlineCode(text: string, max = 100): string {
  const clean = text.replace(NOT_INERT, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  // Cut on a character, never between the halves of a surrogate pair.
  const cut = () => `${clean.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
  return `\`${clean.length > max ? cut() : clean || ' '}\``;
}

/** A Discord timestamp tag: `R` relative ("in 30 minutes"), `f` date and time in the reader's zone. */
export function discordTime(iso: string, style: 'R' | 'f' | 't' = 'R'): string {
  return `<t:${Math.floor(Date.parse(iso) / 1000)}:${style}>`;
}
