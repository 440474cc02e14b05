import type { Redis } from 'ioredis';
import { DbUnavailableError, isRedisRefusal } from './errors.ts';

/**
 * Acknowledged means replicated: the writes a client is told about (a window a report opened, a
 * credential, a revoke, a code, a decision, the blocklist, the minimum version) are answered only
 * once `WAIT` saw `replicas` replicas hold them, within `timeoutMs`. Otherwise the caller gets
 * ReplicationError (503 `db unavailable`); the write stays, so a retry finds it if it survives, or
 * makes it anew if a failover lost it.
 */
export interface ReplicaAcks {
  /**
   * How many replicas must confirm; `online`: every replica the master lists online (INFO
   * replication), at least one, as a Kafka producer with acks=all waits for the in-sync set.
   */
  readonly replicas: number | 'online';
  readonly timeoutMs: number;
}

/** Fewer replicas than required confirmed a write in time: not acknowledged, 503. */
export class ReplicationError extends DbUnavailableError {
  override name = 'ReplicationError';
  readonly detail: string;
  constructor(detail: string) {
    super();
    this.detail = detail;
    // What the operator CLI prints; the API answers `db unavailable` whatever the message.
    this.message = `db unavailable: not confirmed by the replicas (${detail}); nothing was acknowledged, try again`;
  }
}

/** Whether replicas confirm writes now, as the last confirmation (or probe) found. */
export interface ReplicaState {
  /** False from a confirmation that fell short until one succeeds. */
  readonly ackable: boolean;
  /** Replicas that confirmed the last one. */
  readonly confirmed: number;
  /** Replicas that must confirm now. */
  readonly required: number;
}

/** How long the count of online replicas is trusted before INFO is asked again. */
const ONLINE_TTL_MS = 1_000;

const onlineReplicas = (info: string) => info.match(/^slave\d+:.*\bstate=online\b/gm)?.length ?? 0;

/**
 * The replication of one store's writes. `confirm` waits until the writes made so far reach the
 * replicas: it writes a fence (INCR `fenceKey`) and sends WAIT behind it on the writing connection.
 * WAIT confirms everything the connection wrote before it, and the fence puts every write Redis
 * took before it (any connection's: a retry that finds the state an earlier attempt left) into
 * that. One fence and WAIT per event-loop turn serve every caller of that turn (their writes were
 * all answered before it is sent). A connection that was replaced in between (a failover)
 * confirms nothing: that WAIT would count a fresh connection's writes, none.
 */
export class Replication {
  readonly #redis: Redis;
  readonly #acks: ReplicaAcks;
  readonly #fenceKey: string;
  #next: { stream: Redis['stream'] | undefined; confirmed: Promise<void> } | null = null;
  #online = { count: 0, at: -Infinity, reading: null as Promise<void> | null };
  #state: ReplicaState;
  #lastOutcomeAt = -Infinity;
  readonly #listeners = new Set<(state: ReplicaState) => void>();

  constructor(redis: Redis, acks: ReplicaAcks, fenceKey: string) {
    this.#redis = redis;
    this.#acks = acks;
    this.#fenceKey = fenceKey;
    const required = acks.replicas === 'online' ? 1 : acks.replicas;
    this.#state = { ackable: true, confirmed: required, required };
  }

  /** Whether writes wait for replicas at all (REDIS_REPLICAS_ACK other than 0). */
  get waits(): boolean {
    return this.#acks.replicas !== 0;
  }

  get state(): ReplicaState {
    return this.#state;
  }

  /** When a confirmation or probe last had an outcome (performance.now()). */
  get lastOutcomeAt(): number {
    return this.#lastOutcomeAt;
  }

  /** Calls `listener` with the new state whenever `ackable` changes. */
  onChange(listener: (state: ReplicaState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once the writes so far are replicated as required; else throws ReplicationError. */
  confirm = (): Promise<void> => {
    if (!this.waits) return Promise.resolve();
    const stream = this.#redis.stream;
    if (this.#next === null || this.#next.stream !== stream) {
      this.#next = { stream, confirmed: this.#send(stream) };
    }
    return this.#next.confirmed;
  };

  /**
   * The same check on a connection of its own (`probe`), for when no write has asked lately: the
   * fence and WAIT say whether the replicas would confirm a write now, without holding up the
   * writing connection's other calls while they do not.
   */
  async probe(probe: Redis): Promise<void> {
    if (!this.waits) return;
    await this.#fenceAndWait(probe, await this.#required());
  }

  async #send(stream: Redis['stream'] | undefined): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#next = null;
    const required = await this.#required();
    if (this.#redis.stream !== stream) throw new ReplicationError('the connection changed before WAIT');
    await this.#fenceAndWait(this.#redis, required);
  }

  async #fenceAndWait(redis: Redis, required: number): Promise<void> {
    // Known short (the master lists fewer online): no WAIT, which would hold the connection for
    // the whole timeout. A replica that came back is counted again within ONLINE_TTL_MS.
    if (this.#online.count < required) {
      this.#outcome(this.#online.count, required);
      throw new ReplicationError(`${this.#online.count} replicas online, ${required} must confirm`);
    }
    const fenced = redis.incr(this.#fenceKey);
    const waited = redis.wait(required, this.#acks.timeoutMs);
    try {
      await fenced;
    } catch (err) {
      // Refused (NOREPLICAS: the master has no good replica): nothing can be confirmed.
      if (isRedisRefusal(err)) this.#outcome(0, required);
      await waited.catch(() => {});
      throw err;
    }
    const acked = await waited;
    this.#outcome(acked, required);
    if (acked < required) {
      void this.#readOnline();
      throw new ReplicationError(`${acked} of ${required} confirmed in ${this.#acks.timeoutMs} ms`);
    }
  }

  /** Replicas that must confirm now: the configured number, or those the master lists online. */
  async #required(): Promise<number> {
    const online = this.#online;
    if (performance.now() - online.at > ONLINE_TTL_MS) {
      const reading = this.#readOnline();
      // The first time the count is needed; later ones use the last count while it is refreshed.
      if (online.at === -Infinity) await reading;
      if (online.at === -Infinity) throw new DbUnavailableError('INFO replication unanswered');
    }
    return this.#acks.replicas === 'online' ? Math.max(1, online.count) : this.#acks.replicas;
  }

  /** Refreshes the count of online replicas; a failure keeps the last one (Redis away is logged elsewhere). */
  #readOnline(): Promise<void> {
    const online = this.#online;
    online.reading ??= this.#redis
      .info('replication')
      .then(
        (info) => {
          online.count = onlineReplicas(info);
          online.at = performance.now();
        },
        () => {},
      )
      .finally(() => {
        online.reading = null;
      });
    return online.reading;
  }

  #outcome(confirmed: number, required: number): void {
    this.#lastOutcomeAt = performance.now();
    const ackable = confirmed >= required;
    const changed = ackable !== this.#state.ackable;
    this.#state = { ackable, confirmed, required };
    if (changed) for (const listener of this.#listeners) listener(this.#state);
  }
}
