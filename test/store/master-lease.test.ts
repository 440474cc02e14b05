import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotMasterError, openStore, redisReady, type LeaseChange, type Store } from '../../store/index.ts';
import { LEASE_MS } from '../../store/master-lease.ts';
import { testPrefix } from '../support/api.ts';
import { startHoldingProxy, type HoldingProxy } from '../support/holding-proxy.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { pollUntil } from '../support/clock.ts';
import { startLocalSentinel, type LocalSentinel } from '../support/sentinel.ts';
import { openTestStore } from '../support/test-store.ts';

// Reads are served only from the current master (issue 34, item 1), at the store: a read answers
// only while this process holds a lease, confirmed at least once a second by a majority of the
// configured Sentinels naming the address its connection is on; without Sentinel, while the Redis
// says it is a master (ROLE). The store reaches each of three Sentinels through a proxy that can
// cut it off. All on loopback.

const NAME = 'lease';
const page = (store: Store) => store.readSeedPage({ limit: 1, cursor: null });
const refusal = (store: Store) =>
  page(store).then(
    () => null,
    (err: unknown) => err,
  );

describe('under Sentinel', () => {
  let master: PrivateRedis;
  let sentinels: LocalSentinel[] = [];
  let proxies: HoldingProxy[] = [];
  let store: Store;

  beforeAll(async () => {
    master = await startPrivateRedis({ name: 'lease-master' });
    sentinels = await Promise.all(
      [0, 1, 2].map(() =>
        startLocalSentinel({ name: NAME, masterPort: master.port, replicas: 0, quorum: 2 }),
      ),
    );
    proxies = await Promise.all(sentinels.map((s) => startHoldingProxy(s.port)));
    const hosts = proxies.map((p) => `127.0.0.1:${p.port}`).join(',');
    store = openStore({
      redisUrl: `redis-sentinel://${hosts}#${NAME}`,
      prefix: testPrefix(),
      clock: 'system',
      name: 'lease-test',
    });
    await redisReady(store.ctx.redis, 10_000);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await Promise.all(proxies.map((p) => p.stop()));
    await Promise.all(sentinels.map((s) => s.stop()));
    await master?.stop();
  });

  it('serves reads while a majority of the configured Sentinels name its master', async () => {
    // The first read after connecting waits for the first confirmation rather than failing.
    expect(await page(store)).toMatchObject({ kind: 'page' });
    expect(store.ctx.master.confirmed).toBe(true);
  });

  it('cut off from two of three, serves no read begun LEASE_MS after the cut; back once a second one answers', async () => {
    expect(await page(store)).toMatchObject({ kind: 'page' });
    const changes: LeaseChange[] = [];
    const off = store.ctx.master.onChange((change) => changes.push(change));
    proxies[0]!.cut();
    proxies[1]!.cut();
    const cutAt = performance.now();
    // Reads go on until one is refused: every one served was begun within the lease.
    const served: number[] = [];
    const refused = await pollUntil(
      async () => {
        const begun = performance.now();
        const err = await refusal(store);
        if (err === null) served.push(begun - cutAt);
        return err;
      },
      (err) => err !== null,
      { what: 'a read refused', everyMs: 20, timeoutMs: 15_000 },
    );
    expect(refused).toBeInstanceOf(NotMasterError);
    expect((refused as Error).message).toMatch(/^db unavailable: not confirmed as the current master/);
    expect(served.filter((ms) => ms >= LEASE_MS)).toEqual([]);
    expect(store.ctx.master.confirmed).toBe(false);

    proxies[1]!.heal();
    await pollUntil(
      () => refusal(store),
      (err) => err === null,
      { what: 'reads served again', everyMs: 50, timeoutMs: 15_000 },
    );
    proxies[0]!.heal();
    off();
    // Each change said once (the API logs them: api/jobs/replication-watch.ts).
    expect(changes).toEqual([
      { kind: 'unconfirmed', reason: expect.stringMatching(/^[01] of 3 Sentinels confirm 127\.0\.0\.1:\d+/) },
      { kind: 'confirmed' },
    ]);
  });
});

describe('without Sentinel', () => {
  let redis: PrivateRedis;
  let other: PrivateRedis;
  let store: Store;

  beforeAll(async () => {
    [redis, other] = await Promise.all([
      startPrivateRedis({ name: 'lease-plain' }),
      startPrivateRedis({ name: 'lease-other' }),
    ]);
    store = await openTestStore({ redisUrl: redis.url, clock: 'system', name: 'lease-plain' });
  }, 30_000);
  afterAll(async () => {
    await store?.close();
    await Promise.all([redis?.stop(), other?.stop()]);
  });

  it('serves reads while its Redis says it is a master, and none while it is a replica', async () => {
    expect(await page(store)).toMatchObject({ kind: 'page' });
    await redis.observer.replicaof('127.0.0.1', other.port);
    const refused = await pollUntil(
      () => refusal(store),
      (err) => err !== null,
      { what: 'a read refused', everyMs: 50, timeoutMs: 15_000 },
    );
    expect(refused).toBeInstanceOf(NotMasterError);
    expect((refused as Error).message).toMatch(/ROLE says slave/);

    await redis.observer.replicaof('NO', 'ONE');
    await pollUntil(
      () => refusal(store),
      (err) => err === null,
      { what: 'reads served again', everyMs: 50, timeoutMs: 15_000 },
    );
  });
});
