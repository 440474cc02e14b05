import { WORKER_SEEN_MS } from './constants.ts';
import type { StoreContext } from './context.ts';

// Generator workers' heartbeats: one sorted set, each worker scored by its last beat. Every beat
// also drops the workers silent past WORKER_SEEN_MS, so the set holds only live ones (and those
// that died within the last WORKER_SEEN_MS), whatever number have come and gone.

const key = (ctx: StoreContext) => `${ctx.prefix}workers`;

/** Records that this worker is alive now. */
export async function beatWorker(ctx: StoreContext, workerId: string): Promise<void> {
  const now = await ctx.clock.now();
  await ctx.redis
    .multi()
    .zadd(key(ctx), now, workerId)
    .zremrangebyscore(key(ctx), '-inf', `(${now - WORKER_SEEN_MS}`)
    .exec();
}

/** A worker that stops says so, rather than counting for WORKER_SEEN_MS more. */
export async function forgetWorker(ctx: StoreContext, workerId: string): Promise<void> {
  await ctx.redis.zrem(key(ctx), workerId);
}

/** Generator workers that beat within the last WORKER_SEEN_MS. */
export async function countLiveWorkers(ctx: StoreContext): Promise<number> {
  const now = await ctx.clock.now();
  return ctx.redis.zcount(key(ctx), now - WORKER_SEEN_MS, '+inf');
}
