import { DETECTION_WINDOWS_MS, PROTECTION_RECENT_MAX } from './constants.ts';
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
  const [tracked, dumped, detected, requests, day, week] = results(
    await ctx.redis
      .multi()
      .scard(`${p}seeds:known`)
      .zcard(`${p}seeds:by-dump`)
      .scard(`${p}seeds:detected`)
      .hget(`${p}stats`, 'requestsTotal')
      .zcount(`${p}det:all`, now - DETECTION_WINDOWS_MS['24h'], '+inf')
      .zcount(`${p}det:all`, now - DETECTION_WINDOWS_MS['7d'], '+inf')
      .exec(),
  );
  return {
    seedsTracked: Number(tracked),
    seedsDumped: Number(dumped),
    seedsDetected: Number(detected),
    requestsTotal: Number(requests ?? 0),
    detections: { '24h': Number(day), '7d': Number(week) },
  };
}

export interface ProtectionStats {
  seeds: number;
  windows: number;
  viewAttemptsBlocked: number;
  recent: { seed: number; at: string; endedAt: string; viewAttempts: number }[];
}

export async function readProtection(ctx: StoreContext): Promise<ProtectionStats> {
  const [counts, recent] = results(
    await ctx.redis
      .multi()
      .hmget(`${ctx.prefix}stats`, 'seeds', 'windows', 'viewAttemptsBlocked')
      .lrange(`${ctx.prefix}windows:recent`, 0, PROTECTION_RECENT_MAX - 1)
      .exec(),
  ) as [(string | null)[], string[]];
  return {
    seeds: Number(counts[0] ?? 0),
    windows: Number(counts[1] ?? 0),
    viewAttemptsBlocked: Number(counts[2] ?? 0),
    recent: recent.map((line) => {
      const w = JSON.parse(line) as { seed: number; at: number; endedAt: number; viewAttempts: number };
      return {
        seed: w.seed,
        at: new Date(w.at).toISOString(),
        endedAt: new Date(w.endedAt).toISOString(),
        viewAttempts: w.viewAttempts,
      };
    }),
  };
}

/** Adds requests counted in memory since the last flush (one round trip a second, not per call). */
export async function addRequests(ctx: StoreContext, count: number): Promise<void> {
  if (count > 0) await ctx.redis.hincrby(`${ctx.prefix}stats`, 'requestsTotal', count);
}
