import cron from 'node-cron';
import { isDbUnavailable } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

/**
 * Settles windows that ran out even when no read touches their seed, so budgets, cooldowns and
 * protection statistics stay current. Every API process runs it; settling twice changes nothing.
 */
export function startWindowSweeper({ store, logger }: ApiDeps): { stop(): void } {
  const task = cron.schedule('*/2 * * * * *', async () => {
    try {
      const settled = await store.settleExpiredWindows();
      if (settled > 0) logger.debug({ settled }, 'settled expired windows');
    } catch (err) {
      if (!isDbUnavailable(err)) logger.error({ err }, 'window sweep failed');
    }
  });
  return { stop: () => void task.stop() };
}
