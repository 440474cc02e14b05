import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';
import { bearer, send } from '../../support/http.ts';
import { newKey, type TestKey } from '../../support/keys.ts';

// Every row of the spec 3.1 transition table and every worked row, over HTTP, for a
// game-server key (self-claimed, cap 60) and an HTTP key (cap 20), with the manual clock.

const KINDS = [
  { kind: 'self', cap: 60 },
  { kind: 'http', cap: 20 },
] as const;

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1' });
});
afterEach(async () => {
  await api.close();
});

type Report = { ok: boolean; blockedUntil: string | null; exhausted?: boolean; reason?: string };

async function report(key: TestKey, event: string, seed: number, path = '/plugin/v1/report') {
  const res = await send<Report>(`${api.base}${path}`, {
    headers: bearer(key.credential),
    json: { event, seed, port: 7777 },
  });
  expect(res.status).toBe(200);
  return res.body;
}

const at = (iso: string) => new Date(iso).toISOString();

describe.each(KINDS)('block windows with a $kind key (cap $cap min)', ({ kind, cap }) => {
  let key: TestKey;
  let t0: number;
  beforeEach(async () => {
    key = await newKey(api, kind);
    t0 = await setClock(api, '2026-03-01T08:00:00.000Z');
  });

  it('round_start opens a window of the cap; a repeat keeps it unchanged, never extended', async () => {
    const opened = await report(key, 'round_start', 111);
    expect(opened).toEqual({ ok: true, blockedUntil: new Date(t0 + cap * MINUTE).toISOString() });
    await advanceClock(api, 10 * MINUTE);
    expect(await report(key, 'round_start', 111)).toEqual(opened);
    expect(await report(key, 'periodic', 111)).toEqual(opened);
  });

  it('periodic opens a window like round_start', async () => {
    expect((await report(key, 'periodic', 112)).blockedUntil).toBe(new Date(t0 + cap * MINUTE).toISOString());
  });

  it('round_end without a window never opens one, and says none was open', async () => {
    const none = { ok: true, blockedUntil: null, reason: 'not_open' };
    expect(await report(key, 'round_end', 113)).toEqual(none);
    expect(await report(key, 'round_end', 113)).toEqual(none);
    // Closing twice: only the first closed anything.
    await report(key, 'round_start', 113);
    expect(await report(key, 'round_end', 113)).toEqual({ ...none, reason: 'closed' });
    expect(await report(key, 'round_end', 113)).toEqual(none);
  });

  it('round_end after the window ran out at its cap closed nothing: not_open', async () => {
    await report(key, 'round_start', 127);
    await advanceClock(api, cap * MINUTE);
    expect(await report(key, 'round_end', 127)).toEqual({ ok: true, blockedUntil: null, reason: 'not_open' });
  });

  it('round_end closes at once; the seed cools down 5 minutes, then opens for the rest of its budget', async () => {
    await report(key, 'round_start', 114);
    await advanceClock(api, 3 * MINUTE);
    expect(await report(key, 'round_end', 114)).toEqual({ ok: true, blockedUntil: null, reason: 'closed' });
    // In cooldown (also past the key's own 5-minute gap, so only the cooldown refuses).
    await advanceClock(api, 4 * MINUTE);
    expect(await report(key, 'round_start', 114)).toEqual({
      ok: true,
      blockedUntil: null,
      reason: 'cooldown',
    });
    const now = await advanceClock(api, 1 * MINUTE);
    expect(await report(key, 'round_start', 114)).toEqual({
      ok: true,
      blockedUntil: new Date(now + (cap - 3) * MINUTE).toISOString(),
    });
  });

  it('a key with an open window cannot open another seed', async () => {
    await report(key, 'round_start', 115);
    await advanceClock(api, 6 * MINUTE);
    expect(await report(key, 'round_start', 116)).toEqual({ ok: true, blockedUntil: null, reason: 'busy' });
    expect(await report(key, 'periodic', 116)).toEqual({ ok: true, blockedUntil: null, reason: 'busy' });
  });

  it('the per-key gap: a 3-minute round waits 2 more minutes; a 20-minute round none', async () => {
    await report(key, 'round_start', 117);
    await advanceClock(api, 3 * MINUTE);
    await report(key, 'round_end', 117);
    // Inside the 5-minute gap the answer says so: a client can tell it from a silent failure.
    expect(await report(key, 'round_start', 118)).toEqual({ ok: true, blockedUntil: null, reason: 'gap' });
    await advanceClock(api, 2 * MINUTE - 1);
    expect(await report(key, 'periodic', 118)).toEqual({ ok: true, blockedUntil: null, reason: 'gap' });
    await advanceClock(api, 1);
    const opened = await report(key, 'round_start', 118);
    expect(opened.blockedUntil).not.toBeNull();
    expect(opened).not.toHaveProperty('reason');

    // A round as long as the cap allows: its round_end leaves no wait for the next seed.
    const long = Math.min(20, cap) * MINUTE;
    await advanceClock(api, long);
    await report(key, 'round_end', 118);
    expect((await report(key, 'round_start', 119)).blockedUntil).not.toBeNull();
  });

  it('a window closes by itself at its length; then the budget is spent: exhausted', async () => {
    await report(key, 'round_start', 120);
    await advanceClock(api, cap * MINUTE);
    // A spent budget says exhausted, never a reason.
    expect(await report(key, 'round_start', 120)).toEqual({ ok: true, blockedUntil: null, exhausted: true });
    await advanceClock(api, 24 * 60 * MINUTE);
    expect(await report(key, 'round_start', 120)).toEqual({ ok: true, blockedUntil: null, exhausted: true });
  });

  it('worked row: round_start 08:00, round_end 08:23, and the same seed next day', async () => {
    expect((await report(key, 'round_start', 121)).blockedUntil).toBe(
      at(cap === 60 ? '2026-03-01T09:00:00Z' : '2026-03-01T08:20:00Z'),
    );
    await setClock(api, '2026-03-01T08:23:00.000Z');
    await report(key, 'round_end', 121);
    await setClock(api, '2026-03-02T08:00:00.000Z');
    const nextDay = await report(key, 'round_start', 121);
    if (cap === 60) {
      expect(nextDay).toEqual({ ok: true, blockedUntil: at('2026-03-02T08:37:00Z') });
    } else {
      // The HTTP key's window closed at its cap, 08:20: its budget is spent.
      expect(nextDay).toEqual({ ok: true, blockedUntil: null, exhausted: true });
    }
  });

  it('worked row: no round_end blocks until the cap; meanwhile the key cannot block another seed', async () => {
    expect((await report(key, 'round_start', 122)).blockedUntil).toBe(
      at(cap === 60 ? '2026-03-01T09:00:00Z' : '2026-03-01T08:20:00Z'),
    );
    await advanceClock(api, cap * MINUTE - 1);
    expect(await report(key, 'round_start', 123)).toEqual({ ok: true, blockedUntil: null, reason: 'busy' });
    await advanceClock(api, 1);
    expect((await report(key, 'round_start', 122)).exhausted).toBe(true);
    expect((await report(key, 'round_start', 123)).blockedUntil).not.toBeNull();
  });

  it('worked row: a restart gives a new seed; after round_end it opens 5 minutes after the old one opened', async () => {
    await report(key, 'round_start', 124);
    await advanceClock(api, 2 * MINUTE);
    // Without round_end, the new seed stays visible while the old window is open.
    expect(await report(key, 'round_start', 125)).toEqual({ ok: true, blockedUntil: null, reason: 'busy' });
    await report(key, 'round_end', 124);
    await advanceClock(api, 3 * MINUTE - 1);
    expect(await report(key, 'round_start', 125)).toEqual({ ok: true, blockedUntil: null, reason: 'gap' });
    const now = await advanceClock(api, 1);
    expect((await report(key, 'round_start', 125)).blockedUntil).toBe(
      new Date(now + cap * MINUTE).toISOString(),
    );
  });

  it('the server report path runs the same engine', async () => {
    const body = await report(key, 'round_start', 126, '/v1/servers/report');
    expect(body.blockedUntil).toBe(new Date(t0 + cap * MINUTE).toISOString());
    expect(await report(key, 'round_end', 126, '/v1/servers/report')).toEqual({
      ok: true,
      blockedUntil: null,
      reason: 'closed',
    });
  });
});

describe('budgets across key kinds (note 3) and the seed cooldown for every key (note 1)', () => {
  let game: TestKey;
  let http: TestKey;
  beforeEach(async () => {
    game = await newKey(api, 'self');
    http = await newKey(api, 'http');
    await setClock(api, '2026-03-01T08:00:00.000Z');
  });

  it('a game-server key continues a seed an HTTP key blocked for 20 minutes, for 40 more', async () => {
    await report(http, 'round_start', 200);
    await advanceClock(api, 20 * MINUTE);
    // Cooldown applies whoever reports.
    expect(await report(game, 'round_start', 200)).toEqual({
      ok: true,
      blockedUntil: null,
      reason: 'cooldown',
    });
    const now = await advanceClock(api, 5 * MINUTE);
    expect(await report(http, 'round_start', 200)).toEqual({ ok: true, blockedUntil: null, exhausted: true });
    expect((await report(game, 'round_start', 200)).blockedUntil).toBe(
      new Date(now + 40 * MINUTE).toISOString(),
    );
    await advanceClock(api, 45 * MINUTE);
    // 60 minutes used: no key can block it again.
    expect((await report(game, 'round_start', 200)).exhausted).toBe(true);
    expect((await report(http, 'round_start', 200)).exhausted).toBe(true);
  });

  it('another key reporting a held seed sees it blocked but cannot close or extend it', async () => {
    const opened = await report(game, 'round_start', 201);
    await advanceClock(api, MINUTE);
    expect(await report(http, 'round_start', 201)).toEqual(opened);
    expect(await report(http, 'round_end', 201)).toEqual({
      ok: true,
      blockedUntil: null,
      reason: 'other_key',
    });
    expect(await report(game, 'periodic', 201)).toEqual(opened);
  });
});
