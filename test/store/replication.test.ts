import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, redisReady, ReplicationError, type Store } from '../../store/index.ts';
import { testPrefix } from '../support/api.ts';
import { startHoldingProxy, type HoldingProxy } from '../support/holding-proxy.ts';
import { startPrivateRedis, waitReplicaLinkUp, type PrivateRedis } from '../support/private-redis.ts';

// Acknowledged means replicated (issue 27), at the store: with REDIS_REPLICAS_ACK=1 a report that
// leaves a window, and a blocklist addition, resolve only once the replica has them. The replica
// reads its primary through a proxy that can hold the bytes: while held, they fail with
// ReplicationError (503), the write stays, and the retry once the link is back answers the same
// window.

const prefix = testPrefix();
let primary: PrivateRedis;
let proxy: HoldingProxy;
let replica: PrivateRedis;
let store: Store;

beforeAll(async () => {
  primary = await startPrivateRedis({ name: 'ack-primary' });
  proxy = await startHoldingProxy(primary.port);
  replica = await startPrivateRedis({ name: 'ack-replica', replicaOf: proxy.port });
  await waitReplicaLinkUp(replica.observer, 15_000);
  // Generous: a loaded machine may take a while to pass on even an unheld write.
  const replicaAcks = { replicas: 1, timeoutMs: 1_000 };
  store = openStore({ redisUrl: primary.url, prefix, clock: 'system', name: 'ack-test', replicaAcks });
  await redisReady(store.ctx.redis, 5_000);
}, 60_000);
afterAll(async () => {
  await store?.close();
  await replica?.stop();
  await proxy?.stop();
  await primary?.stop();
});

const onReplica = (key: string) => replica.observer.exists(`${prefix}${key}`);

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
      store.reportSeed({ serverId: other, kind: 'http', seed: 990_002, event: 'round_start' }),
    ).rejects.toBeInstanceOf(ReplicationError);
    const kept = await store.checkSeedBlock(990_002, { countView: false });
    expect(kept.kind, 'the window stays on the primary').toBe('window');
    // A retry while the link still holds: the same window, still not acknowledged.
    await expect(
      store.reportSeed({ serverId: other, kind: 'http', seed: 990_002, event: 'periodic' }),
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
    proxy.hold();
    await expect(store.addToBlocklist(990_101)).rejects.toBeInstanceOf(ReplicationError);
    proxy.release();
    expect(await store.addToBlocklist(990_101)).toEqual({ seed: 990_101, added: false });
    expect(await replica.observer.sismember(`${prefix}blocklist`, '990101')).toBe(1);
  });

  it('a report that leaves no window waits for nothing', async () => {
    const { serverId } = await store.issueHttpKey();
    proxy.hold();
    try {
      const answer = await store.reportSeed({ serverId, kind: 'http', seed: 990_201, event: 'round_end' });
      expect(answer.blockedUntil).toBeNull();
    } finally {
      proxy.release();
    }
  });
});
