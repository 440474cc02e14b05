import type { StoreContext } from './context.ts';

// Acknowledged writes (replication.ts): an answer the user relies on goes out only once the
// replicas hold what it says.

/** What to do with an answer that could not be confirmed, besides saying 503 (best effort). */
export type Unconfirmed<R> = (ctx: StoreContext, answer: R) => Promise<unknown>;

const issuedServerId = (answer: unknown): string | null =>
  typeof answer === 'object' && answer !== null && 'credential' in answer && 'serverId' in answer
    ? String(answer.serverId)
    : null;

/**
 * `answer` once the writes behind it are replicated; else ReplicationError (503), after
 * `unconfirmed`. A claim's credential is written marked `unacknowledged` (claim-with-code.lua,
 * issue-self-claim.lua): a retry of that claim replaces the registration nobody was told about
 * instead of meeting its own first try (a used code, an address in use); the mark goes once the
 * answer is confirmed (a mark that outlives a failover only lets the same address retry).
 */
export async function acknowledged<R>(
  ctx: StoreContext,
  answer: R,
  unconfirmed?: Unconfirmed<R>,
): Promise<R> {
  try {
    await ctx.confirmReplicated();
  } catch (err) {
    await unconfirmed?.(ctx, answer).catch(() => {});
    throw err;
  }
  const serverId = issuedServerId(answer);
  if (serverId !== null) {
    void ctx.redis.hdel(`${ctx.prefix}server:${serverId}`, 'unacknowledged').catch(() => {});
  }
  return answer;
}
