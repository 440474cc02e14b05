import { ConfigError, loadConfig } from '../store/config.ts';
import { createLogger } from '../store/logger.ts';
import { startApiServer } from './server.ts';

// `npm run api`: one API process, pointed at REDIS_URL.
try {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const api = await startApiServer(config, logger);
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    try {
      await api.close();
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
