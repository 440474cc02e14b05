import type { Clock } from './clock.ts';
import type { StoreRedis } from './redis.ts';

/** What every store operation needs: the shared Redis, the key namespace, and the clock. */
export interface StoreContext {
  readonly redis: StoreRedis;
  readonly prefix: string;
  readonly clock: Clock;
}
