import type { StoreContext } from './context.ts';

// The permanent blocklist: seeds the read API never shows (403 `blocked` without `blockedUntil`).
// A change also updates seeds:hidden in the same step (store/scripts/change-blocklist.lua).

export async function addToBlocklist(
  ctx: StoreContext,
  seed: number,
): Promise<{ seed: number; added: boolean }> {
  // Confirmed (store/index.ts) even when it was there already: an earlier attempt may not have
  // reached the replicas.
  return { seed, added: (await ctx.redis.changeBlocklist(ctx.prefix, seed, 'add')) === 1 };
}

export async function removeFromBlocklist(
  ctx: StoreContext,
  seed: number,
): Promise<{ seed: number; removed: boolean }> {
  return { seed, removed: (await ctx.redis.changeBlocklist(ctx.prefix, seed, 'remove')) === 1 };
}

export async function listBlocklist(ctx: StoreContext): Promise<number[]> {
  return (await ctx.redis.smembers(`${ctx.prefix}blocklist`)).map(Number).sort((a, b) => a - b);
}
