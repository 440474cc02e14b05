import { RATE_LIMITS, type CredentialKind } from './constants.ts';
import type { StoreContext } from './context.ts';
import { hashCredential, isWellFormedCredential } from './credentials.ts';
import type { AuthenticatedKey } from './registrations.ts';

export type ReportAdmission =
  { kind: 'admitted'; key: AuthenticatedKey } | { kind: 'invalid' } | { kind: 'limited'; resetAt: number };

/**
 * The checks before a report's body (spec 8 and 5.2), in their order, as one round trip
 * (scripts/admit-report.lua): the per-IP limit, the credential (a game-server key only from its
 * registered IP), the per-key limit. The same counters as the separate limiters (rate-counter.ts).
 */
export async function admitReport(
  ctx: StoreContext,
  request: { credential: string | null; ipKey: string; clientIp: string; multiplier: number },
): Promise<ReportAdmission> {
  const { reportPerIp, reportPerKey } = RATE_LIMITS;
  const credential = request.credential ?? '';
  const [outcome, ...rest] = await ctx.redis.admitReport(
    ctx.prefix,
    request.ipKey,
    isWellFormedCredential(credential) ? hashCredential(credential) : '',
    request.clientIp,
    await ctx.clock.now(),
    reportPerIp.limit * request.multiplier,
    reportPerKey.limit * request.multiplier,
    reportPerIp.windowMs,
    reportPerKey.windowMs,
  );
  if (outcome === 'limited') return { kind: 'limited', resetAt: Number(rest[0]) };
  if (outcome === 'invalid') return { kind: 'invalid' };
  const [serverId, kind, ip] = rest as [string, CredentialKind, string];
  return { kind: 'admitted', key: { serverId, kind, ip: ip || null } };
}
