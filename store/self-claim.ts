import { randomUUID } from 'node:crypto';
import { SELF_CLAIM_LIVE_MAX } from './constants.ts';
import type { StoreContext } from './context.ts';
import { hashCredential, newCredential } from './credentials.ts';
import type { IssuedCredential } from './registrations.ts';

// Self-claim (spec 4.1): the rules are scripts/includes/self-claim-rules.lua, checked before the
// probe (check-self-claim.lua) and again, atomically with the issue, after it (issue-self-claim.lua).

export type SelfClaimRefusal =
  | { refusal: 'interval'; retryAfterMs: number }
  | { refusal: 'address in use' }
  | { refusal: 'too many credentials'; live: number; max: number; retryAfterMs: number | null };

export interface SelfClaimRequest {
  ip: string;
  /**
   * The key of every per-IP limit (the IPv4 address, the IPv6 /56): the interval and the live
   * count are per it. Defaults to `ip`, which is right for IPv4 only.
   */
  ipKey?: string;
  port: number;
  /** The bearer credential presented to replace the live registration at this address. */
  presentedCredential?: string | null;
}

export interface SelfClaimDetails {
  clientName?: string;
  gameVersion?: string;
  userAgent?: string;
}

function ruleArgs(ctx: StoreContext, req: SelfClaimRequest) {
  return [
    ctx.prefix,
    req.ip,
    req.ipKey ?? req.ip,
    req.port,
    req.presentedCredential ? hashCredential(req.presentedCredential) : '',
    ctx.clock.scriptArg,
  ];
}

function toRefusal([verdict, value, lapseMs]: [string, number | string, number?]): SelfClaimRefusal | null {
  if (verdict === 'interval') return { refusal: 'interval', retryAfterMs: Number(value) };
  if (verdict === 'address in use') return { refusal: 'address in use' };
  if (verdict === 'too many')
    return {
      refusal: 'too many credentials',
      live: Number(value),
      max: SELF_CLAIM_LIVE_MAX,
      retryAfterMs: lapseMs ? Number(lapseMs) : null,
    };
  return null;
}

/** The refusal a self-claim would meet now, or null when it may go on to the probe. */
export async function checkSelfClaim(
  ctx: StoreContext,
  req: SelfClaimRequest,
): Promise<SelfClaimRefusal | null> {
  return toRefusal(await ctx.redis.checkSelfClaim(...ruleArgs(ctx, req)));
}

/** Issues the credential (the probe has confirmed the server), or says why not after all. */
export async function issueSelfClaim(
  ctx: StoreContext,
  req: SelfClaimRequest,
  details: SelfClaimDetails,
): Promise<IssuedCredential | SelfClaimRefusal> {
  const serverId = randomUUID();
  const credential = newCredential();
  const result = await ctx.redis.issueSelfClaim(
    ...ruleArgs(ctx, req),
    serverId,
    hashCredential(credential),
    details.clientName ?? '',
    details.gameVersion ?? '',
    (details.userAgent ?? '').slice(0, 256),
  );
  return toRefusal(result) ?? { serverId, credential, issuedAt: new Date(Number(result[1])).toISOString() };
}
