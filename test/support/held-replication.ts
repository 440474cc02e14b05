// A primary whose one replica reads it through a HoldingProxy: a replication link a test can hold
// (the replica lags while the primary goes on), as the tests of REDIS_REPLICAS_ACK need it.
import { startHoldingProxy, type HoldingProxy } from './holding-proxy.ts';
import { startPrivateRedis, waitReplicaLinkUp, type PrivateRedis } from './private-redis.ts';

export interface HeldReplication {
  readonly primary: PrivateRedis;
  /** Between the replica and the primary: `hold()` lags the link, `release()` lets it catch up. */
  readonly proxy: HoldingProxy;
  readonly replica: PrivateRedis;
  /** Releases the link and ends all three. */
  stop(): Promise<void>;
}

/** Starts the three (names `<name>-primary`, `<name>-replica`); resolves once the link is up. */
export async function startHeldReplication(name: string): Promise<HeldReplication> {
  const primary = await startPrivateRedis({ name: `${name}-primary` });
  const started: { stop(): Promise<void> }[] = [primary];
  const stop = async () => {
    for (const part of [...started].reverse()) await part.stop();
  };
  try {
    const proxy = await startHoldingProxy(primary.port);
    started.push(proxy);
    const replica = await startPrivateRedis({ name: `${name}-replica`, replicaOf: proxy.port });
    started.push(replica);
    await waitReplicaLinkUp(replica.observer, 15_000);
    return {
      primary,
      proxy,
      replica,
      stop: () => {
        proxy.release();
        return stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
