import type { Redis } from 'ioredis';
import type { Logger } from './logger.ts';
import { redactRedisUrl } from '../store/redis-url.ts';

/**
 * One log line per change of a connection's state, never one per call: `error` when Redis is lost
 * (or unreachable at start), with the address (password redacted) and the reason in one line, no
 * stack; `info` when it is back, with how long it was away. Each process (API, generator, bot)
 * watches its main connection. Lost while `stopping()` (Ctrl-C and systemd's control-group stop
 * signal the embedded Redis with everything else), it is an `info` line: nothing is wrong.
 */
export function logRedisOutages(redis: Redis, logger: Logger, url: string, stopping: () => boolean): void {
  const address = redactRedisUrl(url);
  // Monotonic time for the outage's length: the manual clock lives in the Redis that is away.
  let lostAt: number | undefined;
  let reason = 'connection closed';
  redis.on('error', (err: Error) => {
    reason = err.message;
  });
  // 'reconnecting', not 'close': a connection closed on purpose (shutdown) does not reconnect.
  redis.on('reconnecting', () => {
    if (lostAt !== undefined) return;
    lostAt = performance.now();
    // The 'error' of a refused or broken connection comes before; a plain close has none.
    if (stopping()) logger.info({ redis: address, reason }, 'Redis gone while stopping');
    else logger.error({ redis: address, reason }, 'Redis lost; calls needing it fail until it is back');
    reason = 'connection closed';
  });
  redis.on('ready', () => {
    if (lostAt === undefined) return;
    const downMs = Math.round(performance.now() - lostAt);
    lostAt = undefined;
    logger.info({ redis: address, downMs }, `Redis back after ${(downMs / 1000).toFixed(1)} s`);
  });
}
