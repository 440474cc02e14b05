import type { StoreRedis } from '../../store/redis.ts';
import { parseEndedWindows, type EndedWindow } from '../../store/stats.ts';

// Reads the block engine's state straight from Redis (the key layout of store/scripts/), for
// suites that check it against a model or against invariants.

export interface RedisWindow {
  seed: number;
  serverId: string;
  openedAt: number;
  endsAt: number;
  viewAttempts: number;
}

export interface RedisSeed {
  usedMs: number | null;
  cooldownUntil: number | null;
}

export interface BlockState {
  now: number | null;
  /** windows:open, seed → score (the window's end). */
  open: Map<number, number>;
  /** window:<seed> hashes that exist. */
  windows: Map<number, RedisWindow>;
  seeds: Map<number, RedisSeed>;
  /** server:<id> → windowSeed and lastWindowOpenedAt. */
  servers: Map<string, { windowSeed: number | null; lastWindowOpenedAt: number | null }>;
  /** windows:ended, newest end first. */
  recent: EndedWindow[];
}

const num = (v: string | undefined) => (v === undefined ? null : Number(v));

/** One atomic snapshot (MULTI/EXEC), so a sweeper settling meanwhile cannot tear it. */
export async function readBlockState(
  redis: StoreRedis,
  prefix: string,
  seeds: readonly number[],
  serverIds: readonly string[],
): Promise<BlockState> {
  const multi = redis.multi();
  multi.get(`${prefix}clock`);
  multi.zrange(`${prefix}windows:open`, '0', '-1', 'WITHSCORES');
  multi.zrevrange(`${prefix}windows:ended`, 0, -1, 'WITHSCORES');
  for (const seed of seeds) {
    multi.hgetall(`${prefix}window:${seed}`);
    multi.hgetall(`${prefix}seed:${seed}`);
  }
  for (const id of serverIds) multi.hgetall(`${prefix}server:${id}`);
  const rows = (await multi.exec()) ?? [];
  const values = rows.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
  let i = 0;
  const clock = values[i++] as string | null;
  const zrange = values[i++] as string[];
  const recentRaw = values[i++] as string[];
  const open = new Map<number, number>();
  for (let j = 0; j < zrange.length; j += 2) open.set(Number(zrange[j]), Number(zrange[j + 1]));
  const windows = new Map<number, RedisWindow>();
  const seedMap = new Map<number, RedisSeed>();
  for (const seed of seeds) {
    const w = values[i++] as Record<string, string>;
    const s = values[i++] as Record<string, string>;
    if (w.serverId) {
      windows.set(seed, {
        seed: Number(w.seed),
        serverId: w.serverId,
        openedAt: Number(w.openedAt),
        endsAt: Number(w.endsAt),
        viewAttempts: Number(w.viewAttempts ?? 0),
      });
    }
    seedMap.set(seed, { usedMs: num(s.usedMs), cooldownUntil: num(s.cooldownUntil) });
  }
  const servers = new Map<string, { windowSeed: number | null; lastWindowOpenedAt: number | null }>();
  for (const id of serverIds) {
    const h = values[i++] as Record<string, string>;
    servers.set(id, { windowSeed: num(h.windowSeed), lastWindowOpenedAt: num(h.lastWindowOpenedAt) });
  }
  const recent = parseEndedWindows(recentRaw);
  return { now: num(clock ?? undefined), open, windows, seeds: seedMap, servers, recent };
}
