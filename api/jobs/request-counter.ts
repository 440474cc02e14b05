import { isDbUnavailable, type Store } from '../../store/index.ts';
import type { Logger } from '../../runtime/logger.ts';

/**
 * `requestsTotal` (spec 2.8) counts every API request. Counting in memory and adding the sum to
 * Redis once a second keeps a round trip off every request; at most a second of counts is lost
 * if the process dies.
 */
export interface RequestCounter {
  /** Counts one API request. */
  count(): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function startRequestCounter(store: Store, logger: Logger): RequestCounter {
  let pending = 0;
  const flush = async () => {
    const count = pending;
    pending = 0;
    try {
      await store.addRequests(count);
    } catch (err) {
      pending += count;
      if (!isDbUnavailable(err)) logger.error({ err }, 'request count flush failed');
    }
  };
  const timer = setInterval(() => void flush(), 1_000);
  timer.unref();
  return {
    count() {
      pending++;
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
