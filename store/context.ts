import type { Clock } from './clock.ts';
import type { StoreRedis } from './redis.ts';
import type { ReplicaAcks } from './replication.ts';

/**
 * What every store operation needs: the shared Redis, the key namespace, the clock, and how an
 * acknowledged write is confirmed (replication.ts).
 */
export interface StoreContext {
  readonly redis: StoreRedis;
  readonly prefix: string;
  readonly clock: Clock;
  readonly replicaAcks: ReplicaAcks;
  /** Resolves once this connection's writes so far reached replicaAcks.replicas replicas; else throws. */
  readonly confirmReplicated: () => Promise<void>;
}
