import { isIP } from 'node:net';
import { parseSentinelUrl } from '../store/redis-url.ts';
import { z } from 'zod';

// Every setting comes from the environment and is parsed here, once. A bad value stops start-up
// with a message naming the variable, so the operator knows what to change.

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v));
// Decimal digits only: `z.coerce` would read " " as port 0 (a random port) and "0x50" as 80.
const port = z
  .string()
  .regex(/^\d{1,5}$/, 'a port number 0..65535')
  .transform(Number)
  .pipe(z.number().int().min(0).max(65_535));

/** One entry of a `trust proxy` list as express (proxy-addr) reads it: a name, an IP, IP/prefix or IPv4/mask. */
function isTrustEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const slash = entry.lastIndexOf('/');
  const ip = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(ip);
  if (family === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  if (/^\d+$/.test(range)) return Number(range) >= 1 && Number(range) <= (family === 4 ? 32 : 128);
  if (family !== 4 || isIP(range) !== 4) return false;
  // A netmask must be contiguous ones, and not 0.0.0.0.
  const mask = range.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
  const inverted = 0xffffffff - mask;
  return mask !== 0 && (inverted & (inverted + 1)) === 0;
}

/**
 * express's `trust proxy` accepts true/false, a hop count, or a list of addresses/subnets/names.
 * A list is checked here, so a typo stops start-up naming TRUST_PROXY instead of failing in express.
 */
const trustProxy = z
  .string()
  .refine(
    (v) => /^(true|false|\d+)$/.test(v) || v.split(',').every((entry) => isTrustEntry(entry.trim())),
    'true, false, a hop count, or a comma-separated list of loopback/linklocal/uniquelocal, IPs and subnets',
  )
  .transform((v): boolean | number | string => {
    if (v === 'true') return true;
    if (v === 'false') return false;
    if (/^\d+$/.test(v)) return Number(v);
    return v;
  });

/** A size in bytes, decimal digits only (as `port`: no " " → 0, no "1e9"). */
const bytes = z
  .string()
  .regex(/^\d{1,15}$/, 'a number of bytes (decimal digits, e.g. 268435456 for 256 MiB)')
  .transform(Number);
const MIB = 2 ** 20;

/** A Discord bot token: base64url id, timestamp and signature joined by dots. */
const BOT_TOKEN = /^[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$/;

const redisUrl = z
  .string()
  .refine(
    (v) => /^rediss?:\/\//.test(v) || parseSentinelUrl(v) !== null,
    'must be redis://…, rediss://…, or redis-sentinel://host:port[,host:port…]#master',
  )
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * The canonical https origin clients reach the API at (`https://seedblock.example`), host and port
 * only, so the https redirect names it instead of a host a client chose.
 */
/** The origin of an https URL that names nothing but its host and port, else null. */
function httpsOrigin(value: string): string | null {
  if (!URL.canParse(value)) return null; // not URL.parse: Node 20 lacks it
  const u = new URL(value);
  if (u.protocol !== 'https:' || u.username || u.password) return null;
  return u.pathname === '/' && u.search === '' && u.hash === '' ? u.origin : null;
}
const publicUrl = optionalText.pipe(
  z
    .string()
    .refine(
      (v) => httpsOrigin(v) !== null,
      'an https origin like https://seedblock.example (host and port only: no path, query or user)',
    )
    .transform((v) => httpsOrigin(v)!)
    .optional(),
);

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(8080),
    /** `::` listens on IPv6 and IPv4 (IPv4 only where the host has no IPv6). */
    HOST: z.string().min(1).default('::'),
    REDIS_URL: redisUrl,
    /** Namespace of every Redis key; tests give each suite its own. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,40}$/, 'letters, digits, ":", "_" or "-" only')
      .default('sb:'),
    API_PREFIX: z
      .string()
      .regex(/^(\/[A-Za-z0-9._-]+)*$/, 'a path like /api (or empty), without a trailing slash')
      .default('/api'),
    TRUST_PROXY: trustProxy.default('loopback'),
    PUBLIC_URL: publicUrl,
    ADMIN_TOKEN: optionalText.pipe(z.string().min(16, 'use at least 16 characters').optional()),
    /**
     * Replicas that must confirm (WAIT) an acknowledged write (a window, a credential, a revoke...)
     * before the answer: unset, every replica the master lists online (at least 1) under
     * redis-sentinel:// and 0 otherwise (replicasAck()).
     */
    REDIS_REPLICAS_ACK: z.coerce.number().int().min(0).max(16).optional(),
    /** How long they may take; past it the answer is 503 `db unavailable`. */
    REDIS_REPLICAS_ACK_TIMEOUT_MS: z.coerce.number().int().min(10).max(5_000).default(250),
    SEEDBLOCK_CLOCK: z.enum(['system', 'manual']).default('system'),
    DISCORD_TOKEN: optionalText.refine(
      (v) => v === undefined || BOT_TOKEN.test(v),
      'not a bot token: copy the token from the Bot page of the Discord developer portal (three parts joined by dots, without "Bot ")',
    ),
    DISCORD_APPLICATION_ID: optionalText,
    DISCORD_GUILD_ID: optionalText,
    DISCORD_REVIEW_CHANNEL_ID: optionalText,
    DISCORD_MODERATOR_ROLE_ID: optionalText,
    /** Where the bot posts one line per audited action (moderators, owners, the CLI). */
    DISCORD_AUDIT_CHANNEL_ID: optionalText,
    /** Discord's REST base; the gateway address comes from its GET /gateway/bot, as from Discord. */
    DISCORD_API_URL: z
      .url({ protocol: /^https?$/, error: 'an http(s) URL like https://discord.com/api' })
      .default('https://discord.com/api'),
    RELEASES_URL: optionalText.pipe(z.url().optional()),
    PROBE_KIND: z.enum(['a2s']).default('a2s'),
    PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(2_000),
    PROBE_ALLOW_PRIVATE: flag.default(false),
    QUEUE_MAX: z.coerce.number().int().min(1).default(10_000),
    /** Most bytes of map bodies kept in Redis (the map cache); 0 keeps none. */
    MAP_CACHE_MAX_BYTES: bytes.default(256 * MIB),
    /** Most bytes of map bodies each API process keeps in its own memory (all codings together). */
    MAP_MEMORY_CACHE_BYTES: bytes.default(64 * MIB),
    /** Most bytes of link-preview pictures (PNG) each API process keeps in memory; 0 keeps none. */
    PREVIEW_CACHE_BYTES: bytes.default(16 * MIB),
    /** Multiplies every rate limit of spec part 8; for benchmarks only. */
    RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1_000_000).default(1),
    /** One in this many successful map reads is logged (1: every one); metrics count them all. */
    MAP_READ_LOG_SAMPLE: z.coerce.number().int().min(1).max(1_000_000).default(100),
    /** Where `npm start` keeps its embedded Redis's data and its lock; relative to the checkout. */
    DATA_DIR: z.string().min(1).default('.data'),
    /** The port of the Redis `npm start` runs when REDIS_URL is unset (127.0.0.1 only). */
    EMBEDDED_REDIS_PORT: port.pipe(z.number().min(1, 'a port number 1..65535')).default(6390),
    /** The viewer's build output the API serves; viewer/dist when unset. */
    VIEWER_DIST_DIR: optionalText,
    /** Emit and serve the viewer's source maps (public: they hold the whole source). */
    VIEWER_SOURCE_MAPS: flag.default(false),
    /** Most time a client may take to send its request headers. */
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(10_000),
    /** Most time a client may take to send its whole request, body included. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(20_000),
    /**
     * How long an idle kept-alive connection stays open for the client's next request: above the
     * idle timeout of every proxy in front (60 s for most), so the proxy always closes first.
     */
    KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(65_000),
    /**
     * Most open sockets of one API process; past it a new one takes the place of an idle one of a
     * peer over MAX_IDLE_CONNECTIONS_PER_PEER, or is closed at once.
     */
    MAX_CONNECTIONS: z.coerce.number().int().min(2).max(1_000_000).default(10_000),
    /**
     * Most connections one peer address (IPv6 /56) holds without a request under way: new ones that
     * have sent nothing past a second (then its oldest are closed), and, once the process is full,
     * kept-alive ones too. A trusted proxy that forwards is exempt.
     */
    MAX_IDLE_CONNECTIONS_PER_PEER: z.coerce.number().int().min(1).max(1_000_000).default(64),
    /** Most requests with a body one client IP (IPv6 /56) sends at once to one API process. */
    MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(64),
    /** Most bodies one API process receives at once; past it the oldest still arriving is closed. */
    MAX_BODIES_IN_FLIGHT: z.coerce.number().int().min(1).max(1_000_000).default(256),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((c, ctx) => {
    if (c.HEADERS_TIMEOUT_MS > c.REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: `at most REQUEST_TIMEOUT_MS (${c.REQUEST_TIMEOUT_MS}): the headers are part of the request`,
      });
    }
    if (c.MAX_IDLE_CONNECTIONS_PER_PEER >= c.MAX_CONNECTIONS) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAX_IDLE_CONNECTIONS_PER_PEER'],
        message: `below MAX_CONNECTIONS (${c.MAX_CONNECTIONS}): one address must leave sockets for the others`,
      });
    }
    if (c.DISCORD_TOKEN && !c.DISCORD_APPLICATION_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['DISCORD_APPLICATION_ID'],
        message:
          'must be set with DISCORD_TOKEN: the application id from the Discord developer portal (or unset DISCORD_TOKEN to run without the bot)',
      });
    }
    if (c.SEEDBLOCK_CLOCK === 'manual' && c.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['SEEDBLOCK_CLOCK'],
        message: 'the manual clock is for tests; unset it (or set NODE_ENV to something else)',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;
type Shape = typeof ConfigSchema.shape;

/**
 * REDIS_REPLICAS_ACK, or its default: a Sentinel deployment waits for every replica the master
 * lists online (`online`, at least one), so none Sentinel may promote lacks an acknowledged write.
 */
export function replicasAck(config: Pick<Config, 'REDIS_URL' | 'REDIS_REPLICAS_ACK'>): number | 'online' {
  return config.REDIS_REPLICAS_ACK ?? (config.REDIS_URL && parseSentinelUrl(config.REDIS_URL) ? 'online' : 0);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The env's value of each named setting, an empty one as unset. */
function settingsOf(names: string[], env: Record<string, string | undefined>) {
  return Object.fromEntries(names.map((k) => [k, env[k] === '' ? undefined : env[k]]));
}

function configError(error: z.ZodError): ConfigError {
  const lines = error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
  return new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}

/** Parses the environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(settingsOf(Object.keys(ConfigSchema.shape), env));
  if (parsed.success) return parsed.data;
  throw configError(parsed.error);
}

/**
 * Parses only the named settings, for a tool that needs a few (the viewer build): a bad value of
 * any other one is not its business. Throws ConfigError naming each bad variable.
 */
export function loadSettings<K extends keyof Shape>(
  names: K[],
  env: Record<string, string | undefined> = process.env,
): z.output<z.ZodObject<Pick<Shape, K>>> {
  const shape = Object.fromEntries(names.map((name) => [name, ConfigSchema.shape[name]]));
  const parsed = z.object(shape as Pick<Shape, K>).safeParse(settingsOf(names, env));
  if (parsed.success) return parsed.data;
  throw configError(parsed.error);
}

/**
 * How an entry point ends when it cannot start: a ConfigError is its one message on stderr, with
 * no stack (the operator has a setting to fix, not a bug to read); anything else is printed whole.
 * Exit code 1 either way.
 */
export function exitAtStart(err: unknown): never {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
