import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, redisReady, type Store } from '../../store/index.ts';
import { runAdmin } from '../support/admin-cli.ts';
import { oneJsonLine } from '../support/child.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { testPrefix } from '../support/api.ts';
import { startHoldingProxy, type HoldingProxy } from '../support/holding-proxy.ts';
import { startPrivateRedis, waitReplicaLinkUp, type PrivateRedis } from '../support/private-redis.ts';
import { pollUntil } from '../support/clock.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { startLocalSentinel, type LocalSentinel } from '../support/sentinel.ts';
import { send, get } from '../support/http.ts';
import { openTestStore } from '../support/test-store.ts';

// Acknowledged means replicated (issues 27 and 34), in the deployment the README recommends: a
// primary and two replicas with AOF and `min-replicas-to-write 1`, `min-replicas-max-lag 2`, one
// Sentinel, two API processes behind redis-sentinel:// with REDIS_REPLICAS_ACK unset (every
// replica the master lists online must confirm). One replica reads the primary through a proxy
// that holds its bytes, as a lagging link does, and it is the one Sentinel prefers
// (replica-priority 10 against 100); the other keeps up. Then the primary is SIGKILLed and the
// Sentinel promotes the lagging one. Nothing a client was told is gone: every window answered 200
// with blockedUntil still reads 403 through both processes (while the new master is still without
// a replica, when it refuses every write, too), a key the operator CLI printed still
// authenticates, and a key whose revoke was answered 200 stays revoked. While the link held,
// nothing was acknowledged: reports 503, the CLI exited 1 without a key, a revoke 503. All on
// loopback.

const NAME = 'seedblock';
const KEYS = 100;
const SEED = 970_000;
const prefix = testPrefix();
let primary: PrivateRedis;
let proxy: HoldingProxy;
let lagging: PrivateRedis;
let steady: PrivateRedis;
let sentinel: LocalSentinel;
let apis: ApiProcess[] = [];
let setup: Store;
let sentinelUrl: string;

beforeAll(async () => {
  primary = await startPrivateRedis({ name: 'lag-primary', durable: true });
  proxy = await startHoldingProxy(primary.port);
  [lagging, steady] = await Promise.all([
    startPrivateRedis({ name: 'lag-replica', durable: true, replicaOf: proxy.port }),
    startPrivateRedis({ name: 'lag-steady', durable: true, replicaOf: primary.port }),
  ]);
  for (const server of [primary, lagging, steady]) {
    await server.observer.config('SET', 'min-replicas-to-write', '1', 'min-replicas-max-lag', '2');
  }
  await lagging.observer.config('SET', 'replica-priority', '10');
  await Promise.all([
    waitReplicaLinkUp(lagging.observer, 15_000),
    waitReplicaLinkUp(steady.observer, 15_000),
  ]);
  // The lagging replica reads through the proxy: the Sentinel would point it at the primary itself
  // after its failover timeout, so that is longer than the drill.
  sentinel = await startLocalSentinel({
    name: NAME,
    masterPort: primary.port,
    replicas: 2,
    failoverTimeoutMs: 600_000,
  });
  sentinelUrl = `redis-sentinel://127.0.0.1:${sentinel.port}#${NAME}`;
  const env = { REDIS_URL: sentinelUrl, REDIS_PREFIX: prefix, SEEDBLOCK_CLOCK: 'system' };
  apis = await Promise.all([startApiProcess(env), startApiProcess(env)]);
  setup = await openTestStore({ redisUrl: primary.url, prefix, clock: 'system', name: 'lag-setup' });
}, 120_000);
afterAll(async () => {
  await setup?.close();
  await Promise.all(apis.map((api) => api.stop()));
  await sentinel?.stop();
  await Promise.all([lagging?.stop(), steady?.stop()]);
  await proxy?.stop();
  await primary?.stop();
});

type Answer = { status: number; blockedUntil: string | null };

/** One round_start of key `i` (seed SEED + i) through one of the two processes. */
async function report(credential: string, i: number): Promise<Answer> {
  const res = await sendReport(apis[i % 2]!, credential, validReport({ seed: SEED + i }));
  return { status: res.status, blockedUntil: (res.body.blockedUntil as string | null | undefined) ?? null };
}

const revoke = (api: ApiProcess, credential: string) =>
  send(`${api.base}/v1/servers/revoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}` },
  });

/** `httpkey issue` of the operator CLI, through the Sentinel as the processes. */
const issueFromCli = () =>
  runAdmin(['httpkey', 'issue'], { REDIS_URL: sentinelUrl, REDIS_PREFIX: prefix, NODE_ENV: 'test' });

describe('a primary crash while the replica Sentinel prefers lags', () => {
  it('loses nothing a client was told: windows, a key the CLI printed, a revoke answered 200', async () => {
    const credentials: string[] = [];
    for (let i = 0; i < KEYS; i++) credentials.push((await setup.issueHttpKey()).credential);
    await pollUntil(
      () => lagging.observer.zcard(`${prefix}servers`),
      (n) => n === KEYS,
      { what: 'the keys on the lagging replica', everyMs: 50 },
    );

    // Half the keys open their windows while the link is up: each is answered once replicated
    // (on a loaded machine a replica may miss the 250 ms: 503, and the client retries).
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
    const printed = oneJsonLine((await issueFromCli()).stdout);
    expect(printed).toMatchObject({ credential: expect.stringMatching(/^sbk_/) });
    const revokedBefore = credentials[0]!;
    expect((await revoke(apis[1]!, revokedBefore)).status).toBe(200);

    // The link holds: the primary takes the other half's windows and the steady replica confirms
    // them, but the lagging one does not, so none is acknowledged (503, retry later), nor a key,
    // nor a revoke.
    proxy.hold();
    const held: Answer[] = [];
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(credentials.slice(KEYS / 2).map((c, j) => report(c, KEYS / 2 + j)));
      held.push(...answers);
      answers.forEach((a, j) => {
        if (a.status === 200 && a.blockedUntil) acknowledged.set(KEYS / 2 + j, a.blockedUntil);
      });
    }
    expect(held.filter((a) => a.status === 503)).toHaveLength(held.length);
    const cli = await issueFromCli();
    expect({ code: cli.code, out: oneJsonLine(cli.stdout) }).toEqual({
      code: 1,
      out: { error: expect.stringMatching(/^db unavailable: not confirmed by the replicas .*try again$/) },
    });
    // Its retry finds the key gone from the primary, and says so (401) no sooner than it is replicated.
    for (const api of apis) {
      const revokeHeld = await revoke(api, credentials[1]!);
      expect({ status: revokeHeld.status, body: revokeHeld.body }).toEqual({
        status: 503,
        body: { error: 'db unavailable' },
      });
    }
    expect(
      await primary.observer.zcount(`${prefix}windows:open`, '-inf', '+inf'),
      'the primary holds the unconfirmed windows too',
    ).toBe(KEYS);

    await primary.kill('SIGKILL');
    await pollUntil(
      () => sentinel.masterPort().catch(() => 0),
      (port) => port !== primary.port,
      { what: 'the Sentinel naming a new master', everyMs: 100, timeoutMs: 30_000 },
    );
    expect(await sentinel.masterPort(), 'the replica with the better priority').toBe(lagging.port);

    // Each acknowledged seed still hides its map through both processes: a read may meet the
    // move (503), never the map.
    for (const api of apis) {
      for (const [i, blockedUntil] of acknowledged) {
        const res = await pollUntil(
          () => get(`${api.base}/maps/${SEED + i}`),
          (r) => r.status !== 503,
          { what: `seed ${SEED + i} read after the failover`, everyMs: 100, timeoutMs: 60_000 },
        );
        expect({ seed: SEED + i, status: res.status, body: res.body }).toEqual({
          seed: SEED + i,
          status: 403,
          body: { error: 'blocked', blockedUntil },
        });
      }
    }
    expect(acknowledged.size).toBe(KEYS / 2);
    const onNewMaster = openStore({ redisUrl: lagging.url, prefix, clock: 'system', name: 'lag-check' });
    try {
      await redisReady(onNewMaster.ctx.redis, 5_000);
      expect(await onNewMaster.authenticate(printed.credential as string)).not.toBeNull();
      expect(await onNewMaster.authenticate(revokedBefore)).toBeNull();
    } finally {
      await onNewMaster.close();
    }
  }, 180_000);
});
