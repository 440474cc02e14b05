import { BLOCK_CAP_MS, CREDENTIAL_KINDS, RATE_LIMITS, type CredentialKind } from './constants.ts';
import type { StoreContext } from './context.ts';
import { DECISION_RULES, reportDecision, type ReportDecision, type ReportEvent } from './block-engine.ts';
import { hashCredential, isWellFormedCredential } from './credentials.ts';
import type { AuthenticatedKey } from './registrations.ts';

/** A report stopped before its body counted: past a limit, or its key. */
export type ReportRefusal = { kind: 'invalid' } | { kind: 'limited'; resetAt: number };
export type ReportAdmission = { kind: 'admitted'; key: AuthenticatedKey } | ReportRefusal;

/** Who sends a report: the checks before its body (spec 8 and 5.2) are about these. */
export interface ReportSender {
  credential: string | null;
  /** The per-IP limit key (IPv4 address, IPv6 /56). */
  ipKey: string;
  clientIp: string;
  /** RATE_LIMIT_MULTIPLIER. */
  multiplier: number;
}

/** ARGV[2..9] of the admission (includes/admit-report.lua). */
async function admissionArgs(ctx: StoreContext, sender: ReportSender) {
  const { reportPerIp, reportPerKey } = RATE_LIMITS;
  const credential = sender.credential ?? '';
  return [
    sender.ipKey,
    isWellFormedCredential(credential) ? hashCredential(credential) : '',
    sender.clientIp,
    await ctx.clock.now(),
    reportPerIp.limit * sender.multiplier,
    reportPerKey.limit * sender.multiplier,
    reportPerIp.windowMs,
    reportPerKey.windowMs,
  ] as const;
}

function refusal(outcome: string, rest: string[]): ReportRefusal {
  return outcome === 'limited' ? { kind: 'limited', resetAt: Number(rest[0]) } : { kind: 'invalid' };
}

/**
 * The checks before a report's body, in their order, as one round trip
 * (scripts/admit-report.lua): the per-IP limit, the credential (a game-server key only from its
 * registered IP), the per-key limit. For a report whose body is no report: it counts all the same.
 */
export async function admitReport(ctx: StoreContext, sender: ReportSender): Promise<ReportAdmission> {
  const [outcome, ...rest] = await ctx.redis.admitReport(ctx.prefix, ...(await admissionArgs(ctx, sender)));
  if (outcome !== 'admitted') return refusal(outcome!, rest);
  const [serverId, kind, ip] = rest as [string, CredentialKind, string];
  return { kind: 'admitted', key: { serverId, kind, ip: ip || null } };
}

export type ReportResult =
  | ReportRefusal
  | { kind: 'outdated'; minimum: string; downloadUrl: string }
  | { kind: 'decided'; decision: ReportDecision };

/**
 * A whole report as one round trip (scripts/admit-and-decide-report.lua): the checks of
 * admitReport, the plugin minimum when `pluginVersion` is given, then the block engine's decision.
 */
export async function admitAndDecideReport(
  ctx: StoreContext,
  sender: ReportSender,
  report: { seed: number; event: ReportEvent; pluginVersion?: string },
): Promise<ReportResult> {
  const [outcome, ...rest] = await ctx.redis.admitAndDecideReport(
    ctx.prefix,
    ...(await admissionArgs(ctx, sender)),
    report.seed,
    report.event,
    report.pluginVersion ?? '',
    ...CREDENTIAL_KINDS.map((kind) => BLOCK_CAP_MS[kind]),
    ...DECISION_RULES,
  );
  if (outcome === 'decided') {
    const [result, until, exhausted] = rest as [string, string, number];
    return { kind: 'decided', decision: reportDecision(result, until, exhausted) };
  }
  if (outcome === 'outdated')
    return { kind: 'outdated', minimum: String(rest[0]), downloadUrl: String(rest[1]) };
  return refusal(outcome as string, rest as string[]);
}
