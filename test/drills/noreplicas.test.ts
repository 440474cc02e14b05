import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../store/index.ts';
import { testPrefix } from '../support/api.ts';
import { startTestWorker } from '../support/generator-worker.ts';
import { logLines } from '../support/logged-process.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { get } from '../support/http.ts';
import { generate } from '../support/read-api.ts';
import { openTestStore } from '../support/test-store.ts';

// A refusal stays a refusal (issue 34, item 2): while the master takes no write at all
// (`min-replicas-to-write 1` and no replica, as after a one-replica failover until the old primary
// rejoins), a blocked seed still answers 403 with its blockedUntil, on every read path: a map this
// process holds in memory, one it must ask Redis for, a job, a preview picture, the blocklist, and
// the seed list leaves them out. Counting the refused view is what is lost, quietly: not one error
// line. Once writes are taken again, the refused views are counted again. API as its own process,
// logging; a Redis of the suite's own. All on loopback.

const prefix = testPrefix();
let redis: PrivateRedis;
let api: ApiProcess;
let store: Store;
/** Dumped maps: one the API holds in memory, one it does not; one seed never generated. */
const HELD = 940_001;
const ASKED = 940_002;
const NEVER = 940_003;
const LISTED = 940_004;
const PERMANENT = 940_005;
const until: Record<number, string> = {};

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'noreplicas' });
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, SEEDBLOCK_CLOCK: 'system' };
  [api, store] = await Promise.all([
    startApiProcess({ LOG_LEVEL: 'info', ...env }),
    openTestStore({ redisUrl: redis.url, prefix, clock: 'system', name: 'noreplicas' }),
  ]);
  const worker = await startTestWorker(prefix, { url: redis.url, clock: 'system' });
  try {
    await generate(api, HELD, ASKED, LISTED);
  } finally {
    await worker.stop();
  }
  // Read once, so the API holds it in memory (the one-HEXISTS path).
  expect((await get(`${api.base}/maps/${HELD}`)).status).toBe(200);
  for (const seed of [HELD, ASKED, NEVER]) {
    const { serverId } = await store.issueHttpKey();
    const decision = await store.reportSeed({ serverId, kind: 'http', seed, event: 'round_start' });
    until[seed] = new Date(decision.blockedUntil!).toISOString();
  }
  await store.addToBlocklist(PERMANENT);
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await store?.close();
  await redis?.stop();
});

const viewsRefused = async () =>
  Number((await store.ctx.redis.hget(`${prefix}stats`, 'viewAttemptsBlocked')) ?? 0);

async function expectRefusals() {
  for (const seed of [HELD, ASKED, NEVER]) {
    for (const path of [`/maps/${seed}`, `/jobs/${seed}`]) {
      const res = await get(`${api.base}${path}`);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 403,
        body: { error: 'blocked', blockedUntil: until[seed] },
      });
    }
  }
  const picture = await get(`${api.url}/seed/${HELD}/preview.png`);
  expect({ status: picture.status, body: picture.body }).toEqual({
    status: 403,
    body: { error: 'blocked', blockedUntil: until[HELD] },
  });
  const permanent = await get(`${api.base}/maps/${PERMANENT}`);
  expect({ status: permanent.status, body: permanent.body }).toEqual({
    status: 403,
    body: { error: 'blocked' },
  });
  const seeds = await get<{ items: { seed: number }[] }>(`${api.base}/seeds`);
  expect(seeds.status).toBe(200);
  expect(seeds.body.items.map((item) => item.seed)).toEqual([LISTED]);
}

describe('a master that takes no writes (NOREPLICAS)', () => {
  it('still refuses every blocked seed with 403 and its blockedUntil, logging nothing wrong', async () => {
    await redis.observer.config('SET', 'min-replicas-to-write', '1');
    try {
      await expect(redis.observer.set(`${prefix}probe`, '1')).rejects.toThrow(/^NOREPLICAS/);
      const counted = await viewsRefused();
      await expectRefusals();
      expect(await viewsRefused(), 'the views refused meanwhile: not counted').toBe(counted);
    } finally {
      await redis.observer.config('SET', 'min-replicas-to-write', '0');
    }
    const problems = logLines(api.stdout()).filter((line) => (line.level as number) >= 40);
    expect(problems).toEqual([]);

    // Writes taken again: the same refusals, now counted (map and job reads count, pictures do not).
    const counted = await viewsRefused();
    await expectRefusals();
    expect(await viewsRefused()).toBe(counted + 6);
  });
});
