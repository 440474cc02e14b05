import type { StoreContext } from './context.ts';

// Where the bot last registered its slash commands in a guild, so that registering them elsewhere
// (globally, or in another guild) can empty that guild's set: no command ever shows twice.

const key = (ctx: StoreContext) => `${ctx.prefix}bot:commands-guild`;

/** The guild the command set was last registered in; null when it was global (or never). */
export async function lastCommandGuild(ctx: StoreContext): Promise<string | null> {
  return ctx.redis.get(key(ctx));
}

/** Remembers the guild the set is registered in now (null: registered globally). */
export async function rememberCommandGuild(ctx: StoreContext, guildId: string | null): Promise<void> {
  if (guildId === null) await ctx.redis.del(key(ctx));
  else await ctx.redis.set(key(ctx), guildId);
}
