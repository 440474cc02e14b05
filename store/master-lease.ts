import { Redis } from 'ioredis';
import { DbUnavailableError } from './errors.ts';
import type { SentinelTarget } from './redis-url.ts';

/**
 * Whether this process's Redis is the current master, confirmed at least once a second and at
 * once after every (re)connect, so that no read is served from an old primary a partition cut off
 * from its replicas and Sentinels: it still answers reads, of a state that lacks every window
 * acknowledged on the new master since.
 *
 * Under Sentinel, each renewal asks every configured Sentinel (SENTINEL MASTER) and holds when a
 * majority of them name the address the connection is on, see no failover under way and the
 * master up. It then lasts LEASE_MS from the moment the question was sent, or less: never past the
 * moment the first of those Sentinels could call the master down (its down-after-milliseconds less
 * how long its pending ping has waited), since no failover starts before that. A cut-off process
 * stops serving when its lease runs out; when a majority names another master, the connection is
 * dropped so ioredis reconnects to that one (it would otherwise stay until the old primary is
 * demoted, which waits for it to come back). Without Sentinel nothing elects another master: the
 * Redis is the master while it says so (ROLE, at each connect and then every second).
 *
 * Time here is this process's monotonic clock: a lease is this process's own deadline, not shared
 * state.
 */
export interface MasterLease {
  /**
   * Nothing when the connection's Redis is confirmed now; a promise while its first confirmation
   * since connecting is on its way (resolves when granted, rejects when refused); else throws
   * NotMasterError.
   */
  check(): Promise<void> | undefined;
  /** Starts renewing (the first check does it too). */
  start(): void;
  /** Whether reads may be served now. */
  readonly confirmed: boolean;
  /** Called on each change of `confirmed` (while connected), and when the Sentinels name another master. */
  onChange(listener: (change: LeaseChange) => void): () => void;
  stop(): void;
}

export type LeaseChange =
  | { kind: 'confirmed' }
  | { kind: 'unconfirmed'; reason: string }
  | { kind: 'moved'; from: string | null; to: string };

/** Reads refused: this process cannot confirm its Redis is the current master. 503 `db unavailable`. */
export class NotMasterError extends DbUnavailableError {
  override name = 'NotMasterError';
  constructor(reason: string) {
    super();
    this.message = `db unavailable: ${reason}`;
  }
}

/** `answer` of a read, once the lease holds (at once while it does); else NotMasterError. */
export function served<R>(lease: MasterLease, answer: R): R | Promise<R> {
  const first = lease.check();
  return first ? first.then(() => answer) : answer;
}

/** How long one confirmation lets reads be served, at most. */
export const LEASE_MS = 1_000;
/** Renewals come this often: several per lease, so a late timer on a busy machine does not let it lapse. */
const RENEW_MS = 250;
/** A Sentinel's answer later than this does not count for the renewal that asked. */
const ANSWER_MS = 500;
/** Without Sentinel: how often ROLE is asked. */
const ROLE_MS = 1_000;

type Stream = Redis['stream'] | undefined;

/** What one Sentinel says of the master: its address, whether it is up and not failing over, and how long it stays so at least. */
interface SentinelView {
  address: string;
  healthy: boolean;
  /** Before this many ms from the question, this Sentinel cannot call the master down. */
  upForMs: number;
}

function sentinelView(reply: unknown): SentinelView | null {
  if (!Array.isArray(reply)) return null;
  const f = new Map<string, string>();
  for (let i = 0; i + 1 < reply.length; i += 2) f.set(String(reply[i]), String(reply[i + 1]));
  const flags = (f.get('flags') ?? '').split(',');
  const waited = Number(
    flags.includes('disconnected') ? f.get('last-ok-ping-reply') : f.get('last-ping-sent'),
  );
  return {
    address: `${f.get('ip')}:${f.get('port')}`,
    healthy:
      flags.includes('master') &&
      !flags.some((flag) => ['s_down', 'o_down', 'failover_in_progress'].includes(flag)) &&
      f.get('role-reported') === 'master',
    upForMs: Number(f.get('down-after-milliseconds')) - waited,
  };
}

/** The one address named by at least `majority` views, else null. */
function namedByMajority(views: (SentinelView | null)[], majority: number): string | null {
  const counts = new Map<string, number>();
  for (const view of views) if (view) counts.set(view.address, (counts.get(view.address) ?? 0) + 1);
  for (const [address, count] of counts) if (count >= majority) return address;
  return null;
}

/** One renewal's outcome: the lease's end (performance.now() ms), or why not and whether that ends it now. */
type Outcome = { until: number } | { refused: string; revoke: boolean };

abstract class Lease implements MasterLease {
  protected readonly redis: Redis;
  #stream: Stream;
  #until = 0;
  #first: { stream: Stream; done: Promise<void> } | null = null;
  #renewing: { stream: Stream; done: Promise<void> } | null = null;
  #timer: NodeJS.Timeout | null = null;
  #lastRefusal = 'not confirmed yet';
  // As last said: the first change said is a lapse (or a refusal at start).
  #confirmed = true;
  readonly #listeners = new Set<(change: LeaseChange) => void>();
  readonly #onReady = () => void this.#renew();

  constructor(redis: Redis) {
    this.redis = redis;
  }

  protected abstract readonly everyMs: number;
  /**
   * Whether a read the lease does not cover asks again at once and waits for the answer (one
   * question shared by every such read): cheap when it is a question to the Redis itself.
   */
  protected abstract readonly askOnRead: boolean;
  /** One confirmation, asked now. */
  protected abstract confirm(): Promise<Outcome>;

  get confirmed(): boolean {
    return this.#valid(this.redis.stream);
  }

  check(): Promise<void> | undefined {
    const stream = this.redis.stream;
    if (this.#valid(stream)) return undefined;
    this.start();
    const asked =
      this.#first?.stream === stream
        ? this.#first.done
        : this.askOnRead && this.redis.status === 'ready'
          ? this.#renew()
          : null;
    if (asked === null) throw new NotMasterError(this.#reason());
    return asked.then(() => {
      if (!this.#valid(stream)) throw new NotMasterError(this.#reason());
    });
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#renew(), this.everyMs);
    this.#timer.unref();
    this.redis.on('ready', this.#onReady);
    void this.#renew();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.redis.off('ready', this.#onReady);
  }

  onChange(listener: (change: LeaseChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  protected emit(change: LeaseChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  #valid(stream: Stream): boolean {
    return stream !== undefined && stream === this.#stream && performance.now() < this.#until;
  }

  #reason(): string {
    return this.redis.status === 'ready'
      ? `not confirmed as the current master (${this.#lastRefusal})`
      : `no connection to Redis (${this.redis.status})`;
  }

  /** One renewal per connection at a time; a connection's first is what reads on it wait for. */
  #renew(): Promise<void> {
    const stream = this.redis.stream;
    if (this.#renewing?.stream === stream) return this.#renewing.done;
    const done = this.#renewOnce(stream).finally(() => {
      if (this.#renewing?.done === done) this.#renewing = null;
      if (this.#first?.done === done) this.#first = null;
    });
    this.#renewing = { stream, done };
    if (stream !== undefined && stream !== this.#stream) this.#first = { stream, done };
    return done;
  }

  async #renewOnce(stream: Stream): Promise<void> {
    if (stream === undefined || this.redis.status !== 'ready') return;
    const outcome = await this.confirm().catch((err: unknown): Outcome => ({
      refused: (err as Error).message,
      revoke: false,
    }));
    if (this.redis.stream !== stream) return;
    if ('until' in outcome) {
      // Each answer is a bound no failover can come before: the later one holds.
      this.#until = stream === this.#stream ? Math.max(this.#until, outcome.until) : outcome.until;
      this.#stream = stream;
    } else {
      this.#lastRefusal = outcome.refused;
      if (outcome.revoke && stream === this.#stream) this.#until = 0;
    }
    this.#note();
  }

  /** Says so when `confirmed` changed; a lapse while disconnected is Redis being away, said elsewhere. */
  #note(): void {
    const confirmed = this.confirmed;
    if (confirmed === this.#confirmed) return;
    this.#confirmed = confirmed;
    this.emit(confirmed ? { kind: 'confirmed' } : { kind: 'unconfirmed', reason: this.#lastRefusal });
  }
}

/** Under Sentinel: a majority of the configured Sentinels name the connection's address. */
class SentinelLease extends Lease {
  protected readonly everyMs = RENEW_MS;
  // Unanswered Sentinels (a partition) would hold every read for ANSWER_MS: refused at once.
  protected readonly askOnRead = false;
  readonly #target: SentinelTarget;
  /** The master address ioredis resolved through the Sentinels for the connection it made last. */
  readonly #address: () => string | null;
  #sentinels: Redis[] = [];
  /** The connection dropped because the Sentinels name another master (once is enough). */
  #dropped: Stream;

  constructor(redis: Redis, target: SentinelTarget, address: () => string | null) {
    super(redis);
    this.#target = target;
    this.#address = address;
  }

  override start(): void {
    if (this.#sentinels.length === 0) {
      this.#sentinels = this.#target.sentinels.map(({ host, port }) => {
        const sentinel = new Redis({
          host,
          port,
          protocol: 2,
          // A question asked while connecting waits (ANSWER_MS at most), so the first renewal counts.
          enableOfflineQueue: true,
          maxRetriesPerRequest: 0,
          connectTimeout: 1_000,
          commandTimeout: ANSWER_MS,
          retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 1_000),
        });
        sentinel.on('error', () => {});
        return sentinel;
      });
    }
    super.start();
  }

  override stop(): void {
    super.stop();
    for (const sentinel of this.#sentinels) sentinel.disconnect();
    this.#sentinels = [];
  }

  protected async confirm(): Promise<Outcome> {
    const address = this.#address();
    const askedAt = performance.now();
    const views = await Promise.all(
      this.#sentinels.map((s) =>
        s.call('SENTINEL', 'MASTER', this.#target.name).then(sentinelView, () => null),
      ),
    );
    const majority = Math.floor(this.#sentinels.length / 2) + 1;
    const agreeing = views.filter((v): v is SentinelView => v?.address === address && v.healthy);
    if (agreeing.length >= majority) {
      return { until: askedAt + Math.min(LEASE_MS, ...agreeing.map((v) => v.upForMs)) };
    }
    const named = namedByMajority(views, majority);
    if (named !== null && named !== address) this.#drop(named);
    const answered = views.filter((v) => v !== null).length;
    return {
      refused: `${agreeing.length} of ${this.#sentinels.length} Sentinels confirm ${address ?? 'it'} (${answered} answered)`,
      // A majority says otherwise (another master, a failover, the master down): stop at once.
      revoke: answered - agreeing.length >= majority,
    };
  }

  /** The Sentinels name another master: reconnect, so ioredis asks them and goes there. */
  #drop(to: string): void {
    if (this.#dropped === this.redis.stream || this.redis.status !== 'ready') return;
    this.#dropped = this.redis.stream;
    this.emit({ kind: 'moved', from: this.#address(), to });
    this.redis.disconnect(true);
  }
}

/** Without Sentinel: the Redis says it is a master. */
class RoleLease extends Lease {
  protected readonly everyMs = ROLE_MS;
  // A Redis promoted back serves at once, not at the next renewal.
  protected readonly askOnRead = true;

  protected async confirm(): Promise<Outcome> {
    const [role] = (await this.redis.role()) as [string];
    return role === 'master' ? { until: Infinity } : { refused: `ROLE says ${role}`, revoke: true };
  }
}

/**
 * The lease of `redis`; under Sentinel, `address` says which master address the connection was
 * made to, as the Sentinels named it (connectRedis's onMasterAddress).
 */
export function masterLease(
  redis: Redis,
  sentinel: SentinelTarget | null,
  address: () => string | null,
): MasterLease {
  return sentinel ? new SentinelLease(redis, sentinel, address) : new RoleLease(redis);
}
