import { randomUUID } from 'node:crypto';
import { DETECTION_WINDOWS_MS, PROTECTION_RECENT_MAX, SEED_COOLDOWN_MS } from './constants.ts';
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
    DETECTION_WINDOWS_MS['7d'],
    SEED_COOLDOWN_MS,
    PROTECTION_RECENT_MAX,
  );
  return { seed, recorded: outcome === 'recorded' };
}
