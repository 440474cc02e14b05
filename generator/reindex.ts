import type { Store } from '../store/index.ts';
import { buildMapJson } from './map-bytes.ts';
import { GENERATOR_VERSION } from './version.ts';

/**
 * `admin -- maps reindex`: every dumped seed's roomCount, spawns and markers as this generator
 * makes its map, at once rather than on each map's next rebuild. Needs no stop: a rebuild that
 * races it writes the same values.
 */
export async function reindexMaps(store: Store) {
  let seeds = 0;
  let changed = 0;
  for await (const batch of store.dumpedSeeds()) {
    seeds += batch.length;
    changed += await store.refreshSeedSummaries(
      batch.map((seed) => ({ seed, ...buildMapJson(seed).summary })),
    );
  }
  return { generatorVersion: GENERATOR_VERSION, seeds, changed };
}
