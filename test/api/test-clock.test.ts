import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { newKey } from '../support/keys.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { send } from '../support/http.ts';

// README: SEEDBLOCK_CLOCK=manual adds POST /__test__/clock (`{"set":"<ISO>"}` or
// `{"advanceMs":N}` → `{"now"}`), outside the API prefix; without it the route does not exist.

describe('POST /__test__/clock with SEEDBLOCK_CLOCK=manual', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ SEEDBLOCK_CLOCK: 'manual' });
  });
  afterAll(async () => {
    await api.close();
  });
  const move = (json: unknown) => send(`${api.url}/__test__/clock`, { json });

  it('set answers {now} with the time set', async () => {
    const res = await move({ set: '2026-03-01T08:00:00.000Z' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: '2026-03-01T08:00:00.000Z' });
  });

  it('set accepts an offset and answers in UTC', async () => {
    const res = await move({ set: '2026-03-01T10:00:00+02:00' });
    expect(res.body).toEqual({ now: '2026-03-01T08:00:00.000Z' });
  });

  it('advance moves from where the clock stands, and the clock stands still in between', async () => {
    await move({ set: '2026-03-01T08:00:00.000Z' });
    expect((await move({ advanceMs: 90_000 })).body).toEqual({ now: '2026-03-01T08:01:30.000Z' });
    expect((await move({ advanceMs: 0 })).body).toEqual({ now: '2026-03-01T08:01:30.000Z' });
    expect((await move({ advanceMs: -30_000 })).body).toEqual({ now: '2026-03-01T08:01:00.000Z' });
  });

  it('is the clock the API decides by: a window opened now ends 20 minutes after it', async () => {
    await move({ set: '2026-04-01T12:00:00.000Z' });
    const key = await newKey(api, 'http');
    const res = await sendReport(api, key.credential, validReport({ seed: 777 }));
    expect(res.body.blockedUntil).toBe('2026-04-01T12:20:00.000Z');
  });

  it.each([
    ['an empty object', {}],
    ['set that is not a time', { set: 'banana' }],
    ['set as epoch ms', { set: 1_772_352_000_000 }],
    ['advanceMs as a string', { advanceMs: '5' }],
    ['advanceMs not an integer', { advanceMs: 1.5 }],
    ['both set and advanceMs', { set: '2026-03-01T08:00:00.000Z', advanceMs: 1 }],
    ['an unknown field', { jump: 5 }],
    ['an array', [{ advanceMs: 1 }]],
  ])('%s → 400', async (_name, json) => {
    const res = await move(json);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('malformed JSON and a non-JSON body → 400', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }]) {
      const res = await send(`${api.url}/__test__/clock`, { raw: '{"advanceMs":', headers });
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });
});

describe.each(['test', 'production'])('without the manual clock (NODE_ENV=%s)', (nodeEnv) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ NODE_ENV: nodeEnv, SEEDBLOCK_CLOCK: 'system' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('POST /__test__/clock is 404, under the prefix too', async () => {
    for (const url of [`${api.url}/__test__/clock`, `${api.base}/__test__/clock`]) {
      const res = await send(url, { json: { advanceMs: 60_000 } });
      expect(res.status).toBe(404);
      expect(typeof res.body.error).toBe('string');
    }
  });

  it('and the API keeps the real time', async () => {
    const key = await newKey(api, 'http');
    const before = Date.now();
    const res = await sendReport(api, key.credential, validReport({ seed: 778 }));
    const until = Date.parse(String(res.body.blockedUntil));
    expect(until).toBeGreaterThanOrEqual(before + 20 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 20 * 60_000);
  });
});
