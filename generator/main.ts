import { createLogger } from '../store/logger.ts';
import { ConfigError, loadConfig } from '../store/config.ts';
import { connectRedis, openStore, redisReady } from '../store/index.ts';
import { startWorker } from './worker.ts';

// `npm run generator`: one generator worker, pointed at REDIS_URL. Run as many as you like.
try {
  const config = loadConfig();
  if (!config.REDIS_URL) throw new ConfigError('REDIS_URL is not set (npm start sets it for you)');
  const logger = createLogger(config.LOG_LEVEL, 'generator');
  const store = openStore({
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    clock: config.SEEDBLOCK_CLOCK,
    name: 'seedblock-generator',
  });
  const blocking = connectRedis({ url: config.REDIS_URL, name: 'seedblock-generator-queue', blocking: true });
  await redisReady(store.ctx.redis).catch(() => logger.warn('redis not reachable yet; waiting for it'));
  const worker = startWorker({ store, blocking, logger });
  logger.info({ workerId: worker.workerId }, 'generator worker started');
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'finishing the job in hand, then stopping');
    await worker.stop();
    blocking.disconnect();
    await store.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
