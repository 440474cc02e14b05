import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../runtime/config.ts';
import { redisReady } from '../store/index.ts';
import { storeFromConfig } from '../runtime/process.ts';
import { parseCommandLine } from './admin/args.ts';
import { auditCommands } from './admin/audit.ts';
import { blocklistCommands } from './admin/blocklist.ts';
import { claimCommands } from './admin/claims.ts';
import { mapCommands } from './admin/maps.ts';
import { JsonLines, UsageError, type Command } from './admin/command.ts';
import { serverCommands } from './admin/servers.ts';
import { versionCommands } from './admin/version.ts';
import { resolveRedisUrl } from './embedded.ts';

// `npm run --silent admin -- <command>`: the operator's CLI. Each call prints one JSON object on
// stdout (a list like `audit list` one JSON line per entry): the result (exit 0), `{"error"}`
// (exit 1), or for a usage error `{"error","usage"}`
// (exit 2). `help`, `--help`, `help <command>` and `help <group>` print `{"usage", …}` and exit 0. Commands are in
// scripts/admin/, one file per group, and call the same store functions the chat bot uses.
// `run(argv, env)` is the whole CLI but the process: the tests call it in-process.

const COMMANDS: Record<string, Command> = {
  ...versionCommands,
  ...serverCommands,
  ...claimCommands,
  ...blocklistCommands,
  ...mapCommands,
  ...auditCommands,
};

const USAGE = 'npm run --silent admin -- <command> (help <command> for one)';

/** The command the words start with (two words, else one), and the rest. */
function findCommand(words: string[]): { name: string; rest: string[] } | null {
  for (const n of [2, 1]) {
    const name = words.slice(0, n).join(' ');
    if (words.length >= n && COMMANDS[name]) return { name, rest: words.slice(n) };
  }
  return null;
}

function help(words: string[]): { out: unknown; code: number } {
  if (words.length === 0) {
    return {
      out: { usage: USAGE, commands: Object.values(COMMANDS).map((c) => `${c.usage}: ${c.about}`) },
      code: 0,
    };
  }
  const found = findCommand(words);
  if (found) {
    const command = COMMANDS[found.name]!;
    return { out: { usage: command.usage, about: command.about }, code: 0 };
  }
  // `help blocklist`: the commands of that group.
  const group = Object.entries(COMMANDS).filter(([name]) => name.startsWith(`${words.join(' ')} `));
  if (group.length === 0) {
    return { out: { error: `unknown command: ${words.join(' ')}`, usage: USAGE }, code: 2 };
  }
  return { out: { usage: USAGE, commands: group.map(([, c]) => `${c.usage}: ${c.about}`) }, code: 0 };
}

type Env = Record<string, string | undefined>;

async function main(argv: string[], env: Env): Promise<{ out: unknown; code: number }> {
  const asksHelp = (w: string) => w === '--help' || w === '-h';
  if (argv[0] === 'help') return help(argv.slice(1));
  if (argv.length === 0 || argv.some(asksHelp)) return help(argv.filter((w) => !asksHelp(w)));
  const found = findCommand(argv);
  if (!found) return { out: { error: `unknown command: ${argv.join(' ')}`, usage: USAGE }, code: 2 };
  const command = COMMANDS[found.name]!;
  const config = loadConfig({ ...env, REDIS_URL: resolveRedisUrl(env) });
  let work;
  try {
    work = command.run({ ...parseCommandLine(command, found.rest), config });
  } catch (err) {
    if (err instanceof UsageError) return { out: { error: err.message, usage: command.usage }, code: 2 };
    throw err;
  }
  if (!config.REDIS_URL) {
    return { out: { error: 'REDIS_URL is not set and no `npm start` Redis was found' }, code: 1 };
  }
  const store = storeFromConfig(config, 'seedblock-admin');
  try {
    await redisReady(store.ctx.redis, 5_000);
    return { out: await work(store), code: 0 };
  } catch (err) {
    if (err instanceof UsageError) return { out: { error: err.message, usage: command.usage }, code: 2 };
    return { out: { error: err instanceof Error ? err.message : String(err) }, code: 1 };
  } finally {
    await store.close();
  }
}

/** What one call of the CLI prints on stdout (one JSON line, or one per entry of a list) and its exit code. */
export interface AdminRun {
  stdout: string;
  code: number;
}

/** The CLI with the words `argv` (after `admin`) and the environment `env`. */
export async function run(argv: string[], env: Env = process.env): Promise<AdminRun> {
  try {
    const { out, code } = await main(argv, env);
    const lines = out instanceof JsonLines ? out.lines : [out];
    return { stdout: lines.map((line) => `${JSON.stringify(line)}\n`).join(''), code };
  } catch (err) {
    const error = err instanceof ConfigError ? err.message : String(err);
    return { stdout: `${JSON.stringify({ error })}\n`, code: 1 };
  }
}

// As a command (not imported by a test).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { stdout, code } = await run(process.argv.slice(2));
  process.stdout.write(stdout);
  process.exitCode = code;
}
