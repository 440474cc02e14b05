import type { Config } from '../../runtime/config.ts';
import type { Store } from '../../store/index.ts';

// One operator CLI command: its words, what it takes, and a handler that gets plain inputs.

export interface CommandInput {
  /** The positional arguments, by the names in `args`. */
  args: Record<string, string>;
  /** The options given, by name without the dashes. */
  options: Record<string, string | undefined>;
  config: Config;
}

export interface Command {
  /** e.g. `blocklist add <seed>`; shown by `help` and with every usage error. */
  usage: string;
  /** One line for `help`. */
  about: string;
  /** Names of the positional arguments, in order; all required. */
  args?: readonly string[];
  /** Names of the options, each taking one value (`--owner x` or `--owner=x`). */
  options?: readonly string[];
  /**
   * Checks the input (throwing UsageError) and returns the work to do with the store, so a bad
   * argument is refused before anything connects to Redis.
   */
  run(input: CommandInput): (store: Store) => Promise<unknown>;
}

/** A mistake in the command line: exit 2, with the command's usage. */
export class UsageError extends Error {}

/** A result printed as JSON lines, one value a line (none for an empty list), not one object. */
export class JsonLines {
  readonly lines: readonly unknown[];
  constructor(lines: readonly unknown[]) {
    this.lines = lines;
  }
}
