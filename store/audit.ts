import { z } from 'zod';
import { formatClaimCode, normalizeClaimCode } from './claim-codes.ts';
import type { StoreContext } from './context.ts';

// The audit trail: every moderator action (review decisions, revokes, the blocklist, the plugin
// minimum), every owner's own revoke or cancel, and every write of the operator CLI. Each entry is
// written by the script that does the action, in the same atomic step (includes/audit.lua), or
// right after it by recordAudit for the few actions that are no one script. The stream `audit`
// keeps at most AUDIT_MAX_ENTRIES entries, none older than AUDIT_MAX_AGE_MS.

/** The actor of the operator CLI's writes; chat members act under their Discord user id. */
export const CLI_ACTOR = 'cli';

export const AUDIT_ACTIONS = [
  'review.approve',
  'review.reject',
  'registration.revoke',
  'blocklist.add',
  'blocklist.remove',
  'minimum-version.set',
  'minimum-version.clear',
  'code.issue',
  'code.cancel',
  'httpkey.issue',
  'detect',
  'maps.reindex',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntrySchema = z.object({
  /** The stream id: orders entries; not a time to read. */
  id: z.string(),
  at: z.iso.datetime(),
  /** A Discord user id, or `cli`. */
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** A server id, seed, claim code or version; '' when the action has none (`maps.reindex`). */
  target: z.string(),
  /** Whose code or key it was (a Discord user id, or a name the CLI gave), when known. */
  owner: z.string().optional(),
  /** The claim review decided. */
  review: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const streamKey = (ctx: StoreContext) => `${ctx.prefix}audit`;
const cursorKey = (ctx: StoreContext) => `${ctx.prefix}audit:followed`;

type RawEntry = [id: string, fields: string[]];

function toEntry([id, fields]: RawEntry): AuditEntry {
  const f: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  return {
    id,
    at: new Date(Number(f.at)).toISOString(),
    actor: f.actor ?? '',
    action: f.action as AuditAction,
    target: f.target ?? '',
    ...(f.owner ? { owner: f.owner } : {}),
    ...(f.review ? { review: f.review } : {}),
  };
}

/** Records an action that is not itself one script, right after it (time from the one clock). */
export async function recordAudit(
  ctx: StoreContext,
  { actor, action, target }: { actor: string; action: AuditAction; target: string },
): Promise<void> {
  await ctx.redis.recordAudit(ctx.prefix, ctx.clock.scriptArg, actor, action, target);
}

/** A target as entries hold it: claim codes as XXXXX-XXXXX, everything else lower case. */
function canonicalTarget(target: string): string {
  const code = normalizeClaimCode(target);
  return code ? formatClaimCode(code) : target.trim().toLowerCase();
}

const PAGE = 500;

/** Entries newest first, of one actor and/or one target when given. */
export async function listAudit(
  ctx: StoreContext,
  { actor, target }: { actor?: string; target?: string } = {},
): Promise<AuditEntry[]> {
  const wanted = target === undefined ? undefined : canonicalTarget(target);
  const found: AuditEntry[] = [];
  let end = '+';
  for (;;) {
    const page = (await ctx.redis.xrevrange(streamKey(ctx), end, '-', 'COUNT', PAGE)) as RawEntry[];
    for (const entry of page.map(toEntry)) {
      if (actor !== undefined && entry.actor !== actor) continue;
      if (wanted !== undefined && canonicalTarget(entry.target) !== wanted) continue;
      found.push(entry);
    }
    if (page.length < PAGE) return found;
    end = `(${page.at(-1)![0]}`;
  }
}

/**
 * Where the bot's audit follower stands: the id of the last entry it handled. On its very first
 * start it begins at the newest entry, so history from before it ran is not posted.
 */
export async function auditFollowed(ctx: StoreContext): Promise<string> {
  const followed = await ctx.redis.get(cursorKey(ctx));
  if (followed !== null) return followed;
  const [newest] = (await ctx.redis.xrevrange(streamKey(ctx), '+', '-', 'COUNT', 1)) as RawEntry[];
  await ctx.redis.set(cursorKey(ctx), newest?.[0] ?? '0-0', 'NX');
  return (await ctx.redis.get(cursorKey(ctx)))!;
}

/**
 * Entries after `after`, oldest first, waiting up to `timeoutSeconds` for one. Uses its own
 * blocking connection, as XREAD BLOCK holds it.
 */
export async function nextAuditEntries(
  ctx: StoreContext,
  blocking: StoreContext['redis'],
  after: string,
  timeoutSeconds: number,
): Promise<AuditEntry[]> {
  const read = (await blocking.xread(
    'COUNT',
    50,
    'BLOCK',
    timeoutSeconds * 1000,
    'STREAMS',
    streamKey(ctx),
    after,
  )) as [string, RawEntry[]][] | null;
  return (read?.[0]?.[1] ?? []).map(toEntry);
}

/** Records that the follower handled every entry up to `id`. */
export async function markAuditFollowed(ctx: StoreContext, id: string): Promise<void> {
  await ctx.redis.set(cursorKey(ctx), id);
}
