import type { StoreContext } from './context.ts';

// The permanent blocklist: seeds the read API never shows (403 `blocked` without `blockedUntil`).
// A change also updates seeds:hidden in the same step (store/scripts/change-blocklist.lua).

/** `actor` records a change in the audit trail. */
export async function addToBlocklist(
  ctx: StoreContext,
  seed: number,
  { actor }: { actor?: string } = {},
): Promise<{ seed: number; added: boolean }> {
  // Confirmed (store/index.ts) even when it was there already: an earlier attempt may not have
  // reached the replicas.
  return { seed, added: (await changeBlocklist(ctx, seed, 'add', actor)) === 1 };
}

export async function removeFromBlocklist(
  ctx: StoreContext,
  seed: number,
  { actor }: { actor?: string } = {},
): Promise<{ seed: number; removed: boolean }> {
  return { seed, removed: (await changeBlocklist(ctx, seed, 'remove', actor)) === 1 };
}

const changeBlocklist = (ctx: StoreContext, seed: number, change: 'add' | 'remove', actor = '') =>
  ctx.redis.changeBlocklist(ctx.prefix, seed, change, ctx.clock.scriptArg, actor);

export async function listBlocklist(ctx: StoreContext): Promise<number[]> {
  return (await ctx.redis.smembers(`${ctx.prefix}blocklist`)).map(Number).sort((a, b) => a - b);
}
