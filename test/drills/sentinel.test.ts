import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, redisReady, type Store } from '../../store/index.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { testPrefix } from '../support/api.ts';
import { startPrivateRedis, waitReplicaLinkUp, type PrivateRedis } from '../support/private-redis.ts';
import { get } from '../support/http.ts';
import { pollUntil } from '../support/clock.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { startLocalSentinel, type LocalSentinel } from '../support/sentinel.ts';

// README "Running in production": Redis with a replica and Sentinel for failover. An API process
// given REDIS_URL=redis-sentinel://…#seedblock asks the Sentinel where the master is; when the
// Sentinel fails over to the replica, the process finds the new master by itself, without a
// restart: what it acknowledged before is there, and it takes new writes. All on loopback.

const NAME = 'seedblock';
const prefix = testPrefix();
let primary: PrivateRedis;
let replica: PrivateRedis;
let sentinel: LocalSentinel;
let api: ApiProcess;

beforeAll(async () => {
  primary = await startPrivateRedis({ name: 'sentinel-primary' });
  replica = await startPrivateRedis({ name: 'sentinel-replica', replicaOf: primary.port });
  await waitReplicaLinkUp(replica.observer);
  sentinel = await startLocalSentinel({ name: NAME, masterPort: primary.port, replicas: 1 });
  api = await startApiProcess({
    REDIS_URL: `redis-sentinel://127.0.0.1:${sentinel.port}#${NAME}`,
    REDIS_PREFIX: prefix,
  });
}, 60_000);
afterAll(async () => {
  await api?.stop();
  await sentinel?.stop();
  await replica?.stop();
  await primary?.stop();
});

/** The store in the API's namespace, on one Redis directly. */
async function withStore<T>(redisUrl: string, use: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore({ redisUrl, prefix, clock: 'manual', name: 'sentinel-test' });
  try {
    await redisReady(store.ctx.redis, 5_000);
    return await use(store);
  } finally {
    await store.close();
  }
}

/** Opens a window on `seed` through the API with a fresh HTTP key issued on the master. */
const report = (masterUrl: string, seed: number) =>
  withStore(masterUrl, async (store) => {
    const { credential } = await store.issueHttpKey();
    return sendReport(api, credential, validReport({ seed }));
  });

describe('Redis behind Sentinel', () => {
  it('serves through the master the Sentinel names, and again after it fails over to the replica', async () => {
    expect(await sentinel.masterPort()).toBe(primary.port);
    const before = await report(primary.url, 960_001);
    expect(before.status).toBe(200);
    expect(before.body.blockedUntil).toEqual(expect.any(String));
    expect((await get(`${api.base}/maps/960001`)).status).toBe(403);
    // No WAIT of our own: the API answered 200 only once the replica had the window (by default
    // under redis-sentinel:// every replica the master lists online must confirm).

    await sentinel.client.call('SENTINEL', 'FAILOVER', NAME);
    await pollUntil(
      () => sentinel.masterPort(),
      (port) => port === replica.port,
      {
        what: 'the Sentinel naming the replica as master',
        everyMs: 100,
        timeoutMs: 20_000,
      },
    );

    // The window acknowledged before the switch is still shown as blocked, whichever of the two
    // Redis servers answers the read while the API moves over.
    const blocked = await pollUntil(
      () => get(`${api.base}/maps/960001`),
      (res) => res.status !== 503,
      { what: 'map reads served again after the failover', everyMs: 100, timeoutMs: 15_000 },
    );
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ error: 'blocked', blockedUntil: before.body.blockedUntil });

    // Writes follow the new master by themselves: a key issued on it is accepted (the old master
    // does not know it), and its window lands on it, answered once the old master, which the
    // Sentinel turns into the new one's replica, has it (its one replica online).
    const after = await pollUntil(
      () => report(replica.url, 960_002),
      (res) => res.status === 200,
      { what: 'reports accepted by the new master', everyMs: 200, timeoutMs: 60_000 },
    );
    expect(after.status).toBe(200);
    expect(after.body.blockedUntil).toEqual(expect.any(String));
    const block = await withStore(replica.url, (store) =>
      store.checkSeedBlock(960_002, { countView: false }),
    );
    expect(block).toEqual({ kind: 'window', until: Date.parse(after.body.blockedUntil as string) });
  }, 120_000);
});
