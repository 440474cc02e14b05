import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import { openStore, type Store } from './index.ts';
import type { Logger } from './logger.ts';

// What every long-running process (API, generator, bot) and the CLI do alike at start and stop.

/** The store of one process, as its configuration says; `name` shows in CLIENT LIST. */
export function storeFromConfig(config: Config, name: string): Store {
  if (!config.REDIS_URL) throw new ConfigError('REDIS_URL is not set (npm start sets it for you)');
  return openStore({
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    clock: config.SEEDBLOCK_CLOCK,
    name,
  });
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0 (1 if stopping failed). `graceMs` bounds the
 * whole stop, so whatever hangs (a peer, Redis), the process still ends.
 */
export function stopOnSignal(
  logger: Logger,
  message: string,
  stop: () => Promise<void>,
  graceMs = 15_000,
): void {
  const shutdown = async (signal: string) => {
    logger.info({ signal }, message);
    setTimeout(() => process.exit(1), graceMs).unref();
    try {
      await stop();
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
