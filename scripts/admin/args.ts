import { canonicalIp } from '../../net/ip-address.ts';
import {
  CREDENTIAL_KINDS,
  PORT_MAX,
  PORT_MIN,
  SEED_MAX,
  SEED_MIN,
  type CredentialKind,
} from '../../store/index.ts';
import { UsageError, type Command } from './command.ts';

// The command line, read by hand rather than util.parseArgs: that one takes `-5` for an option
// and answers with its own wording; here every mistake is a UsageError in plain words.

export function parseCommandLine(
  command: Command,
  words: string[],
): { args: Record<string, string>; options: Record<string, string> } {
  const positionals: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') {
      positionals.push(...words.slice(i + 1));
      break;
    }
    // A negative number is an argument (out of range, said by its own check), not an option.
    if (!word.startsWith('-') || /^-\d/.test(word)) {
      positionals.push(word);
      continue;
    }
    const [name = '', inline] = word.replace(/^--?/, '').split(/=(.*)/s, 2);
    if (!command.options?.includes(name)) throw new UsageError(`unknown option ${word.split('=')[0]}`);
    const value = inline ?? words[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    options[name] = value;
  }
  const names = command.args ?? [];
  const missing = names[positionals.length];
  if (missing) throw new UsageError(`missing <${missing}>`);
  if (positionals.length > names.length)
    throw new UsageError(`unexpected argument ${positionals[names.length]}`);
  return { args: Object.fromEntries(names.map((n, i) => [n, positionals[i]!])), options };
}

/** A plain decimal integer (no 1e3, no 0x10, no 01, no sign) in [min, max], else null. */
function integer(value: string, min: number, max: number): number | null {
  if (!/^-?\d+$/.test(value) || /^-?0\d/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

export function seedArg(value: string): number {
  const seed = integer(value, SEED_MIN, SEED_MAX);
  if (seed === null) throw new UsageError(`seed must be an integer from ${SEED_MIN} to ${SEED_MAX}`);
  return seed;
}

export function portArg(value: string): number {
  const port = integer(value, PORT_MIN, PORT_MAX);
  if (port === null) throw new UsageError(`--port must be an integer from ${PORT_MIN} to ${PORT_MAX}`);
  return port;
}

export function limitArg(value: string, max: number): number {
  const limit = integer(value, 1, max);
  if (limit === null) throw new UsageError(`--limit must be an integer from 1 to ${max}`);
  return limit;
}

export function kindArg(value: string): CredentialKind {
  const kind = CREDENTIAL_KINDS.find((k) => k === value);
  if (!kind) throw new UsageError(`--kind must be one of ${CREDENTIAL_KINDS.join(', ')}`);
  return kind;
}

/** Written as the API writes a request's IP, so an expected address compares equal. */
export function ipArg(value: string): string {
  const ip = canonicalIp(value);
  if (!ip) throw new UsageError(`--ip must be an IP address like 203.0.113.5 or 2001:db8::5`);
  return ip;
}
