// Issue 18, point 5: a changed generator is deployed over a populated map cache. Real processes:
// an API and a worker of this checkout fill the map cache (and the API's memory) and the seed
// index; then they stop, and an API from the files the image holds, whose generator makes other maps
// (one spawn fewer) serves the same Redis. It never serves the old bytes or ETag (not even to a
// client revalidating the old ETag), and the seed index's spawns follow the new maps: lazily for
// the maps read, and for every other one with `admin -- maps reindex`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GENERATOR_VERSION, versionOf } from '../../generator/version.ts';
import { testPrefix } from '../support/api.ts';
import { ensureViewerBuilt } from '../support/e2e-stack.ts';
import { assembleImageFiles } from '../support/image-files.ts';
import { oneJsonLine, runTs } from '../support/child.ts';
import { REPO_ROOT } from '../support/repo.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { startWorkerProcess } from '../support/generator-worker.ts';
import { pollUntil } from '../support/clock.ts';
import { send } from '../support/http.ts';
import { openTestStore } from '../support/test-store.ts';

/** Read after the deploy. */
const SEEDS = [881_001, 881_002, 881_003];
/** Not read after the deploy: only the reindex brings their entries up to date. */
const UNREAD = [881_004, 881_005];

type MapBody = { spawns: unknown[] };
type SeedPage = { items: { seed: number; spawns: number; roomCount: number }[] };

/** The files the image holds (as its Dockerfile copies them), with a generator that drops each map's last spawn. */
async function changedDeploy(): Promise<string> {
  await ensureViewerBuilt();
  const root = mkdtempSync(join(tmpdir(), 'seedblock-deploy-'));
  assembleImageFiles(REPO_ROOT, root);
  const file = join(root, 'generator', 'map-bytes.ts');
  const source = readFileSync(file, 'utf8');
  const parse = 'const map = MapSchema.parse(generateMap(seed));';
  expect(source).toContain(parse);
  writeFileSync(file, source.replace(parse, `${parse}\n  map.spawns.pop();`));
  return root;
}

async function readAll(api: ApiProcess) {
  const maps = new Map<number, { etag: string; body: string }>();
  for (const seed of SEEDS) {
    const res = await send<MapBody>(`${api.base}/maps/${seed}`);
    expect(res.status, `${seed}`).toBe(200);
    maps.set(seed, { etag: res.headers.get('etag')!, body: res.text });
  }
  return maps;
}

async function indexed(api: ApiProcess): Promise<Map<number, number>> {
  const res = await send<SeedPage>(`${api.base}/seeds?limit=500`);
  expect(res.status).toBe(200);
  return new Map(
    res.body.items.filter((i) => [...SEEDS, ...UNREAD].includes(i.seed)).map((i) => [i.seed, i.spawns]),
  );
}

let root: string;
const prefix = testPrefix();
let before: Map<number, { etag: string; body: string }>;
let spawnsBefore: Map<number, number>;

beforeAll(async () => {
  root = await changedDeploy();
  // The old deploy: generates the maps (the worker caches them in Redis) and serves them.
  const api = await startApiProcess({ LOG_LEVEL: 'info', REDIS_PREFIX: prefix });
  const worker = startWorkerProcess(prefix, { LOG_LEVEL: 'info' });
  try {
    for (const seed of [...SEEDS, ...UNREAD]) {
      await pollUntil(
        () => send(`${api.base}/maps/${seed}`),
        (r) => r.status === 200,
        { what: `map ${seed} generated`, timeoutMs: 20_000 },
      );
    }
    before = await readAll(api);
    spawnsBefore = await indexed(api);
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
  }
}, 60_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a changed generator deployed over a populated map cache', () => {
  it('has another version, and never serves the old bytes or ETag; the index follows', async () => {
    const newVersion = versionOf(join(root, 'generator'));
    expect(newVersion).not.toBe(GENERATOR_VERSION);
    for (const { etag } of before.values()) expect(etag.startsWith(`"${GENERATOR_VERSION}.`)).toBe(true);

    const api = await startApiProcess({ LOG_LEVEL: 'info', REDIS_PREFIX: prefix }, { root });
    try {
      // A client revalidating what it holds gets the new map, not 304.
      for (const [seed, old] of before) {
        const res = await send<MapBody>(`${api.base}/maps/${seed}`, {
          headers: { 'if-none-match': old.etag },
        });
        expect(res.status, `${seed}`).toBe(200);
        expect(res.headers.get('etag')).not.toBe(old.etag);
        expect(res.headers.get('etag')!.startsWith(`"${newVersion}.`)).toBe(true);
        expect(res.text).not.toBe(old.body);
        expect(res.body.spawns.length).toBe((JSON.parse(old.body) as MapBody).spawns.length - 1);
      }
      // Again, from this process's memory and from the map cache alike: the new bytes only.
      const after = await readAll(api);
      for (const [seed, now] of after) {
        expect(now.etag.startsWith(`"${newVersion}.`), `${seed}`).toBe(true);
        expect(now.body).not.toBe(before.get(seed)!.body);
      }
      // The seed index now says what the new generator makes.
      const spawnsAfter = await indexed(api);
      for (const seed of SEEDS) expect(spawnsAfter.get(seed)).toBe(spawnsBefore.get(seed)! - 1);
      for (const seed of UNREAD) expect(spawnsAfter.get(seed)).toBe(spawnsBefore.get(seed));

      // The reindex, from the new checkout, brings the rest up to date; once is enough.
      const env = { REDIS_URL: inject('redisUrl'), REDIS_PREFIX: prefix, SEEDBLOCK_CLOCK: 'manual' };
      const first = await runTs('scripts/admin.ts', ['maps', 'reindex'], env, 30_000, root);
      expect(first.code, first.stderr).toBe(0);
      expect(oneJsonLine(first.stdout)).toEqual({ generatorVersion: newVersion, seeds: 5, changed: 2 });
      const reindexed = await indexed(api);
      for (const seed of [...SEEDS, ...UNREAD]) expect(reindexed.get(seed)).toBe(spawnsBefore.get(seed)! - 1);
      const again = await runTs('scripts/admin.ts', ['maps', 'reindex'], env, 30_000, root);
      expect(oneJsonLine(again.stdout)).toEqual({ generatorVersion: newVersion, seeds: 5, changed: 0 });
    } finally {
      await api.stop();
    }
    // The map cache in Redis now holds the new version's bytes in place of the old.
    const store = await openTestStore({ prefix, clock: 'system', name: 'deploy-test' });
    try {
      for (const seed of SEEDS) {
        const etag = await store.ctx.redis.hget(`${prefix}mapcache:${seed}`, 'etag');
        expect(etag?.startsWith(`"${newVersion}.`), `${seed}: ${etag}`).toBe(true);
      }
    } finally {
      await store.close();
    }
  });
});
