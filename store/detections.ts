import { randomUUID } from 'node:crypto';
import type { StoreContext } from './context.ts';

/** Records a sighting from the seed detector; dropped while the seed's window is open. */
export async function recordDetection(
  ctx: StoreContext,
  { seed, queueMax }: { seed: number; queueMax: number },
): Promise<{ seed: number; recorded: boolean }> {
  const outcome = await ctx.redis.recordDetection(
    ctx.prefix,
    seed,
    ctx.clock.scriptArg,
    randomUUID(),
    queueMax,
  );
  return { seed, recorded: outcome === 'recorded' };
}
