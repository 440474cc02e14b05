import { randomBytes, randomUUID } from 'node:crypto';
import type { StoreContext } from './context.ts';
import { hashCredential, newCredential } from './credentials.ts';
import { results } from './redis.ts';
import type { IssuedCredential } from './registrations.ts';

// One-time claim codes (spec 4.4) and their manual reviews. A code is 10 Crockford base32
// characters (50 random bits), shown as XXXXX-XXXXX; typing is forgiving: any case, hyphens and
// spaces ignored, O read as 0, I and L as 1.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 10;
/** How long a client waits before resending a code under review (spec 4.4 `retryAfterSeconds`). */
export const REVIEW_RETRY_SECONDS = 60;

export function normalizeClaimCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === CODE_LENGTH && [...code].every((c) => CROCKFORD.includes(c)) ? code : null;
}

export function formatClaimCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

function randomCode(): string {
  return [...randomBytes(CODE_LENGTH)].map((b) => CROCKFORD[b & 31]).join('');
}

export interface IssuedClaimCode {
  code: string;
  expiresAt: string;
  expectedIp: string | null;
  expectedPort: number | null;
}

/** A chat member asked for a code past one of the limits; nothing was issued. */
export class ClaimCodeLimitError extends Error {
  override name = 'ClaimCodeLimitError';
  /** `live`: CLAIM_CODES_LIVE_PER_MEMBER at once; `day`: CLAIM_CODES_PER_MEMBER_PER_DAY in 24 h. */
  readonly limit: 'live' | 'day';
  readonly count: number;
  readonly max: number;
  /** When the next code can be issued; null when that waits on reviews, not on time. */
  readonly nextAt: string | null;

  constructor(limit: 'live' | 'day', count: number, max: number, nextAt: number) {
    super(
      `this member has ${count} ${limit === 'live' ? 'live claim codes' : 'claim codes today'} (at most ${max})`,
    );
    this.limit = limit;
    this.count = count;
    this.max = max;
    this.nextAt = nextAt > 0 ? new Date(nextAt).toISOString() : null;
  }
}

/**
 * Issues a code, for one address when given. `issuedBy` is the chat member asking (limited to
 * CLAIM_CODES_LIVE_PER_MEMBER live and CLAIM_CODES_PER_MEMBER_PER_DAY a day, else
 * ClaimCodeLimitError); the operator's codes have none. `actor` records it in the audit trail.
 */
export async function issueClaimCode(
  ctx: StoreContext,
  { ip, port, issuedBy, actor }: { ip?: string; port?: number; issuedBy?: string; actor?: string } = {},
): Promise<IssuedClaimCode> {
  for (;;) {
    const code = randomCode();
    const [outcome, a = 0, b = 0, c = 0] = await ctx.redis.issueClaimCode(
      ctx.prefix,
      code,
      ctx.clock.scriptArg,
      ip ?? '',
      port ?? '',
      issuedBy ?? '',
      actor ?? '',
    );
    if (outcome === 'live' || outcome === 'day') throw new ClaimCodeLimitError(outcome, a, b, c);
    if (outcome === 'issued') {
      return {
        code: formatClaimCode(code),
        expiresAt: new Date(a).toISOString(),
        expectedIp: ip ?? null,
        expectedPort: port ?? null,
      };
    }
  }
}

/** A code still open: issued, not used, cancelled, expired or under review. */
export interface LiveClaimCode extends IssuedClaimCode {
  issuedBy: string | null;
}

/** A code as a member's own list shows it: open, under review, or approved and not used yet. */
export interface MemberClaimCode extends IssuedClaimCode {
  status: 'open' | 'review' | 'approved';
}

type StoredCode = LiveClaimCode & { status: string | null };

/** The stored state of codes (normalized), in the order given; status null for one that is gone. */
async function readCodes(ctx: StoreContext, codes: string[]): Promise<StoredCode[]> {
  const pipeline = ctx.redis.pipeline();
  for (const code of codes)
    pipeline.hmget(
      `${ctx.prefix}code:${code}`,
      'status',
      'expiresAt',
      'expectedIp',
      'expectedPort',
      'issuedBy',
    );
  const rows = results(await pipeline.exec()) as (string | null)[][];
  return rows.map(([status, expiresAt, ip, port, issuedBy], i) => ({
    status: status ?? null,
    code: formatClaimCode(codes[i]!),
    expiresAt: new Date(Number(expiresAt)).toISOString(),
    expectedIp: ip || null,
    expectedPort: port ? Number(port) : null,
    issuedBy: issuedBy || null,
  }));
}

const isOpen = (c: Pick<StoredCode, 'status' | 'expiresAt'>, now: number) =>
  c.status === 'open' && Date.parse(c.expiresAt) > now;

/**
 * Live codes, soonest expiry first. Codes under review are left out: who holds one can register
 * once it is approved, so it is the review's secret. Codes are found by SCAN (each lives a day
 * past expiry at most, so there are few), never KEYS.
 */
export async function listClaimCodes(ctx: StoreContext): Promise<LiveClaimCode[]> {
  const now = await ctx.clock.now();
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await ctx.redis.scan(cursor, 'MATCH', `${ctx.prefix}code:*`, 'COUNT', 1000);
    keys.push(...found);
    cursor = next;
  } while (cursor !== '0');
  const codes = await readCodes(
    ctx,
    keys.map((key) => key.slice(`${ctx.prefix}code:`.length)),
  );
  return codes
    .filter((c) => isOpen(c, now))
    .map(({ status: _, ...code }) => code)
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
}

/** The live codes a chat member was issued (the index issue-claim-code.lua keeps), oldest first. */
export async function listMemberCodes(ctx: StoreContext, issuedBy: string): Promise<MemberClaimCode[]> {
  const now = await ctx.clock.now();
  const listed = await ctx.redis.zrange(`${ctx.prefix}codes:by:${issuedBy}`, '0', '-1');
  return (await readCodes(ctx, listed)).flatMap(({ code, expiresAt, expectedIp, expectedPort, status }) =>
    isOpen({ status, expiresAt }, now) || status === 'review' || status === 'approved'
      ? [{ code, expiresAt, expectedIp, expectedPort, status: status as MemberClaimCode['status'] }]
      : [],
  );
}

/**
 * True when the code was usable and is now cancelled (a review pending for it closes). With
 * `issuedBy` (a member's own cancel) only a code of theirs; `actor` records it in the audit trail.
 */
export async function cancelClaimCode(
  ctx: StoreContext,
  code: string,
  { actor, issuedBy }: { actor?: string; issuedBy?: string } = {},
): Promise<boolean> {
  const normalized = normalizeClaimCode(code);
  if (!normalized) return false;
  const cancelled = await ctx.redis.cancelClaimCode(
    ctx.prefix,
    normalized,
    ctx.clock.scriptArg,
    actor ?? '',
    issuedBy ?? '',
  );
  return cancelled === 1;
}

export type CodeClaimResult =
  | ({ status: 'verified' } & IssuedCredential)
  | { status: 'review'; reason: 'ip_mismatch' | 'port_mismatch'; retryAfterSeconds: number }
  | { status: 'invalid code' }
  | { status: 'claim rejected' };

export async function claimWithCode(
  ctx: StoreContext,
  claim: {
    code: string;
    ip: string;
    port: number;
    pluginVersion?: string;
    gameVersion?: string;
    labApiVersion?: string;
  },
): Promise<CodeClaimResult> {
  const code = normalizeClaimCode(claim.code);
  if (!code) return { status: 'invalid code' };
  const serverId = randomUUID();
  const credential = newCredential();
  // detail: the issue time (verified) or why a review (review).
  const [outcome, detail] = await ctx.redis.claimWithCode(
    ctx.prefix,
    code,
    claim.ip,
    claim.port,
    ctx.clock.scriptArg,
    serverId,
    hashCredential(credential),
    randomUUID(),
    claim.pluginVersion ?? '',
    claim.gameVersion ?? '',
    claim.labApiVersion ?? '',
  );
  switch (outcome) {
    case 'verified':
      return { status: 'verified', serverId, credential, issuedAt: new Date(Number(detail)).toISOString() };
    case 'review':
      return {
        status: 'review',
        reason: detail as 'ip_mismatch' | 'port_mismatch',
        retryAfterSeconds: REVIEW_RETRY_SECONDS,
      };
    default:
      return { status: outcome as 'invalid code' | 'claim rejected' };
  }
}
