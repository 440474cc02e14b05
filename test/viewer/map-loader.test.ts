import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiAnswer } from '../../viewer/src/api/http.ts';
import { BLOCK_RESYNC_MS, CLOCK_PATH, loadMap } from '../../viewer/src/load/map-loader.ts';
import { remainingMs } from '../../viewer/src/load/server-clock.ts';
import type { LoadState } from '../../viewer/src/load/map-loader.ts';
import { rawMap } from './fixture.ts';

// The loader runs under vitest's fake clock; a scripted fake API answers by path.

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'network';
type Script = (path: string, serverNow: number) => Reply;

const SEED = 224593721;
const MAPS = `/maps/${SEED}`;
const JOBS = `/jobs/${SEED}`;
const SERVER_AHEAD_MS = 5 * 3600_000; // the server runs a manual clock 5 h ahead of the browser
const VERSION: Reply = { status: 200, body: { latest: null, minimum: null, downloadUrl: null } };

function harness(script: Script, clock: (serverNow: number) => Reply = () => VERSION) {
  const calls: string[] = [];
  const states: LoadState[] = [];
  /** Server minus local clock; a test moves it to make the server clock jump. */
  const server = { ahead: SERVER_AHEAD_MS };
  const fetch = async (path: string): Promise<ApiAnswer> => {
    calls.push(path);
    const serverNow = Date.now() + server.ahead;
    // The clock path is never blocked: it has its own script, a plain 200 unless a test says else.
    const r = path === CLOCK_PATH ? clock(serverNow) : script(path, serverNow);
    if (r === 'network') throw new TypeError('Failed to fetch');
    const headers: Record<string, string> = { date: new Date(serverNow).toUTCString(), ...r.headers };
    return {
      status: r.status,
      body: r.body,
      header: (n) => headers[n.toLowerCase()] ?? null,
      localTime: Date.now(),
      perfTime: 0,
    };
  };
  const load = loadMap(
    SEED,
    {
      fetch,
      now: () => Date.now(),
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
    },
    (s) => states.push(s),
  );
  const kinds = () => states.map((s) => s.state);
  /** Requests that count as a refused view while the seed is blocked. */
  const views = () => calls.filter((c) => c === MAPS || c === JOBS);
  /** Countdown shown by the last state, as the status line computes it. */
  const shownLeft = () => {
    const last = states.at(-1);
    return last?.state === 'blocked' ? remainingMs(last.until, last.offset, Date.now()) : undefined;
  };
  return { calls, states, kinds, load, server, views, shownLeft };
}

const blocked = (until: number): Reply => ({
  status: 403,
  body: { error: 'blocked', blockedUntil: new Date(until).toISOString() },
});

const ok: Reply = { status: 200, body: rawMap };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse('2025-03-01T10:00:00.250Z'));
});
afterEach(() => vi.useRealTimers());

describe('map loader', () => {
  it('draws a 200 map at once', async () => {
    const h = harness(() => ok);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.kinds()).toEqual(['loading', 'ready']);
    const last = h.states.at(-1);
    expect(last?.state === 'ready' && last.map.rooms.length).toBe(104);
  });

  it('on 202 polls the job, shows the queue position, then loads the map when ready', async () => {
    const jobs = [
      { seed: 1, status: 'queued', ahead: 2 },
      { seed: 1, status: 'queued', ahead: 1 },
      { seed: 1, status: 'running' },
      { seed: 1, status: 'ready' },
    ];
    let ready = false;
    const h = harness((path) => {
      if (path.startsWith('/jobs/')) {
        const job = jobs.shift() ?? { status: 'ready' };
        if (job.status === 'ready') ready = true;
        return { status: 200, body: job };
      }
      return ready ? ok : { status: 202, body: { status: 'pending', job: 'queued' } };
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.states.at(-1)).toMatchObject({ state: 'generating', job: 'queued', ahead: 2 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.kinds().at(-1)).toBe('ready');
    expect(
      h.states.filter((s) => s.state === 'generating').map((s) => (s.state === 'generating' ? s.ahead : 0)),
    ).toEqual([undefined, 2, 1, undefined]);
    // Only the unlimited job endpoint is polled; maps is asked once before and once after.
    expect(h.calls.filter((c) => c.startsWith('/maps/'))).toHaveLength(2);
  });

  it('counts a block down in server time and reloads when it ends', async () => {
    let until = 0;
    const h = harness((path, serverNow) => {
      if (!until) until = serverNow + 30_000;
      if (serverNow < until) return blocked(until);
      return path === MAPS ? ok : { status: 200, body: { status: 'ready' } };
    });
    await vi.advanceTimersByTimeAsync(0);
    const first = h.states.at(-1);
    expect(first?.state).toBe('blocked');
    // The offset reflects the server clock (Date has whole seconds, so within 1 s).
    if (first?.state === 'blocked') expect(Math.abs(first.offset - SERVER_AHEAD_MS)).toBeLessThan(1000);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(h.kinds().at(-1)).toBe('blocked');
    await vi.advanceTimersByTimeAsync(7_000);
    expect(h.kinds().at(-1)).toBe('ready');
    // While waiting only the clock was read; the map was asked once before and once after.
    expect(h.calls[0]).toBe(MAPS);
    expect(h.calls.at(-1)).toBe(MAPS);
    expect(new Set(h.calls.slice(1, -1))).toEqual(new Set([CLOCK_PATH]));
  });

  it('never asks /maps or /jobs during a long countdown, so a waiting viewer adds no refused views', async () => {
    let until = 0;
    const h = harness((_path, serverNow) => {
      if (!until) until = serverNow + 3600_000;
      return serverNow < until ? blocked(until) : ok;
    });
    await vi.advanceTimersByTimeAsync(50 * 60_000);
    expect(h.kinds().at(-1)).toBe('blocked');
    // One refused view (the first answer), then only the uncounted clock path, every 10 s.
    expect(h.views()).toEqual([MAPS]);
    expect(h.calls.filter((c) => c === CLOCK_PATH)).toHaveLength((50 * 60_000) / BLOCK_RESYNC_MS);
    expect(h.shownLeft()).toBeGreaterThan(10 * 60_000 - 2000);
    // A steady server clock changes nothing on screen: one blocked state, not one per clock read.
    expect(h.kinds().filter((k) => k === 'blocked')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10 * 60_000 + 2000);
    expect(h.kinds().at(-1)).toBe('ready');
    expect(h.views()).toEqual([MAPS, MAPS]);
  });

  it('follows a jump of the server clock: the countdown moves, and the map loads once it passed the end', async () => {
    let until = 0;
    const h = harness((_path, serverNow) => {
      if (!until) until = serverNow + 3600_000;
      return serverNow < until ? blocked(until) : ok;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.shownLeft()).toBeGreaterThan(3600_000 - 1000);

    // The server clock jumps 40 minutes ahead: the next clock read shows 20 minutes left.
    h.server.ahead += 40 * 60_000;
    await vi.advanceTimersByTimeAsync(BLOCK_RESYNC_MS);
    expect(h.states.at(-1)).toMatchObject({ state: 'blocked', overdue: false });
    expect(Math.abs(h.shownLeft()! - (20 * 60_000 - BLOCK_RESYNC_MS))).toBeLessThan(1000);

    // Backwards by 5 minutes: the countdown grows again and the map is not asked early.
    h.server.ahead -= 5 * 60_000;
    await vi.advanceTimersByTimeAsync(BLOCK_RESYNC_MS);
    expect(Math.abs(h.shownLeft()! - (25 * 60_000 - 2 * BLOCK_RESYNC_MS))).toBeLessThan(1000);
    expect(h.views()).toEqual([MAPS]);

    // Past the end: the very next clock read leads to the map, without a refused view.
    h.server.ahead += 30 * 60_000;
    await vi.advanceTimersByTimeAsync(BLOCK_RESYNC_MS);
    expect(h.kinds().at(-1)).toBe('ready');
    expect(h.views()).toEqual([MAPS, MAPS]);
  });

  it('keeps the countdown when a clock read fails or has no Date, and still loads at the end', async () => {
    let until = 0;
    let reads = 0;
    const h = harness(
      (_path, serverNow) => {
        if (!until) until = serverNow + 60_000;
        return serverNow < until ? blocked(until) : ok;
      },
      () => (reads++ % 2 ? 'network' : { status: 503, body: {}, headers: { date: '' } }),
    );
    await vi.advanceTimersByTimeAsync(45_000);
    const last = h.states.at(-1);
    expect(last?.state === 'blocked' && Math.abs(last.offset - SERVER_AHEAD_MS)).toBeLessThan(1000);
    expect(h.views()).toEqual([MAPS]);
    await vi.advanceTimersByTimeAsync(17_000);
    expect(h.kinds().at(-1)).toBe('ready');
  });

  it('does not probe for an early end: a window closed by round_end shows at blockedUntil', async () => {
    let until = 0;
    let open = true;
    const h = harness((_path, serverNow) => {
      if (!until) until = serverNow + 60_000;
      return open && serverNow < until ? blocked(until) : ok;
    });
    await vi.advanceTimersByTimeAsync(0);
    open = false; // round_end: the server would answer now, but asking would count a refused view
    await vi.advanceTimersByTimeAsync(55_000);
    expect(h.kinds().at(-1)).toBe('blocked');
    expect(h.views()).toEqual([MAPS]);
    await vi.advanceTimersByTimeAsync(7_000);
    expect(h.kinds().at(-1)).toBe('ready');
  });

  it('keeps counting when the retry still answers 403 with a later blockedUntil', async () => {
    let untils: number[] = [];
    const h = harness((_path, serverNow) => {
      if (!untils.length) untils = [serverNow + 5_000, serverNow + 20_000];
      const until = serverNow < (untils[0] ?? 0) ? untils[0] : untils[1];
      if (until !== undefined && serverNow < until) return blocked(until);
      return ok;
    });
    await vi.advanceTimersByTimeAsync(6_000);
    const second = h.states.at(-1);
    expect(second?.state === 'blocked' && second.until).toBe(untils[1]);
    expect(second?.state === 'blocked' && second.overdue).toBe(false);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(h.kinds().at(-1)).toBe('ready');
  });

  it('retries with a short backoff while the server still refuses after the end', async () => {
    let until = 0;
    let refusalsAfterEnd = 0;
    const h = harness((_path, serverNow) => {
      if (!until) until = serverNow + 2_000;
      if (serverNow >= until && refusalsAfterEnd++ >= 2) return ok;
      return blocked(until);
    });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(h.states.at(-1)).toMatchObject({ state: 'blocked', overdue: true });
    const mapsAsked = h.calls.length;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.calls.length).toBe(mapsAsked); // not hammering
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.kinds().at(-1)).toBe('ready');
    // The end passed at 2 s; the retries came 2 s and 3 s apart (BLOCK_END_RETRY).
    expect(h.views()).toEqual([MAPS, MAPS, MAPS, MAPS]);
  });

  it('treats a 403 without blockedUntil as permanent and never asks again', async () => {
    const h = harness(() => ({ status: 403, body: { error: 'blocked' } }));
    await vi.advanceTimersByTimeAsync(600_000);
    expect(h.kinds()).toEqual(['loading', 'blocked-permanent']);
    expect(h.calls).toHaveLength(1);
  });

  it('waits Retry-After on 429', async () => {
    let n = 0;
    const h = harness(() =>
      n++ === 0 ? { status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '7' } } : ok,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(h.kinds().at(-1)).toBe('rate-limited');
    await vi.advanceTimersByTimeAsync(6_900);
    expect(h.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(h.kinds().at(-1)).toBe('ready');
  });

  it('retries 503 and network failures with growing intervals', async () => {
    const at: number[] = [];
    const t0 = Date.now();
    let n = 0;
    const h = harness(() => {
      at.push(Date.now() - t0);
      if (n++ < 3) return { status: 503, body: { status: 'busy', error: 'map unavailable' } };
      return ok;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.kinds().filter((k) => k === 'unavailable')).toHaveLength(3);
    expect(h.kinds().at(-1)).toBe('ready');
    expect(at).toEqual([0, 2000, 6000, 14000]);
  });

  it('tells a database outage (503 db unavailable) from a full queue (503 map unavailable)', async () => {
    const reasons = async (body: unknown) => {
      const h = harness(() => ({ status: 503, body }));
      await vi.advanceTimersByTimeAsync(0);
      h.load.cancel();
      const last = h.states.at(-1);
      return last?.state === 'unavailable' ? last.reason : last?.state;
    };
    expect(await reasons({ error: 'db unavailable' })).toBe('db');
    expect(await reasons({ status: 'busy', error: 'map unavailable' })).toBe('busy');
  });

  it('reports 400 as invalid', async () => {
    const h = harness(() => ({ status: 400, body: { error: 'invalid seed' } }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.states.at(-1)).toEqual({ state: 'invalid', message: 'invalid seed' });
  });

  it('stops all work when cancelled', async () => {
    const h = harness(() => ({ status: 503, body: {} }));
    await vi.advanceTimersByTimeAsync(0);
    h.load.cancel();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.calls).toHaveLength(1);
  });
});
