import {
  NO_WINDOW_REASONS,
  type CredentialKind,
  type NoWindowReason,
  type ReportEvent,
} from './constants.ts';
import type { StoreContext } from './context.ts';
import { results } from './redis.ts';
import { getRegistration, type Registration } from './registrations.ts';

// Spec part 3.1. The decisions themselves are Lua scripts (scripts/report-seed.lua,
// scripts/check-seed-block.lua, scripts/settle-expired-windows.lua), each one atomic step, so any
// number of API processes sharing one Redis decide the same way.

export type ReportOutcome = 'opened' | 'kept' | 'exhausted' | 'revoked' | NoWindowReason;

export interface ReportDecision {
  outcome: ReportOutcome;
  /** Window end in ms, or null when no window of this seed is open. */
  blockedUntil: number | null;
  exhausted: boolean;
  /** Set exactly when blockedUntil is null without exhausted. */
  reason: NoWindowReason | null;
}

const isNoWindowReason = (outcome: string): outcome is NoWindowReason =>
  (NO_WINDOW_REASONS as readonly string[]).includes(outcome);

export async function reportSeed(
  ctx: StoreContext,
  report: { serverId: string; kind: CredentialKind; seed: number; event: ReportEvent },
): Promise<ReportDecision> {
  const [outcome, until, exhausted] = await ctx.redis.reportSeed(
    ctx.prefix,
    report.serverId,
    report.kind,
    report.seed,
    report.event,
    ctx.clock.scriptArg,
  );
  const decision = reportDecision(outcome, until, exhausted);
  if (decision.blockedUntil !== null) await ctx.confirmReplicated();
  return decision;
}

/** The decision of the block engine's Lua step (includes/decide-report.lua), as its result says it. */
export function reportDecision(outcome: string, until: string, exhausted: number): ReportDecision {
  return {
    outcome: outcome as ReportOutcome,
    blockedUntil: until === '' ? null : Number(until),
    exhausted: exhausted === 1,
    // A round_end says whether it closed a window (`closed`) or why not (`not_open`, `other_key`).
    reason: isNoWindowReason(outcome) ? outcome : null,
  };
}

export type SeedBlock = { kind: 'visible' } | { kind: 'permanent' } | { kind: 'window'; until: number };

/**
 * Whether a seed may be shown now; settles its window first if it ran out. With `countView`, a
 * refused view counts toward `viewAttemptsBlocked` and the window's `viewAttempts`.
 */
export async function checkSeedBlock(
  ctx: StoreContext,
  seed: number,
  { countView }: { countView: boolean },
): Promise<SeedBlock> {
  const result = await ctx.redis.checkSeedBlock(ctx.prefix, seed, ctx.clock.scriptArg);
  if (result === '') return { kind: 'visible' };
  if (result === 'permanent') return { kind: 'permanent' };
  const until = Number(result);
  if (countView) await countRefusedView(ctx, seed, until);
  return { kind: 'window', until };
}

/**
 * Counts a view refused by the window ending at `until` (count-refused-view.lua), apart from the
 * refusal, which writes nothing: a master that takes no writes (NOREPLICAS while it has no good
 * replica, OOM) loses the count, never the 403, and nothing is logged.
 */
export async function countRefusedView(ctx: StoreContext, seed: number, until: number): Promise<void> {
  await ctx.redis.countRefusedView(ctx.prefix, seed, until).catch(() => {});
}

/**
 * Whether a seed may be hidden now, in one HEXISTS of seeds:hidden (kept in step with every window
 * and the blocklist): false means it is visible; true means checkSeedBlock has the answer (the
 * window may have run out). Trust it only once buildHiddenSeeds has run in this process.
 */
export function mayBeHidden(ctx: StoreContext, seed: number): Promise<boolean> {
  // On every read of a held map: one promise, no async frame of its own.
  return ctx.redis.hexists(`${ctx.prefix}seeds:hidden`, String(seed)).then((n) => n === 1);
}

/** Builds seeds:hidden afresh from the windows and the blocklist; returns how many are hidden. */
export async function buildHiddenSeeds(ctx: StoreContext): Promise<number> {
  return ctx.redis.buildHiddenSeeds(ctx.prefix);
}

/** The sweeper's step: settles up to `limit` windows that have run out. Returns how many. */
export async function settleExpiredWindows(ctx: StoreContext, limit = 500): Promise<number> {
  return ctx.redis.settleExpiredWindows(ctx.prefix, ctx.clock.scriptArg, limit);
}

/** Seeds whose window is open now, as the read paths must hide them. */
export async function openWindowSeeds(ctx: StoreContext): Promise<Set<number>> {
  const now = await ctx.clock.now();
  const seeds = await ctx.redis.zrangebyscore(`${ctx.prefix}windows:open`, `(${now}`, '+inf');
  return new Set(seeds.map(Number));
}

/** An open block window, as the operator sees it: which server holds which seed, until when. */
export interface OpenWindow {
  seed: number;
  serverId: string;
  /** The holding registration (null if its record is gone), to tell the operator whose it is. */
  server: Pick<Registration, 'kind' | 'owner' | 'clientName' | 'ip' | 'port'> | null;
  openedAt: string;
  until: string;
}

/** The open windows, soonest end first (windows:open holds one entry per hidden seed). */
export async function listOpenWindows(ctx: StoreContext): Promise<OpenWindow[]> {
  const now = await ctx.clock.now();
  const seeds = await ctx.redis.zrangebyscore(`${ctx.prefix}windows:open`, `(${now}`, '+inf');
  const pipeline = ctx.redis.pipeline();
  for (const seed of seeds) pipeline.hmget(`${ctx.prefix}window:${seed}`, 'serverId', 'openedAt', 'endsAt');
  const rows = results(await pipeline.exec()) as (string | null)[][];
  const windows = rows.flatMap(([serverId, openedAt, endsAt], i) =>
    serverId && endsAt ? [{ seed: Number(seeds[i]), serverId, openedAt, endsAt }] : [],
  );
  const servers = await Promise.all(windows.map((w) => getRegistration(ctx, w.serverId)));
  return windows.map(({ seed, serverId, openedAt, endsAt }, i) => {
    const server = servers[i];
    return {
      seed,
      serverId,
      server: server
        ? {
            kind: server.kind,
            owner: server.owner,
            clientName: server.clientName,
            ip: server.ip,
            port: server.port,
          }
        : null,
      openedAt: new Date(Number(openedAt)).toISOString(),
      until: new Date(Number(endsAt)).toISOString(),
    };
  });
}
