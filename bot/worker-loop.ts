import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../runtime/logger.ts';
import { failureFields } from '../store/index.ts';
import { loggableError } from './log-error.ts';

// The bot's background work (review notices, the audit follower): one step after another until
// stopped. A failed step (Redis or Discord trouble) is logged and tried again after a pause that
// grows with each failure in a row, up to MAX_BACKOFF_MS; nothing is skipped by failing.

const MAX_BACKOFF_MS = 30_000;

export interface Worker {
  /** Ends the loop after the step under way; `interrupt` ends a step that waits (a blocking read). */
  stop(): Promise<void>;
}

export function runWorker({
  logger,
  what,
  step,
  interrupt,
  alreadySaid = () => false,
}: {
  logger: Logger;
  /** Names the work in the warn line of a failure ("posting review notices"). */
  what: string;
  step: () => Promise<void>;
  interrupt: () => void;
  /** True for a failure that was logged already (once per change of state): no warn line per try. */
  alreadySaid?: (err: unknown) => boolean;
}): Worker {
  const stopping = new AbortController();
  const loop = async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        await step();
        failures = 0;
      } catch (err) {
        if (stopping.signal.aborted) break;
        failures += 1;
        const delay = Math.min(250 * 2 ** failures, MAX_BACKOFF_MS);
        if (!alreadySaid(err))
          logger.warn(
            {
              ...('err' in failureFields(err) ? { err: loggableError(err) } : failureFields(err)),
              retryInMs: delay,
            },
            `${what} failed`,
          );
        await sleep(delay, undefined, { signal: stopping.signal }).catch(() => {});
      }
    }
  };
  const done = loop();
  return {
    async stop() {
      stopping.abort();
      interrupt();
      await done;
    },
  };
}
