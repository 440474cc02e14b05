import type { Redis } from 'ioredis';
import { DbUnavailableError } from './errors.ts';

/**
 * Acknowledged means replicated: the writes a client is told about (a window a report opened, a
 * blocklist addition) are answered only once `WAIT` saw `replicas` replicas hold them, within
 * `timeoutMs`. Otherwise the caller gets ReplicationError (503 `db unavailable`); the write stays,
 * so a retry finds it if it survives, or makes it anew if a failover lost it.
 */
export interface ReplicaAcks {
  readonly replicas: number;
  readonly timeoutMs: number;
}

/** Fewer replicas than required confirmed a write in time: not acknowledged, 503. */
export class ReplicationError extends DbUnavailableError {
  override name = 'ReplicationError';
  readonly detail: string;
  constructor(detail: string) {
    super();
    this.detail = detail;
  }
}

interface Batch {
  readonly stream: Redis['stream'] | undefined;
  readonly confirmed: Promise<void>;
}

/**
 * Waits until the writes this connection has made so far reach the replicas. WAIT confirms every
 * earlier write of the connection it runs on, so it must run on the one that wrote; and one WAIT
 * per event-loop turn serves every caller of that turn (their writes were all answered before it
 * is sent). A connection that was replaced in between (a failover) confirms nothing: that WAIT
 * would count a fresh connection's writes, none.
 */
export function replicaWaiter(redis: Redis, { replicas, timeoutMs }: ReplicaAcks): () => Promise<void> {
  let next: Batch | null = null;
  const send = async (stream: Redis['stream'] | undefined): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    next = null;
    if (redis.stream !== stream) throw new ReplicationError('the connection changed before WAIT');
    const acked = await redis.wait(replicas, timeoutMs);
    if (acked < replicas)
      throw new ReplicationError(`${acked} of ${replicas} replicas confirmed in ${timeoutMs} ms`);
  };
  return async () => {
    if (replicas === 0) return;
    if (next === null || next.stream !== redis.stream) {
      const stream = redis.stream;
      next = { stream, confirmed: send(stream) };
    }
    return next.confirmed;
  };
}
