import { PROTECTION_RECENT_MAX, RATE_LIMITS, SEED_COOLDOWN_MS } from './constants.ts';
import type { StoreContext } from './context.ts';

// The read side of generated maps (spec 4.7-4.9). Each read is one Lua script, so the block check
// and what follows it see the same state.

export type MapEncoding = 'br' | 'gz';

export type MapRead =
  | { kind: 'ready'; etag: string; body: Buffer }
  | { kind: 'blocked'; until: number }
  | { kind: 'permanent' }
  | { kind: 'pending' }
  | { kind: 'error' }
  | { kind: 'full' }
  | { kind: 'limited'; resetAt: number };

export interface MapReadOptions {
  seed: number;
  encoding: MapEncoding;
  /** The per-IP key of the uncached-seeds limit. */
  clientKey: string;
  queueMax: number;
  /** Uncached seeds per minute per IP (spec 8), times the configured multiplier. */
  uncachedLimit: number;
}

export async function readMap(ctx: StoreContext, o: MapReadOptions): Promise<MapRead> {
  const { windowMs } = RATE_LIMITS.uncachedMapsPerIp;
  const reply = (await ctx.redis.readMapBuffer(
    `${ctx.prefix}rate:uncachedMapsPerIp:${o.clientKey}`,
    ctx.prefix,
    o.seed,
    await ctx.clock.now(),
    SEED_COOLDOWN_MS,
    PROTECTION_RECENT_MAX,
    o.queueMax,
    o.encoding,
    o.uncachedLimit,
    windowMs,
  )) as Buffer[];
  const kind = reply[0]!.toString();
  switch (kind) {
    case 'ready':
      return { kind, etag: reply[1]!.toString(), body: reply[2]! };
    case 'blocked':
      return { kind, until: Number(reply[1]!.toString()) };
    case 'limited':
      return { kind, resetAt: Number(reply[1]!.toString()) };
    default:
      return { kind: kind as 'permanent' | 'pending' | 'error' | 'full' };
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
  const [kind, value] = await ctx.redis.readJob(
    ctx.prefix,
    seed,
    await ctx.clock.now(),
    SEED_COOLDOWN_MS,
    PROTECTION_RECENT_MAX,
    queueMax,
  );
  switch (kind) {
    case 'blocked':
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

export type SeedPage =
  | { kind: 'page'; items: SeedListItem[]; total: number; nextCursor: number | null }
  | { kind: 'invalid cursor' };

export async function readSeedPage(
  ctx: StoreContext,
  { limit, cursor }: { limit: number; cursor: number | null },
): Promise<SeedPage> {
  const reply = await ctx.redis.readSeedPage(ctx.prefix, await ctx.clock.now(), limit, cursor ?? '');
  if (reply[0] === 'invalid cursor') return { kind: 'invalid cursor' };
  const items: SeedListItem[] = [];
  for (let i = 2; i < reply.length; i += 5) {
    items.push({
      seed: Number(reply[i]),
      roomCount: Number(reply[i + 1]),
      spawns: Number(reply[i + 2]),
      markers: Number(reply[i + 3]),
      dumped: true,
      detected: Number(reply[i + 4]) === 1,
    });
  }
  return {
    kind: 'page',
    items,
    total: Number(reply[0]),
    nextCursor: reply[1] === '' ? null : Number(reply[1]),
  };
}
