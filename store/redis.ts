import { Redis, type RedisOptions as IoRedisOptions } from 'ioredis';
import { TurnBatchedRedis } from './turn-batched-redis.ts';
import { parseSentinelUrl } from './redis-url.ts';
import { defineScripts, type ScriptCommands } from './scripts/index.ts';

export type StoreRedis = Redis & ScriptCommands;

export interface RedisOptions {
  /** REDIS_URL: `redis://`, `rediss://`, or `redis-sentinel://` (see redis-url.ts). */
  url: string;
  /** A name shown in CLIENT LIST, to tell processes apart. */
  name: string;
  /** Blocking commands (BLMOVE) need a connection without a command timeout. */
  blocking?: boolean;
  /** Longest WAIT this connection sends (REDIS_REPLICAS_ACK_TIMEOUT_MS): the calls behind it wait as long. */
  waitMs?: number;
  /** Under Sentinel: told the master's address (`host:port`, as the Sentinels name it) before each connect. */
  onMasterAddress?: (address: string) => void;
}

/**
 * One connection to the shared Redis, with every Lua script defined on it.
 * No offline queue and a short wait for answers (watchReplies): when Redis is down or hung, a call
 * fails at once, or within REPLY_TIMEOUT_MS, with an error the API turns into 503 `db
 * unavailable`, instead of hanging; ioredis keeps reconnecting in the background, so service
 * resumes by itself when Redis is back. Through Sentinel it follows a
 * failover: it reconnects to the new master when the Sentinels announce it, or when the old one
 * answers READONLY (a replica now).
 */
export function connectRedis({
  url,
  name,
  blocking = false,
  waitMs = 0,
  onMasterAddress,
}: RedisOptions): StoreRedis {
  const options: IoRedisOptions = {
    protocol: 2,
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
    lazyConnect: false,
  };
  const sentinel = parseSentinelUrl(url);
  // A blocking command would hold a corked turn's other commands: no batches there.
  const Connection = blocking ? Redis : TurnBatchedRedis;
  const redis = (
    sentinel
      ? new Connection({
          ...options,
          ...sentinel,
          failoverDetector: true,
          // Not to map anything: to learn which address this connection goes to (master-lease.ts).
          natMap: (address: string) => (onMasterAddress?.(address), null),
        })
      : new Connection(url, options)
  ) as StoreRedis;
  // Without a listener ioredis prints every reconnect failure; callers log state changes instead.
  redis.on('error', () => {});
  defineScripts(redis);
  if (!blocking) watchReplies(redis, REPLY_TIMEOUT_MS + waitMs);
  return redis;
}

/** How long a call may wait for Redis's answer before it fails (503) and the connection is dropped. */
const REPLY_TIMEOUT_MS = 400;

/**
 * Fails every waiting call of a connection whose Redis has stopped answering (hung, a dead peer):
 * when the oldest call has waited `timeoutMs`, the socket is destroyed, every pending call fails
 * with "Connection is closed" and ioredis reconnects. Replies come back in order, so watching the
 * oldest call is enough: one interval per connection, where ioredis's commandTimeout would start
 * and clear a timer for every command (about a tenth of a map read's cost).
 */
function watchReplies(redis: Redis, timeoutMs: number): void {
  const tick = timeoutMs / 4;
  let oldest: unknown;
  let waited = 0;
  const timer = setInterval(() => {
    const first = redis.commandQueue.peekFront();
    if (first !== oldest) {
      [oldest, waited] = [first, 0];
      return;
    }
    if (first === undefined) return;
    waited += tick;
    if (waited >= timeoutMs) {
      [oldest, waited] = [undefined, 0];
      redis.stream?.destroy(new Error(`Redis did not answer in ${timeoutMs} ms`));
    }
  }, tick);
  timer.unref();
  redis.once('end', () => clearInterval(timer));
}

/** Resolves once the connection is ready (or rejects after `timeoutMs`). */
export function redisReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/** The replies of a pipeline or MULTI, throwing its first error. */
export function results(replies: [Error | null, unknown][] | null): unknown[] {
  if (!replies) throw new Error('transaction discarded');
  return replies.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}
