import { ConfigError, loadConfig } from '../store/config.ts';
import { createLogger } from '../store/logger.ts';
import { stopOnSignal, stopWithSupervisor, tellSupervisor } from '../store/process.ts';
import { startApiServer } from './server.ts';

// `npm run api`: one API process, pointed at REDIS_URL.
try {
  stopWithSupervisor();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const api = await startApiServer(config, logger);
  stopOnSignal(logger, 'shutting down', () => api.close());
  // `npm start` says "running" only once this arrives.
  tellSupervisor({ listening: api.port });
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
