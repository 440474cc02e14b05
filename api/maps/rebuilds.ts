import { buildMapJson, compressMap } from '../../generator/map-bytes.ts';
import type { MapSummary } from '../../generator/map-summary.ts';
import type { MapBytes } from './memory-cache.ts';

/** Rebuilds at once per API process; more wait their turn. */
const REBUILDS_AT_ONCE = 2;
/** Rebuilds that may wait; past this a read answers 503 `busy` rather than queue without end. */
const REBUILDS_WAITING_MAX = 64;

/** A rebuilt map, with its seed index entry as this generator makes it. */
export type RebuiltMap = MapBytes & { summary: MapSummary };

export class RebuildsBusyError extends Error {
  override name = 'RebuildsBusyError';
}

/**
 * Rebuilds maps that are in no cache, from their seed: the same bytes and ETag as when first
 * generated. At most REBUILDS_AT_ONCE run together (the JSON on the event loop, the compression on
 * libuv's threads) and a bounded number wait, so anonymous reads of evicted maps cannot take the
 * process from reports and claims; many reads of one seed share one rebuild.
 */
export function mapRebuilds() {
  const inFlight = new Map<number, Promise<RebuiltMap>>();
  const waiting: (() => void)[] = [];
  let running = 0;

  const turn = (): Promise<void> => {
    if (running < REBUILDS_AT_ONCE) {
      running++;
      return Promise.resolve();
    }
    if (waiting.length >= REBUILDS_WAITING_MAX) throw new RebuildsBusyError('too many maps rebuilding');
    return new Promise((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  async function rebuild(seed: number): Promise<RebuiltMap> {
    await turn();
    try {
      const { json, summary } = buildMapJson(seed);
      return { ...(await compressMap(json)), json, summary };
    } finally {
      done();
    }
  }

  return (seed: number): Promise<RebuiltMap> => {
    let pending = inFlight.get(seed);
    if (!pending) {
      pending = rebuild(seed).finally(() => inFlight.delete(seed));
      inFlight.set(seed, pending);
    }
    return pending;
  };
}
