import type { StoreContext } from './context.ts';

// The permanent blocklist: seeds the read API never shows (403 `blocked` without `blockedUntil`).

export async function addToBlocklist(
  ctx: StoreContext,
  seed: number,
): Promise<{ seed: number; added: boolean }> {
  return { seed, added: (await ctx.redis.sadd(`${ctx.prefix}blocklist`, String(seed))) === 1 };
}

export async function removeFromBlocklist(
  ctx: StoreContext,
  seed: number,
): Promise<{ seed: number; removed: boolean }> {
  return { seed, removed: (await ctx.redis.srem(`${ctx.prefix}blocklist`, String(seed))) === 1 };
}

export async function listBlocklist(ctx: StoreContext): Promise<number[]> {
  return (await ctx.redis.smembers(`${ctx.prefix}blocklist`)).map(Number).sort((a, b) => a - b);
}
