import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, MINUTE, SECOND, setClock } from '../support/clock.ts';
import { newKey, type TestKey } from '../support/keys.ts';
import { REPORT_PATHS, retryAfterSeconds, sendReport, validReport } from '../support/requests.ts';
import { type HttpAnswer } from '../support/http.ts';

// Spec 8: report 12 per minute per key plus 120 per minute per IP; fixed windows from the first
// request; requests past the limit still count; every 429 carries Retry-After in seconds.
// The manual clock stands still between moves, so the remaining seconds are exact.

const PER_KEY = 12;
const PER_IP = 120;

let api: TestApi;
let t0: number;
beforeEach(async () => {
  api = await startTestApi();
  t0 = await setClock(api, '2026-03-01T08:00:00.000Z');
});
afterEach(async () => {
  await api.close();
});

function expectLimited(res: HttpAnswer, retryAfter?: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'rate limited' });
  const seconds = retryAfterSeconds(res);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  if (retryAfter !== undefined) expect(seconds).toBe(retryAfter);
}

// round_end never opens a window, so the answers depend on the limits only.
const ping = (key: TestKey, path: string = REPORT_PATHS[0], headers: Record<string, string> = {}) =>
  sendReport(api, key.credential, validReport({ event: 'round_end' }), { path, headers });

async function spend(key: TestKey, n: number, path: string = REPORT_PATHS[0]) {
  for (let i = 0; i < n; i++) {
    const res = await ping(key, path);
    expect(res.status, `request ${i + 1} of ${n}`).toBe(200);
  }
}

describe.each(REPORT_PATHS)('POST %s: 12 per minute per key', (path) => {
  it('the 13th is 429 with Retry-After; still 429 30 s later; 60 s after the first, 200 again', async () => {
    const key = await newKey(api, 'http');
    await spend(key, PER_KEY, path);
    expectLimited(await ping(key, path), 60);

    await advanceClock(api, 30 * SECOND);
    // Past the limit, and the window is not moved by these requests.
    expectLimited(await ping(key, path), 30);
    expectLimited(await ping(key, path), 30);

    await advanceClock(api, 30 * SECOND - 1);
    expectLimited(await ping(key, path), 1);

    // 60 s after the first request the window ends: a new one of 12 starts.
    expect(await advanceClock(api, 1)).toBe(t0 + MINUTE);
    await spend(key, PER_KEY, path);
    expectLimited(await ping(key, path), 60);
  });

  it('the window starts at the first request, not at the top of a minute', async () => {
    const key = await newKey(api, 'http');
    await spend(key, 1, path);
    await advanceClock(api, 45 * SECOND);
    await spend(key, PER_KEY - 1, path);
    expectLimited(await ping(key, path), 15);
    await advanceClock(api, 15 * SECOND);
    expect((await ping(key, path)).status).toBe(200);
  });

  it('the limit is per key: another key from the same IP is not limited', async () => {
    const limited = await newKey(api, 'http');
    await spend(limited, PER_KEY, path);
    expectLimited(await ping(limited, path));
    const other = await newKey(api, 'http');
    expect((await ping(other, path)).status).toBe(200);
  });
});

describe('120 per minute per IP', () => {
  it('many keys from one IP: the 121st request is 429; another client IP is not limited', async () => {
    const keys: TestKey[] = [];
    for (let k = 0; k < PER_IP / PER_KEY; k++) keys.push(await newKey(api, 'http'));
    for (const key of keys) await spend(key, PER_KEY);

    const fresh = await newKey(api, 'http');
    const limited = await ping(fresh);
    expectLimited(limited, 60);
    expectLimited(await ping(fresh, REPORT_PATHS[1]));

    // The CDN forwards another client's address: that IP has a counter of its own.
    expect((await ping(fresh, REPORT_PATHS[0], { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);

    await advanceClock(api, MINUTE);
    expect((await ping(fresh)).status).toBe(200);
  });
});

describe('several API processes share the counters through Redis', () => {
  let other: TestApi;
  beforeEach(async () => {
    other = await startTestApi({ REDIS_PREFIX: api.config.REDIS_PREFIX });
  });
  afterEach(async () => {
    await other.close();
  });

  it('6 requests on one process and 6 on another use up the key; both then answer 429', async () => {
    expect(other.config.REDIS_PREFIX).toBe(api.config.REDIS_PREFIX);
    const key = await newKey(api, 'http');
    for (let i = 0; i < PER_KEY / 2; i++) {
      expect((await ping(key)).status).toBe(200);
      const res = await sendReport(other, key.credential, validReport({ event: 'round_end' }));
      expect(res.status).toBe(200);
    }
    expectLimited(await ping(key));
    expectLimited(await sendReport(other, key.credential, validReport({ event: 'round_end' })));
  });
});
