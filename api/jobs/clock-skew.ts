import { redisTime, type StoreRedis } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

const CHECK_MS = 10_000;
/** Past this, this process's clock (its log lines, HTTP `Date`) is said to be off. */
export const CLOCK_SKEW_WARN_MS = 2_000;

/**
 * This process's clock minus Redis's (ms), the round trip's midpoint against Redis's TIME. Every
 * decision takes Redis's time (store/clock.ts), so a skew misleads only logs and `Date`.
 */
export async function measureClockSkew(redis: StoreRedis): Promise<number> {
  const sent = Date.now();
  const redisNow = await redisTime(redis);
  return Math.round((sent + Date.now()) / 2 - redisNow);
}

/**
 * Logs at warn once when this process's clock is off Redis's by more than CLOCK_SKEW_WARN_MS, and
 * at info once when it is back within it. Redis away: nothing to say, its outage is logged.
 */
export function startClockSkewWatch({ store, logger }: Pick<ApiDeps, 'store' | 'logger'>): { stop(): void } {
  let skewed = false;
  const watch = async () => {
    const skewMs = await measureClockSkew(store.ctx.redis).catch(() => null);
    if (skewMs === null || Math.abs(skewMs) > CLOCK_SKEW_WARN_MS === skewed) return;
    skewed = !skewed;
    if (skewed) {
      logger.warn(
        { skewMs },
        "this process's clock is off Redis's; decisions use Redis's time, but log times and HTTP Date are off: fix the host's time sync",
      );
    } else {
      logger.info({ skewMs }, "this process's clock agrees with Redis's again");
    }
  };
  void watch();
  const timer = setInterval(() => void watch(), CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
