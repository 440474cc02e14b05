import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, redisReady, type Store } from '../../store/index.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { testPrefix } from '../support/api.ts';
import { startHoldingProxy, type HoldingProxy } from '../support/holding-proxy.ts';
import { startPrivateRedis, waitReplicaLinkUp, type PrivateRedis } from '../support/private-redis.ts';
import { get, pollUntil } from '../support/read-api.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { startLocalSentinel, type LocalSentinel } from '../support/sentinel.ts';

// Acknowledged means replicated (issue 27), in the deployment the README recommends: a primary
// and a replica with AOF, one Sentinel, two API processes behind redis-sentinel://. The replica
// reads the primary through a proxy that holds its bytes, as a lagging link does; then the
// primary is SIGKILLed and the Sentinel promotes the replica. No window a client was told about
// (200 with blockedUntil) may be gone: each acknowledged seed still reads 403 `blocked` through
// both processes. All on loopback.

const NAME = 'seedblock';
const KEYS = 150;
const SEED = 970_000;
const prefix = testPrefix();
let primary: PrivateRedis;
let proxy: HoldingProxy;
let replica: PrivateRedis;
let sentinel: LocalSentinel;
let apis: ApiProcess[] = [];
let setup: Store;

beforeAll(async () => {
  primary = await startPrivateRedis({ name: 'lag-primary', durable: true });
  proxy = await startHoldingProxy(primary.port);
  replica = await startPrivateRedis({ name: 'lag-replica', durable: true, replicaOf: proxy.port });
  await waitReplicaLinkUp(replica.observer, 15_000);
  // The replica reads through the proxy: the Sentinel would point it at the primary itself after
  // its failover timeout, so that is longer than the drill.
  sentinel = await startLocalSentinel({
    name: NAME,
    masterPort: primary.port,
    replicas: 1,
    failoverTimeoutMs: 600_000,
  });
  const env = {
    REDIS_URL: `redis-sentinel://127.0.0.1:${sentinel.port}#${NAME}`,
    REDIS_PREFIX: prefix,
    SEEDBLOCK_CLOCK: 'system',
  };
  apis = await Promise.all([startApiProcess(env, 60_000), startApiProcess(env, 60_000)]);
  setup = openStore({ redisUrl: primary.url, prefix, clock: 'system', name: 'lag-setup' });
  await redisReady(setup.ctx.redis, 5_000);
}, 120_000);
afterAll(async () => {
  await setup?.close();
  await Promise.all(apis.map((api) => api.stop()));
  await sentinel?.stop();
  await replica?.stop();
  await proxy?.stop();
  await primary?.stop();
});

type Answer = { status: number; blockedUntil: string | null };

/** One round_start of key `i` (seed SEED + i) through one of the two processes. */
async function report(credential: string, i: number): Promise<Answer> {
  const res = await sendReport(apis[i % 2]!, credential, validReport({ seed: SEED + i }));
  return { status: res.status, blockedUntil: (res.body.blockedUntil as string | null | undefined) ?? null };
}

describe('a primary crash while its replica lags', () => {
  it('loses no acknowledged window: every one still hides its map through both processes', async () => {
    const credentials: string[] = [];
    for (let i = 0; i < KEYS; i++) credentials.push((await setup.issueHttpKey()).credential);
    await pollUntil(
      () => replica.observer.zcard(`${prefix}servers`),
      (n) => n === KEYS,
      { what: 'the keys on the replica', everyMs: 50 },
    );

    // Half the keys open their windows while the link is up: each is answered once replicated
    // (on a loaded machine the replica may miss the 250 ms: 503, and the client retries).
    const acknowledged = new Map<number, string>();
    const firstHalf = await Promise.all(
      credentials.slice(0, KEYS / 2).map((c, i) =>
        pollUntil(
          () => report(c, i),
          (a) => a.status !== 503,
          { what: `key ${i}'s window acknowledged`, everyMs: 100, timeoutMs: 30_000 },
        ),
      ),
    );
    firstHalf.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.blockedUntil).toEqual(expect.any(String));
      acknowledged.set(i, a.blockedUntil!);
    });

    // The link holds: the primary takes the other half's windows, but no replica confirms them,
    // so none is acknowledged (503 `db unavailable`, retry later) and the clients retry.
    proxy.hold();
    const held: Answer[] = [];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(credentials.slice(KEYS / 2).map((c, j) => report(c, KEYS / 2 + j)));
      held.push(...answers);
      answers.forEach((a, j) => {
        if (a.status === 200 && a.blockedUntil) acknowledged.set(KEYS / 2 + j, a.blockedUntil);
      });
    }
    expect(held.filter((a) => a.status === 503)).toHaveLength(held.length);
    expect(
      await primary.observer.zcount(`${prefix}windows:open`, '-inf', '+inf'),
      'the primary holds the unconfirmed windows too',
    ).toBe(KEYS);

    await primary.kill('SIGKILL');
    await pollUntil(
      () => sentinel.masterPort().catch(() => 0),
      (port) => port === replica.port,
      { what: 'the Sentinel naming the replica as master', everyMs: 100, timeoutMs: 30_000 },
    );

    for (const api of apis) {
      await pollUntil(
        () => get(`${api.base}/maps/${SEED}`),
        (res) => res.status !== 503,
        { what: 'map reads served after the failover', everyMs: 100, timeoutMs: 60_000 },
      );
      const reads = await Promise.all(
        [...acknowledged.keys()].map((i) => get(`${api.base}/maps/${SEED + i}`)),
      );
      reads.forEach((res, n) => {
        const i = [...acknowledged.keys()][n]!;
        expect({ seed: SEED + i, status: res.status, body: res.body }).toEqual({
          seed: SEED + i,
          status: 403,
          body: { error: 'blocked', blockedUntil: acknowledged.get(i) },
        });
      });
    }
    expect(acknowledged.size).toBe(KEYS / 2);
  }, 120_000);
});
