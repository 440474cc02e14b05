import type { CredentialKind, ReportEvent } from './constants.ts';
import type { StoreContext } from './context.ts';
import { reportDecision, type ReportDecision } from './block-engine.ts';
import { credentialLookupHash } from './credentials.ts';
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

/** ARGV[2..6] of the admission (includes/admit-report.lua); the limits themselves are in the script. */
function admissionArgs(sender: ReportSender, clock: string) {
  return [
    sender.ipKey,
    credentialLookupHash(sender.credential ?? ''),
    sender.clientIp,
    clock,
    sender.multiplier,
  ] as const;
}

/** A script's refusal ({ 'limited', window end } | { 'invalid' }) as the store says it. */
function refusal(answer: (string | number)[]): ReportRefusal {
  return answer[0] === 'limited' ? { kind: 'limited', resetAt: Number(answer[1]) } : { kind: 'invalid' };
}

/**
 * The checks before a report's body, in their order, as one round trip
 * (scripts/admit-report.lua): the per-IP limit, the credential (a game-server key only from its
 * registered IP), the per-key limit. For a report whose body is no report: it counts all the same.
 */
export async function admitReport(ctx: StoreContext, sender: ReportSender): Promise<ReportAdmission> {
  const answer = await ctx.redis.admitReport(ctx.prefix, ...admissionArgs(sender, ctx.clock.scriptArg));
  if (answer[0] !== 'admitted') return refusal(answer);
  const [, serverId, kind, ip] = answer as [string, string, CredentialKind, string];
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
  const answer = await ctx.redis.admitAndDecideReport(
    ctx.prefix,
    ...admissionArgs(sender, ctx.clock.scriptArg),
    report.seed,
    report.event,
    report.pluginVersion ?? '',
  );
  if (answer[0] === 'decided') {
    const [, outcome, until, exhausted] = answer as [string, string, string, number];
    const decision = reportDecision(outcome, until, exhausted);
    // A client told blockedUntil relies on it: only once replicas hold the window (a retry too).
    if (decision.blockedUntil !== null) await ctx.confirmReplicated();
    return { kind: 'decided', decision };
  }
  if (answer[0] === 'outdated')
    return { kind: 'outdated', minimum: String(answer[1]), downloadUrl: String(answer[2]) };
  return refusal(answer);
}
