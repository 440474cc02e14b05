import { exitAtStart, loadConfig } from '../runtime/config.ts';
import { connectRedis, redisReady } from '../store/index.ts';
import { createLogger } from '../runtime/logger.ts';
import { isStopping, stopOnSignal, stopWithSupervisor, storeFromConfig } from '../runtime/process.ts';
import { logRedisOutages } from '../runtime/redis-outages.ts';
import { startWorker } from './worker.ts';

// `npm run generator`: one generator worker, pointed at REDIS_URL. Run as many as you like.
try {
  stopWithSupervisor();
  const config = loadConfig();
  const store = storeFromConfig(config, 'seedblock-generator');
  const logger = createLogger(config.LOG_LEVEL, 'generator');
  logRedisOutages(store.ctx.redis, logger, config.REDIS_URL!, isStopping);
  const blocking = connectRedis({
    url: config.REDIS_URL!,
    name: 'seedblock-generator-queue',
    blocking: true,
  });
  await redisReady(store.ctx.redis).catch(() => logger.warn('redis not reachable yet; waiting for it'));
  const worker = startWorker({ store, blocking, logger, cacheMaxBytes: config.MAP_CACHE_MAX_BYTES });
  logger.info({ workerId: worker.workerId }, 'generator worker started');
  stopOnSignal(logger, 'finishing the job in hand, then stopping', async () => {
    await worker.stop();
    blocking.disconnect();
    await store.close();
  });
} catch (err) {
  exitAtStart(err);
}
