import { countRefusedView } from './block-engine.ts';
import type { StoreContext } from './context.ts';
import type { MapBodies } from './map-cache.ts';

// The read side of generated maps (spec 4.7-4.9). Each read is one Lua script, so the block check
// and what follows it see the same state.

export type MapRead =
  /** Dumped and visible, bytes from the map cache. */
  | { kind: 'cached'; bodies: MapBodies }
  /** Dumped and visible, but in no cache: the caller rebuilds the bytes from the seed. */
  | { kind: 'rebuild' }
  | { kind: 'blocked'; until: number }
  | { kind: 'permanent' }
  | { kind: 'pending' }
  | { kind: 'error' }
  | { kind: 'full' }
  | { kind: 'limited'; resetAt: number };

export interface MapReadOptions {
  seed: number;
  /** The per-IP key of the uncached-seeds limit. */
  clientKey: string;
  queueMax: number;
  /** Uncached seeds per minute per IP (spec 8), times the configured multiplier. */
  uncachedLimit: number;
  /** The reader's generator version: a cached map of another is not served (read-map.lua). */
  generatorVersion: string;
}

/**
 * A map read of a seed whose bytes the caller does not hold (see read-map.lua); one it holds needs
 * only checkSeedBlock, which counts a refused view the same way.
 */
export async function readMap(ctx: StoreContext, o: MapReadOptions): Promise<MapRead> {
  const reply = await ctx.redis.readMapBuffer(
    `${ctx.prefix}rate:uncachedMapsPerIp:${o.clientKey}`,
    ctx.prefix,
    o.seed,
    ctx.clock.scriptArg,
    o.queueMax,
    o.uncachedLimit,
    o.generatorVersion,
  );
  const kind = reply[0]!.toString();
  switch (kind) {
    case 'cached':
      return { kind, bodies: { etag: reply[1]!.toString(), br: reply[2]!, gz: reply[3]! } };
    case 'blocked': {
      const until = Number(reply[1]!.toString());
      await countRefusedView(ctx, o.seed, until);
      return { kind, until };
    }
    case 'limited':
      return { kind, resetAt: Number(reply[1]!.toString()) };
    default:
      return { kind: kind as 'rebuild' | 'permanent' | 'pending' | 'error' | 'full' };
  }
}

export type JobRead =
  | { kind: 'blocked'; until: number }
  | { kind: 'permanent' }
  | { kind: 'full' }
  | { kind: 'job'; status: 'queued'; ahead: number }
  | { kind: 'job'; status: 'running' | 'ready' }
  | { kind: 'job'; status: 'error'; error: string };

export async function readJob(ctx: StoreContext, seed: number, queueMax: number): Promise<JobRead> {
  const [kind, value] = await ctx.redis.readJob(ctx.prefix, seed, ctx.clock.scriptArg, queueMax);
  switch (kind) {
    case 'blocked':
      await countRefusedView(ctx, seed, Number(value));
      return { kind, until: Number(value) };
    case 'permanent':
    case 'full':
      return { kind };
    case 'queued':
      return { kind: 'job', status: 'queued', ahead: Number(value ?? 0) };
    case 'error':
      return { kind: 'job', status: 'error', error: String(value) };
    default:
      return { kind: 'job', status: kind as 'running' | 'ready' };
  }
}

export interface SeedListItem {
  seed: number;
  roomCount: number;
  spawns: number;
  markers: number;
  dumped: boolean;
  detected: boolean;
}

// seed-index.lua's LIST_CHUNK and LIST_ENTRY: entries per seeds:list:<n> key, bytes per entry.
const LIST_CHUNK = 128;
const LIST_ENTRY = 24;

/**
 * A list entry (at `at` of a text of them) as the seed index stores it
 * (store/scripts/includes/seed-index.lua): fixed-width right-aligned decimals, seed (10),
 * roomCount (4), spawns (6), markers (3), detected (1).
 */
function listItem(text: string, at = 0): SeedListItem {
  return {
    seed: Number(text.slice(at, at + 10)),
    roomCount: Number(text.slice(at + 10, at + 14)),
    spawns: Number(text.slice(at + 14, at + 20)),
    markers: Number(text.slice(at + 20, at + 23)),
    dumped: true,
    detected: text[at + 23] === '1',
  };
}

export type SeedPage =
  | { kind: 'page'; items: SeedListItem[]; total: number; nextCursor: number | null }
  | { kind: 'invalid cursor' };

export async function readSeedPage(
  ctx: StoreContext,
  { limit, cursor }: { limit: number; cursor: number | null },
): Promise<SeedPage> {
  const reply = await ctx.redis.readSeedPage(ctx.prefix, ctx.clock.scriptArg, limit, cursor ?? '');
  if (reply[0] === 'invalid cursor') return { kind: 'invalid cursor' };
  // Runs of entries in dump order, newest run first: the page walks each from its end.
  const items: SeedListItem[] = [];
  for (let i = 2; i < reply.length; i++) {
    const run = String(reply[i]);
    for (let at = run.length - LIST_ENTRY; at >= 0; at -= LIST_ENTRY) items.push(listItem(run, at));
  }
  return {
    kind: 'page',
    items,
    total: Number(reply[0]),
    nextCursor: reply[1] === '' ? null : Number(reply[1]),
  };
}

/** The index's entries of the `count` dump orders after `after`, in order; one GET per chunk. */
async function indexEntries(ctx: StoreContext, after: number, count: number): Promise<SeedListItem[]> {
  const items: SeedListItem[] = [];
  const [first, last] = [Math.floor((after + 1) / LIST_CHUNK), Math.floor((after + count) / LIST_CHUNK)];
  for (let chunk = first; chunk <= last; chunk++) {
    const text = (await ctx.redis.get(`${ctx.prefix}seeds:list:${chunk}`)) ?? '';
    for (let at = 0; at + LIST_ENTRY <= text.length; at += LIST_ENTRY) {
      const order = chunk * LIST_CHUNK + at / LIST_ENTRY;
      // A slot never written (see seed-index.lua) is zero bytes.
      if (order > after && order <= after + count && text.charCodeAt(at) !== 0)
        items.push(listItem(text, at));
    }
  }
  return items;
}

/**
 * Every dumped seed, `batch` dump orders at a time, oldest first, for a pass over the whole index
 * (`admin -- maps reindex`).
 */
export async function* dumpedSeeds(ctx: StoreContext, batch = 1_024): AsyncGenerator<number[]> {
  const dumped = Number((await ctx.redis.hget(`${ctx.prefix}seeds:index`, 'dumped')) ?? 0);
  for (let after = 0; after < dumped; after += batch) {
    yield (await indexEntries(ctx, after, batch)).map((item) => item.seed);
  }
}

/** Rewrites the index entries of these seeds' maps (refresh-seed-summaries.lua); how many changed. */
export async function refreshSeedSummaries(
  ctx: StoreContext,
  maps: Pick<SeedListItem, 'seed' | 'roomCount' | 'spawns' | 'markers'>[],
): Promise<number> {
  if (maps.length === 0) return 0;
  const args = maps.flatMap((m) => [m.seed, m.roomCount, m.spawns, m.markers]);
  return ctx.redis.refreshSeedSummaries(ctx.prefix, ...args);
}

/**
 * Moves seeds kept in the layout before the seed index into it, `batch` per Redis call (see
 * store/scripts/migrate-seed-index.lua); returns how many dumped seeds it moved. Nothing to do is
 * one call.
 */
export async function migrateSeedIndex(ctx: StoreContext, batch = 1_000): Promise<number> {
  let total = 0;
  let left: number;
  do {
    const [moved, rest] = await ctx.redis.migrateSeedIndex(ctx.prefix, batch);
    total += moved;
    left = rest;
  } while (left > 0);
  return total;
}
