import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, openStore, redisReady, ReplicationError, type Store } from '../../store/index.ts';
import type { ReplicaAcks } from '../../store/replication.ts';
import { testPrefix } from '../support/api.ts';
import { startHeldReplication } from '../support/held-replication.ts';
import type { HoldingProxy } from '../support/holding-proxy.ts';
import {
  startPrivateRedis,
  waitReplicaLinkUp,
  waitReplicasOnline,
  type PrivateRedis,
} from '../support/private-redis.ts';
import { pollUntil } from '../support/clock.ts';

// Acknowledged means replicated (issues 27 and 34), at the store: with REDIS_REPLICAS_ACK=1 every
// write a user relies on (a window, a credential, a revoke, a claim code, a review decision, the
// blocklist, the minimum version) resolves only once the replica has it. The replica reads its
// primary through a proxy that can hold the bytes: while held, they fail with ReplicationError
// (503), the write stays, and the retry once the link is back answers as the first would have,
// never leaving a second credential for one claim.

const prefix = testPrefix();
let primary: PrivateRedis;
let proxy: HoldingProxy;
let replica: PrivateRedis;
let stopReplication: (() => Promise<void>) | undefined;
let store: Store;
/** The same, with a short wait: for the writes made while the link holds, which time out. */
let held: Store;
const stores: Store[] = [];

/** Generous: a loaded machine may take a while to pass on even an unheld write. */
const ACKS: ReplicaAcks = { replicas: 1, timeoutMs: 1_000 };
const SHORT: ReplicaAcks = { replicas: 1, timeoutMs: 200 };

async function newStore(replicaAcks: ReplicaAcks = ACKS): Promise<Store> {
  const opened = openStore({ redisUrl: primary.url, prefix, clock: 'system', name: 'ack-test', replicaAcks });
  stores.push(opened);
  await redisReady(opened.ctx.redis, 5_000);
  return opened;
}

beforeAll(async () => {
  ({ primary, proxy, replica, stop: stopReplication } = await startHeldReplication('ack'));
  // Listed online only at the replica's first acknowledgment: until then no write can be confirmed.
  await waitReplicasOnline(primary.observer, 1, 15_000);
  [store, held] = await Promise.all([newStore(), newStore(SHORT)]);
}, 60_000);
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await stopReplication?.();
});

const onReplica = (key: string) => replica.observer.exists(`${prefix}${key}`);

/** `work` while the replication link holds; the link is released after, whatever happened. */
async function whileHeld<T>(work: () => Promise<T>): Promise<T> {
  proxy.hold();
  try {
    return await work();
  } finally {
    proxy.release();
  }
}

describe('REDIS_REPLICAS_ACK=1', () => {
  it('answers a window once the replica has it; while the link holds it fails, and the retry gets the same window', async () => {
    const { serverId } = await store.issueHttpKey();
    const report = (seed: number) => store.reportSeed({ serverId, kind: 'http', seed, event: 'round_start' });

    const first = await report(990_001);
    expect(first.outcome).toBe('opened');
    expect(await onReplica('window:990001')).toBe(1);
    await store.reportSeed({ serverId, kind: 'http', seed: 990_001, event: 'round_end' });

    const other = (await store.issueHttpKey()).serverId;
    proxy.hold();
    await expect(
      held.reportSeed({ serverId: other, kind: 'http', seed: 990_002, event: 'round_start' }),
    ).rejects.toBeInstanceOf(ReplicationError);
    const kept = await store.checkSeedBlock(990_002, { countView: false });
    expect(kept.kind, 'the window stays on the primary').toBe('window');
    // A retry while the link still holds: the same window, still not acknowledged.
    await expect(
      held.reportSeed({ serverId: other, kind: 'http', seed: 990_002, event: 'periodic' }),
    ).rejects.toBeInstanceOf(ReplicationError);
    expect(await onReplica('window:990002')).toBe(0);

    proxy.release();
    const retried = await store.reportSeed({
      serverId: other,
      kind: 'http',
      seed: 990_002,
      event: 'round_start',
    });
    expect(retried).toMatchObject({ outcome: 'kept', blockedUntil: (kept as { until: number }).until });
    expect(await onReplica('window:990002')).toBe(1);
  });

  it('a blocklist addition likewise: failed while held, confirmed by the retry', async () => {
    await expect(whileHeld(() => held.addToBlocklist(990_101))).rejects.toBeInstanceOf(ReplicationError);
    expect(await store.addToBlocklist(990_101)).toEqual({ seed: 990_101, added: false });
    expect(await replica.observer.sismember(`${prefix}blocklist`, '990101')).toBe(1);
  });

  it('a report that leaves no window waits for nothing', async () => {
    const { serverId } = await store.issueHttpKey();
    const answer = await whileHeld(() =>
      store.reportSeed({ serverId, kind: 'http', seed: 990_201, event: 'round_end' }),
    );
    expect(answer.blockedUntil).toBeNull();
  });

  it('revokes, codes, decisions, blocklist removals and the minimum version fail while held, and their retries are confirmed', async () => {
    const { serverId } = await store.issueHttpKey();
    const { code } = await store.issueClaimCode({ ip: '192.0.2.1', port: 7777 });
    // A review: the code used from another address.
    expect(await store.claimWithCode({ code, ip: '192.0.2.2', port: 7777 })).toMatchObject({
      status: 'review',
    });
    const [review] = await store.listReviews();
    await store.addToBlocklist(990_301);
    // Each write made while held, through `held`, then retried through `store` once released.
    const writes: [string, (s: Store) => Promise<unknown>, unknown][] = [
      ['revoke', (s) => s.revokeRegistration(serverId), false],
      ['code issue', (s) => s.issueClaimCode(), expect.objectContaining({ code: expect.any(String) })],
      [
        'review decision',
        (s) => s.decideReview({ id: review!.id, decision: 'approved', moderator: 'm' }),
        expect.objectContaining({ outcome: 'already', decision: 'approved' }),
      ],
      ['code cancel', (s) => s.cancelClaimCode(code), false],
      ['blocklist remove', (s) => s.removeFromBlocklist(990_301), { seed: 990_301, removed: false }],
      ['minimum set', (s) => s.setMinimumVersion('1.2.0'), expect.objectContaining({ minimum: '1.2.0' })],
      ['minimum clear', (s) => s.clearMinimumVersion(), expect.objectContaining({ minimum: null })],
    ];
    for (const [what, write, retried] of writes) {
      await expect(
        whileHeld(() => write(held)),
        what,
      ).rejects.toBeInstanceOf(ReplicationError);
      expect(await write(store), what).toEqual(retried);
    }
    expect(await onReplica(`server:${serverId}`)).toBe(1);
    expect(await replica.observer.hget(`${prefix}server:${serverId}`, 'revoked')).not.toBeNull();
    expect(await replica.observer.hget(`${prefix}review:${review!.id}`, 'status')).toBe('approved');
    expect(await replica.observer.sismember(`${prefix}blocklist`, '990301')).toBe(0);
  });

  it('a retry through another connection, which wrote nothing itself, is confirmed only once the replica holds what the first wrote', async () => {
    const { serverId } = await store.issueHttpKey();
    const other = await newStore(SHORT);
    await whileHeld(async () => {
      await expect(held.revokeRegistration(serverId)).rejects.toBeInstanceOf(ReplicationError);
      // The revoke is done on the primary: the retry finds nothing to revoke, and still waits for it.
      await expect(other.revokeRegistration(serverId)).rejects.toBeInstanceOf(ReplicationError);
    });
    expect(await store.revokeRegistration(serverId)).toBe(false);
    expect(await replica.observer.hget(`${prefix}server:${serverId}`, 'revoked')).not.toBeNull();
  });

  it('an HTTP key not confirmed is revoked at once: it was never shown, and holds no slot of its owner', async () => {
    await expect(whileHeld(() => held.issueHttpKey({ owner: 'held-owner' }))).rejects.toBeInstanceOf(
      ReplicationError,
    );
    expect(await primary.observer.scard(`${prefix}owner:held-owner`)).toBe(0);
    const keys = (await store.listRegistrations()).filter((r) => r.owner === 'held-owner');
    expect(keys).toEqual([]);
  });

  it('a plugin claim answered 503 is retried with the same code: one live credential, a new one', async () => {
    const { code } = await store.issueClaimCode();
    const claim = (s = store) => s.claimWithCode({ code, ip: '192.0.2.10', port: 7777 });
    await expect(whileHeld(() => claim(held))).rejects.toBeInstanceOf(ReplicationError);
    const [unconfirmed] = (await store.listRegistrations()).filter((r) => r.ip === '192.0.2.10');
    const retried = await claim();
    expect(retried).toMatchObject({ status: 'verified', credential: expect.any(String) });
    const live = (await store.listRegistrations()).filter((r) => r.ip === '192.0.2.10');
    expect(live.map((r) => r.serverId)).toEqual([(retried as { serverId: string }).serverId]);
    expect(live[0]!.serverId).not.toBe(unconfirmed!.serverId);
    expect(await store.authenticate((retried as { credential: string }).credential)).not.toBeNull();
    // Answered, the code is used up: once more is the spec's 401.
    expect(await claim()).toEqual({ status: 'invalid code' });
  });

  it('a self-claim answered 503 is retried for the same address: not 409, not the interval, one live credential', async () => {
    const req = { ip: '192.0.2.20', port: 27015 };
    await expect(whileHeld(() => held.issueSelfClaim(req, {}))).rejects.toBeInstanceOf(ReplicationError);
    const retried = await store.issueSelfClaim(req, {});
    expect(retried).toMatchObject({ serverId: expect.any(String), credential: expect.any(String) });
    const live = (await store.listRegistrations()).filter((r) => r.ip === req.ip);
    expect(live.map((r) => r.serverId)).toEqual([(retried as { serverId: string }).serverId]);
    // Answered: now the spec's rules apply to the same address again.
    expect(await store.issueSelfClaim(req, {})).toMatchObject({ refusal: 'interval' });
  });

  it('says whether the replicas confirm: a probe on its own connection finds it, as the writes do', async () => {
    const probe = connectRedis({ url: primary.url, name: 'ack-probe', waitMs: ACKS.timeoutMs });
    const { replication } = held.ctx;
    try {
      await redisReady(probe, 5_000);
      await expect(whileHeld(() => replication.probe(probe))).rejects.toBeInstanceOf(ReplicationError);
      expect(replication.state).toEqual({ ackable: false, confirmed: 0, required: 1 });
      // Its short wait may pass on a loaded machine before the replica has caught up: asked again.
      await pollUntil(
        () =>
          replication.probe(probe).then(
            () => replication.state,
            () => replication.state,
          ),
        (state) => state.ackable,
        { what: 'a probe confirmed', everyMs: 50 },
      );
      expect(replication.state).toEqual({ ackable: true, confirmed: 1, required: 1 });
    } finally {
      probe.disconnect();
    }
  });
});

describe('REDIS_REPLICAS_ACK unset under Sentinel: every replica the master lists online', () => {
  it('a second replica that keeps up does not make up for the one that lags', async () => {
    const second = await startPrivateRedis({ name: 'ack-second', replicaOf: primary.port });
    try {
      await waitReplicaLinkUp(second.observer, 15_000);
      await waitReplicasOnline(primary.observer, 2);
      const online = await newStore({ replicas: 'online', timeoutMs: SHORT.timeoutMs });
      const one = await newStore({ replicas: 1, timeoutMs: ACKS.timeoutMs });
      await whileHeld(async () => {
        await expect(online.addToBlocklist(990_401)).rejects.toBeInstanceOf(ReplicationError);
        expect(online.ctx.replication.state).toMatchObject({ ackable: false, required: 2 });
        // One replica required: the one that keeps up is enough, and the lagging one lacks it.
        expect(await one.addToBlocklist(990_402)).toEqual({ seed: 990_402, added: true });
        expect(await replica.observer.sismember(`${prefix}blocklist`, '990402')).toBe(0);
      });
      const confirmed = await newStore({ replicas: 'online', timeoutMs: ACKS.timeoutMs });
      // Released, the lagging replica catches up (a loaded machine may take longer than the wait).
      const added = await pollUntil(
        () => confirmed.addToBlocklist(990_401).catch(() => null),
        (answer) => answer !== null,
        { what: 'the addition confirmed by both', everyMs: 100 },
      );
      expect(added).toEqual({ seed: 990_401, added: false });
      expect(confirmed.ctx.replication.state).toEqual({ ackable: true, confirmed: 2, required: 2 });
    } finally {
      await second.stop();
    }
  });
});
