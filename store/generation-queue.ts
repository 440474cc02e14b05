import type { StoreContext } from './context.ts';
import type { MapBodies, MapSummary } from './map-cache.ts';
import type { StoreRedis } from './redis.ts';

// The generation queue as the workers see it: a Redis list taken reliably with BLMOVE into a
// processing list, a lease per running job, and a reaper for the jobs of workers that died.

/** Waits up to `timeoutSeconds` for a seed to generate (on the worker's own blocking connection). */
export async function takeJob(
  ctx: StoreContext,
  blocking: StoreRedis,
  timeoutSeconds: number,
): Promise<number | null> {
  const seed = await blocking.blmove(
    `${ctx.prefix}queue:wait`,
    `${ctx.prefix}queue:active`,
    'RIGHT',
    'LEFT',
    timeoutSeconds,
  );
  return seed === null ? null : Number(seed);
}

/** Marks the job running under this worker's lease; 0 when the seed needs no work. */
export async function startJob(ctx: StoreContext, seed: number, workerId: string): Promise<number> {
  return ctx.redis.startJob(ctx.prefix, seed, ctx.clock.scriptArg, workerId);
}

export interface GeneratedMap extends MapSummary {
  seed: number;
  /** The compressed bodies, when the map cache may keep them. */
  bodies?: MapBodies;
}

/**
 * Stores a generated map: the seed joins the durable index (its list entry), its bodies go to the
 * map cache when given and they fit under `cacheMaxBytes`, and the job is done. Returns the
 * seed's dump order.
 */
export async function finishJob(
  ctx: StoreContext,
  map: GeneratedMap,
  cacheMaxBytes: number,
): Promise<number> {
  const { bodies } = map;
  return ctx.redis.finishJob(
    ctx.prefix,
    map.seed,
    map.roomCount,
    map.spawns,
    map.markers,
    cacheMaxBytes,
    bodies?.etag ?? '',
    bodies?.br ?? '',
    bodies?.gz ?? '',
  );
}

export async function failJob(
  ctx: StoreContext,
  seed: number,
  reason: string,
): Promise<'requeued' | 'error'> {
  return (await ctx.redis.failJob(ctx.prefix, seed, reason.slice(0, 200))) as 'requeued' | 'error';
}

/** Sends the jobs of dead workers back to the queue; returns how many. */
export async function requeueStaleJobs(ctx: StoreContext): Promise<number> {
  return ctx.redis.requeueStaleJobs(ctx.prefix, ctx.clock.scriptArg);
}

export async function queueDepth(ctx: StoreContext): Promise<{ waiting: number; active: number }> {
  const [waiting, active] = await Promise.all([
    ctx.redis.llen(`${ctx.prefix}queue:wait`),
    ctx.redis.llen(`${ctx.prefix}queue:active`),
  ]);
  return { waiting, active };
}

/** Adds one generation's duration to the totals all workers share (for metrics). */
export async function recordGenerationTime(ctx: StoreContext, ms: number): Promise<void> {
  await ctx.redis
    .multi()
    .hincrbyfloat(`${ctx.prefix}metrics:generation`, 'seconds', ms / 1000)
    .hincrby(`${ctx.prefix}metrics:generation`, 'count', 1)
    .exec();
}

export async function readGenerationTotals(ctx: StoreContext): Promise<{ seconds: number; count: number }> {
  const [seconds, count] = await ctx.redis.hmget(`${ctx.prefix}metrics:generation`, 'seconds', 'count');
  return { seconds: Number(seconds ?? 0), count: Number(count ?? 0) };
}
