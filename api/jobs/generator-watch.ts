import { WORKER_SEEN_MS } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { readGenerators } from '../health.ts';

const CHECK_MS = 10_000;
const LOG_EVERY_MS = 60_000;

/**
 * Logs at `error`, at most once a minute, while jobs wait and no generator worker has been seen
 * for WORKER_SEEN_MS: maps would never come. Readiness reports the same without failing (a worker is
 * another process; this API process is fine). Redis away: nothing to say, its outage is logged.
 */
export function startGeneratorWatch({ store, logger }: ApiDeps): { stop(): void } {
  // Monotonic time for the throttle: the manual clock lives in Redis, which may be away.
  let loggedAt = -Infinity;
  const watch = async () => {
    const generators = await readGenerators(store).catch(() => null);
    if (!generators?.stalled || performance.now() - loggedAt < LOG_EVERY_MS) return;
    loggedAt = performance.now();
    logger.error(
      { workers: 0, waiting: generators.waiting },
      `jobs are waiting and no generator worker was seen in ${WORKER_SEEN_MS / 1000} s; start one (npm run generator)`,
    );
  };
  void watch();
  const timer = setInterval(() => void watch(), CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
