import {
  CREDENTIAL_KINDS,
  DETECTION_WINDOWS_MS,
  PROTECTION_RECENT_MAX,
  type CredentialKind,
} from './constants.ts';
import type { StoreContext } from './context.ts';
import { results } from './redis.ts';

// Public statistics (spec 2.7, 2.8). Only ended windows are ever listed: the seed of an open
// window appears nowhere.

export interface OverviewCounts {
  seedsTracked: number;
  seedsDumped: number;
  seedsDetected: number;
  requestsTotal: number;
  detections: { '24h': number; '7d': number };
}

export async function readOverview(ctx: StoreContext): Promise<OverviewCounts> {
  const now = await ctx.clock.now();
  const p = ctx.prefix;
  const [sightedOnly, dumped, detected, requests, day, week] = results(
    await ctx.redis
      .multi()
      .scard(`${p}seeds:known-undumped`)
      .hget(`${p}seeds:index`, 'seeds')
      .scard(`${p}seeds:detected`)
      .hget(`${p}stats`, 'requestsTotal')
      .zcount(`${p}det:all`, now - DETECTION_WINDOWS_MS['24h'], '+inf')
      .zcount(`${p}det:all`, now - DETECTION_WINDOWS_MS['7d'], '+inf')
      .exec(),
  );
  return {
    // Known seeds: every dumped one, and those only sighted by the detector so far.
    seedsTracked: Number(dumped ?? 0) + Number(sightedOnly),
    seedsDumped: Number(dumped ?? 0),
    seedsDetected: Number(detected),
    requestsTotal: Number(requests ?? 0),
    detections: { '24h': Number(day), '7d': Number(week) },
  };
}

export interface ProtectionStats {
  seeds: number;
  windows: number;
  viewAttemptsBlocked: number;
  recent: {
    seed: number;
    at: string;
    endedAt: string;
    viewAttempts: number;
    /** The kind of key that held the window (absent for windows ended before it was kept). */
    keyKind?: CredentialKind;
  }[];
}

/** One ended window as kept in windows:ended (see includes/settle-window.lua); times in ms. */
export interface EndedWindow {
  seed: number;
  at: number;
  endedAt: number;
  viewAttempts: number;
}

/** windows:ended as ZREVRANGE … WITHSCORES gives it (member, score, …): newest end first. */
export function parseEndedWindows(withScores: string[]): EndedWindow[] {
  const windows: EndedWindow[] = [];
  for (let i = 0; i < withScores.length; i += 2) {
    const [at, seed, viewAttempts] = withScores[i]!.split(':').map(Number) as [number, number, number];
    windows.push({ seed, at, endedAt: Number(withScores[i + 1]), viewAttempts });
  }
  return windows;
}

/** The kind of key that held an ended window, from its member (none for windows ended before it was kept). */
function endedWindowKind(member: string): { keyKind?: CredentialKind } {
  const kind = member.split(':')[3];
  return (CREDENTIAL_KINDS as readonly string[]).includes(kind ?? '')
    ? { keyKind: kind as CredentialKind }
    : {};
}

export async function readProtection(ctx: StoreContext): Promise<ProtectionStats> {
  const [counts, ended] = results(
    await ctx.redis
      .multi()
      .hmget(`${ctx.prefix}stats`, 'seeds', 'windows', 'viewAttemptsBlocked')
      .zrevrange(`${ctx.prefix}windows:ended`, 0, PROTECTION_RECENT_MAX - 1, 'WITHSCORES')
      .exec(),
  ) as [(string | null)[], string[]];
  return {
    seeds: Number(counts[0] ?? 0),
    windows: Number(counts[1] ?? 0),
    viewAttemptsBlocked: Number(counts[2] ?? 0),
    recent: parseEndedWindows(ended).map((w, i) => ({
      seed: w.seed,
      at: new Date(w.at).toISOString(),
      endedAt: new Date(w.endedAt).toISOString(),
      viewAttempts: w.viewAttempts,
      ...endedWindowKind(ended[2 * i]!),
    })),
  };
}

/** Adds requests counted in memory since the last flush (one round trip a second, not per call). */
export async function addRequests(ctx: StoreContext, count: number): Promise<void> {
  if (count > 0) await ctx.redis.hincrby(`${ctx.prefix}stats`, 'requestsTotal', count);
}
