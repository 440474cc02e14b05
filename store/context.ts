import type { Clock } from './clock.ts';
import type { MasterLease } from './master-lease.ts';
import type { StoreRedis } from './redis.ts';
import type { ReplicaAcks, Replication } from './replication.ts';

/**
 * What every store operation needs: the shared Redis, the key namespace, the clock, how an
 * acknowledged write is confirmed (replication.ts), and whether reads may be served
 * (master-lease.ts).
 */
export interface StoreContext {
  readonly redis: StoreRedis;
  readonly prefix: string;
  readonly clock: Clock;
  readonly replicaAcks: ReplicaAcks;
  /** Resolves once this connection's writes so far reached the required replicas; else throws. */
  readonly confirmReplicated: () => Promise<void>;
  /** The replication of writes and what it found lately (replicas able to confirm or not). */
  readonly replication: Replication;
  /** Whether this process's Redis is confirmed as the current master. */
  readonly master: MasterLease;
}
