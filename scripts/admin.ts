import { parseArgs } from 'node:util';
import { canonicalIp } from '../api/probe/ip-address.ts';
import { ConfigError, loadConfig, type Config } from '../store/config.ts';
import { z } from 'zod';
import {
  PORT_MAX,
  PORT_MIN,
  redisReady,
  SEED_MAX,
  SEED_MIN,
  SUPERSEDED_MEANING,
  type Store,
} from '../store/index.ts';
import { reindexMaps } from '../generator/reindex.ts';
import { storeFromConfig } from '../store/process.ts';
import { resolveRedisUrl } from './embedded.ts';

// `npm run --silent admin -- <command>`: the operator's CLI. Each call prints one JSON object on
// stdout (an `{"error"}` object and exit code 1 on failure, 2 for a usage error). Commands call
// the same store functions the chat bot uses.

type Command = {
  usage: string;
  options?: Record<string, { type: 'string' }>;
  run(
    store: Store,
    positionals: string[],
    values: Record<string, string | undefined>,
    config: Config,
  ): Promise<unknown>;
};

class UsageError extends Error {}

// Command-line words are text: accept plain decimal integers only (no 1e3, no 0x10, no 01).
const integerWord = z
  .string()
  .regex(/^[1-9]\d*$/)
  .transform(Number);
const SeedArgSchema = integerWord.pipe(z.number().int().min(SEED_MIN).max(SEED_MAX));
const PortArgSchema = integerWord.pipe(z.number().int().min(PORT_MIN).max(PORT_MAX));

function arg(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`missing <${name}>`);
  return value;
}

function seedArg(value: string): number {
  const seed = SeedArgSchema.safeParse(value);
  if (!seed.success) throw new UsageError(`<seed> must be an integer ${SEED_MIN}..${SEED_MAX}`);
  return seed.data;
}

function portArg(value: string): number {
  const port = PortArgSchema.safeParse(value);
  if (!port.success) throw new UsageError(`--port must be an integer ${PORT_MIN}..${PORT_MAX}`);
  return port.data;
}

/** Written as the API writes a request's IP, so an expected address compares equal. */
function ipArg(value: string): string {
  const ip = canonicalIp(value);
  if (!ip) throw new UsageError(`--ip must be an IP address like 203.0.113.5 or 2001:db8::5`);
  return ip;
}

async function decide(store: Store, id: string, decision: 'approved' | 'rejected') {
  const result = await store.decideReview({ id, decision, moderator: 'operator (CLI)' });
  if (result.outcome === 'unknown') throw new Error(`no review ${id}`);
  if (result.outcome === 'already' && result.decision === 'superseded')
    throw new Error(`review ${id} was superseded: ${SUPERSEDED_MEANING}`);
  if (result.outcome === 'already')
    throw new Error(`review ${id} was already ${result.decision} by ${result.moderator}`);
  return { ok: true, id, decision };
}

const COMMANDS: Record<string, Command> = {
  'version set-minimum': {
    usage: 'version set-minimum <x.y.z>',
    run: (store, p) => store.setMinimumVersion(arg(p, 0, 'x.y.z')),
  },
  'version clear-minimum': {
    usage: 'version clear-minimum',
    run: (store) => store.clearMinimumVersion(),
  },
  'httpkey issue': {
    usage: 'httpkey issue [--owner <name>] [--label <text>]',
    options: { owner: { type: 'string' }, label: { type: 'string' } },
    run: (store, _p, v) => store.issueHttpKey({ owner: v.owner, label: v.label }),
  },
  'servers list': {
    usage: 'servers list',
    run: async (store) => ({ servers: await store.listRegistrations() }),
  },
  'code issue': {
    usage: 'code issue [--ip <ip>] [--port <port>]',
    options: { ip: { type: 'string' }, port: { type: 'string' } },
    run: (store, _p, v) =>
      store.issueClaimCode({
        ip: v.ip === undefined ? undefined : ipArg(v.ip),
        port: v.port === undefined ? undefined : portArg(v.port),
      }),
  },
  'code cancel': {
    usage: 'code cancel <code>',
    run: async (store, p) => {
      const code = arg(p, 0, 'code');
      if (!(await store.cancelClaimCode(code))) throw new Error(`no usable claim code ${code}`);
      return { ok: true, code };
    },
  },
  'review list': {
    usage: 'review list',
    run: async (store) => ({ reviews: await store.listReviews() }),
  },
  'review approve': {
    usage: 'review approve <id>',
    run: (store, p) => decide(store, arg(p, 0, 'id'), 'approved'),
  },
  'review reject': {
    usage: 'review reject <id>',
    run: (store, p) => decide(store, arg(p, 0, 'id'), 'rejected'),
  },
  'blocklist add': {
    usage: 'blocklist add <seed>',
    run: (store, p) => store.addToBlocklist(seedArg(arg(p, 0, 'seed'))),
  },
  'blocklist remove': {
    usage: 'blocklist remove <seed>',
    run: (store, p) => store.removeFromBlocklist(seedArg(arg(p, 0, 'seed'))),
  },
  'maps reindex': {
    usage: 'maps reindex',
    run: (store) => reindexMaps(store),
  },
  detect: {
    usage: 'detect <seed>',
    run: (store, p, _v, config) =>
      store.recordDetection({ seed: seedArg(arg(p, 0, 'seed')), queueMax: config.QUEUE_MAX }),
  },
  revoke: {
    usage: 'revoke <serverId>',
    run: async (store, p) => {
      const serverId = arg(p, 0, 'serverId');
      if (!(await store.revokeRegistration(serverId))) throw new Error(`no live registration ${serverId}`);
      return { ok: true, serverId };
    },
  },
};

function usage(): string {
  return `usage: npm run --silent admin -- <command>\ncommands:\n${Object.values(COMMANDS)
    .map((c) => `  ${c.usage}`)
    .join('\n')}`;
}

async function main(argv: string[]): Promise<number> {
  const name = [argv.slice(0, 2).join(' '), argv[0] ?? ''].find((n) => COMMANDS[n]);
  if (!name) {
    console.log(JSON.stringify({ error: argv.length ? `unknown command: ${argv.join(' ')}` : 'no command' }));
    console.error(usage());
    return 2;
  }
  const command = COMMANDS[name]!;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(name.split(' ').length),
      options: command.options ?? {},
      allowPositionals: true,
    });
  } catch (err) {
    console.log(JSON.stringify({ error: (err as Error).message, usage: command.usage }));
    return 2;
  }
  const config = loadConfig({ ...process.env, REDIS_URL: resolveRedisUrl() });
  if (!config.REDIS_URL) {
    console.log(JSON.stringify({ error: 'REDIS_URL is not set and no `npm start` Redis was found' }));
    return 1;
  }
  const store = storeFromConfig(config, 'seedblock-admin');
  try {
    await redisReady(store.ctx.redis, 5_000);
    const result = await command.run(
      store,
      parsed.positionals,
      parsed.values as Record<string, string>,
      config,
    );
    console.log(JSON.stringify(result));
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.log(
      JSON.stringify({ error: message, ...(err instanceof UsageError ? { usage: command.usage } : {}) }),
    );
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await store.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.log(JSON.stringify({ error: err instanceof ConfigError ? err.message : String(err) }));
  process.exitCode = 1;
}
