import type { Store } from '../store/index.ts';
import { round } from './lib.ts';

/** 5. Redis bytes per stored map and per known seed (MEMORY USAGE), projected to a million seeds. */
export async function benchMemory(mapsStore: Store, listStore: Store) {
  const usage = async (store: Store, key: string) =>
    Number((await store.ctx.redis.call('MEMORY', 'USAGE', `${store.ctx.prefix}${key}`, 'SAMPLES', '0')) ?? 0);

  const mapSeeds = await mapsStore.ctx.redis.zrange(`${mapsStore.ctx.prefix}seeds:by-dump`, '0', '-1');
  let mapBytes = 0;
  for (const seed of mapSeeds) mapBytes += await usage(mapsStore, `map:${seed}`);
  const perMap = mapBytes / mapSeeds.length;

  const listSeeds = await listStore.ctx.redis.zcard(`${listStore.ctx.prefix}seeds:by-dump`);
  const sample = await listStore.ctx.redis.zrange(`${listStore.ctx.prefix}seeds:by-dump`, '0', '999');
  let metaBytes = 0;
  for (const seed of sample) metaBytes += await usage(listStore, `map:${seed}`);
  const perListEntry = (await usage(listStore, 'seeds:by-dump')) / listSeeds;
  const perKnownSeed = metaBytes / sample.length + perListEntry;

  const mib = (bytes: number) => round(bytes / 2 ** 20, 1);
  const table = {
    'stored map (br + gzip + metadata)': {
      bytes: Math.round(perMap),
      'per 1M seeds (MiB)': mib(perMap * 1e6),
    },
    'known seed (metadata + list entry)': {
      bytes: Math.round(perKnownSeed),
      'per 1M seeds (MiB)': mib(perKnownSeed * 1e6),
    },
    'map + list entry': {
      bytes: Math.round(perMap + perListEntry),
      'per 1M seeds (MiB)': mib((perMap + perListEntry) * 1e6),
    },
  };
  console.log('\n5. Memory (Redis MEMORY USAGE)');
  console.table(table);
  return table;
}
