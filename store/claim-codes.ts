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

export async function issueClaimCode(
  ctx: StoreContext,
  { ip, port, issuedBy }: { ip?: string; port?: number; issuedBy?: string } = {},
): Promise<IssuedClaimCode> {
  for (;;) {
    const code = randomCode();
    const expiresAt = await ctx.redis.issueClaimCode(
      `${ctx.prefix}code:${code}`,
      ctx.clock.scriptArg,
      ip ?? '',
      port ?? '',
      issuedBy ?? '',
    );
    if (expiresAt !== 0) {
      return {
        code: formatClaimCode(code),
        expiresAt: new Date(expiresAt).toISOString(),
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
  const pipeline = ctx.redis.pipeline();
  for (const key of keys)
    pipeline.hmget(key, 'status', 'expiresAt', 'expectedIp', 'expectedPort', 'issuedBy');
  const rows = results(await pipeline.exec()) as (string | null)[][];
  return rows
    .flatMap(([status, expiresAt, ip, port, issuedBy], i) =>
      status === 'open' && Number(expiresAt) > now
        ? [
            {
              code: formatClaimCode(keys[i]!.slice(`${ctx.prefix}code:`.length)),
              expiresAt: new Date(Number(expiresAt)).toISOString(),
              expectedIp: ip || null,
              expectedPort: port ? Number(port) : null,
              issuedBy: issuedBy || null,
            },
          ]
        : [],
    )
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
}

/** True when the code was usable and is now cancelled. */
export async function cancelClaimCode(ctx: StoreContext, code: string): Promise<boolean> {
  const normalized = normalizeClaimCode(code);
  if (!normalized) return false;
  return (await ctx.redis.cancelClaimCode(`${ctx.prefix}code:${normalized}`)) === 1;
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
