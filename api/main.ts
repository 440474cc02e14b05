import { exitAtStart, loadConfig } from '../runtime/config.ts';
import { createLogger } from '../runtime/logger.ts';
import { stopOnSignal, stopWithSupervisor, tellSupervisor } from '../runtime/process.ts';
import { startApiServer } from './server.ts';
import { setFlagsFromString } from 'node:v8';

// After a full GC V8 lets the old space grow to up to 4× what survived it before the next one (on
// a host with memory to spare). A burst of requests promotes their short-lived objects: 4,000
// slow bodies at once (issue 22) left a process that keeps ~25 MB alive 70-90 MB larger, nearly
// all garbage. 2× halves that, at no cost measured to the map read or report benchmarks.
setFlagsFromString('--heap-growing-percent=100');

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
  exitAtStart(err);
}
