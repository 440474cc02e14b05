import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReportBodySchema } from '../../api/schemas.ts';
import { MAX_BODY_BYTES } from '../../store/index.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, MINUTE } from '../support/clock.ts';
import { newKey, type TestKey } from '../support/keys.ts';
import { REPORT_PATHS, sendReport, validReport } from '../support/requests.ts';
import { type HttpAnswer, send } from '../support/http.ts';

// Spec part 1 (body format), 4.5 (field constraints, also used by 4.2) and 7 (error bodies):
// JSON only, never coerced, every error a `{error: string}` body and never a 5xx.

let api: TestApi;
let key: TestKey;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  // A fresh key and a fresh rate window for every case, so limits never mix into these answers.
  await advanceClock(api, MINUTE);
  key = await newKey(api, 'http');
});

function expectError(res: HttpAnswer, status: number, error?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof res.body.error).toBe('string');
  if (error !== undefined) expect(res.body.error).toBe(error);
}

const s = (n: number) => 'r'.repeat(n);

/** The fields of a report (4.5), as a 400 names them. */
const REPORT_FIELDS = [
  'event',
  'seed',
  'port',
  'roundId',
  'roundStartedAt',
  'elapsedSeconds',
  'pluginVersion',
];

// Each is one field changed from a valid report; every one breaks a constraint of 4.5.
const MALFORMED: [string, Record<string, unknown>][] = [
  ['seed as a string "1"', validReport({ seed: '1' })],
  ['port as a string "7777"', validReport({ port: '7777' })],
  ['seed 0', validReport({ seed: 0 })],
  ['seed -1', validReport({ seed: -1 })],
  ['seed 2147483648', validReport({ seed: 2_147_483_648 })],
  ['seed 1.5', validReport({ seed: 1.5 })],
  ['seed null', validReport({ seed: null })],
  ['seed true', validReport({ seed: true })],
  ['port 0', validReport({ port: 0 })],
  ['port 65536', validReport({ port: 65_536 })],
  ['port 7777.5', validReport({ port: 7777.5 })],
  ['an unknown event', validReport({ event: 'round_begin' })],
  ['event in upper case', validReport({ event: 'ROUND_START' })],
  ['no event', { seed: 1, port: 7777 }],
  ['no seed', { event: 'round_start', port: 7777 }],
  ['no port', { event: 'round_start', seed: 1 }],
  ['roundId of 65 chars', validReport({ roundId: s(65) })],
  ['roundId empty', validReport({ roundId: '' })],
  ['roundId a number', validReport({ roundId: 5 })],
  ['roundStartedAt not ISO', validReport({ roundStartedAt: 'yesterday at eight' })],
  ['roundStartedAt as epoch ms', validReport({ roundStartedAt: 1_772_352_000_000 })],
  ['roundStartedAt on a day that does not exist', validReport({ roundStartedAt: '2026-02-30T08:00:00Z' })],
  ['roundStartedAt without seconds', validReport({ roundStartedAt: '2026-03-01T08:00Z' })],
  ['roundStartedAt without a zone', validReport({ roundStartedAt: '2026-03-01T08:00:00' })],
  // .NET's "u" format: ISO 8601 (the spec's form) has no space for the T.
  ['roundStartedAt with a space for the T', validReport({ roundStartedAt: '2026-11-27 21:17:37Z' })],
  [
    'roundStartedAt with an offset without colon',
    validReport({ roundStartedAt: '2026-03-01T08:00:00+0000' }),
  ],
  ['roundStartedAt at hour 24', validReport({ roundStartedAt: '2026-03-01T24:00:00Z' })],
  ['elapsedSeconds -1', validReport({ elapsedSeconds: -1 })],
  ['elapsedSeconds as a string "5"', validReport({ elapsedSeconds: '5' })],
  ['pluginVersion empty', validReport({ pluginVersion: '' })],
  ['pluginVersion of 33 chars', validReport({ pluginVersion: `1.2.${'0'.repeat(29)}` })],
];

// Boundaries of the same constraints, and extra fields (ignored): all are accepted.
const WELL_FORMED: [string, Record<string, unknown>][] = [
  ['seed 1', validReport({ seed: 1 })],
  ['seed 2147483647', validReport({ seed: 2_147_483_647 })],
  ['port 1', validReport({ port: 1 })],
  ['port 65535', validReport({ port: 65_535 })],
  ['each event: round_end', validReport({ event: 'round_end' })],
  ['each event: periodic', validReport({ event: 'periodic' })],
  ['roundId of 64 chars', validReport({ roundId: s(64) })],
  ['roundStartedAt ISO UTC', validReport({ roundStartedAt: '2026-03-01T08:00:00Z' })],
  ['roundStartedAt with fractional seconds', validReport({ roundStartedAt: '2026-03-01T08:00:00.123Z' })],
  // What Python's isoformat() and .NET's DateTimeOffset "o" write: every RFC 3339 form passes.
  ['roundStartedAt with +00:00', validReport({ roundStartedAt: '2026-11-27T06:00:00+00:00' })],
  ['roundStartedAt with -05:30', validReport({ roundStartedAt: '2026-11-27T06:00:00-05:30' })],
  [
    'roundStartedAt with 6 fractional digits',
    validReport({ roundStartedAt: '2026-11-27T06:00:00.123456+00:00' }),
  ],
  [
    'roundStartedAt with 7 fractional digits',
    validReport({ roundStartedAt: '2026-11-27T06:00:00.1234567+01:00' }),
  ],
  ['roundStartedAt in lower case', validReport({ roundStartedAt: '2026-11-27t06:00:00z' })],
  ['roundStartedAt on a leap second', validReport({ roundStartedAt: '2026-12-31T23:59:60Z' })],
  // A year is taken as written (ISO 8601's calendar): a Thai Buddhist 2569 is well-formed, and every
  // well-formed report answers 200 (spec 4.5); no decision reads the field (docs/api.md).
  ['roundStartedAt in a Thai Buddhist year', validReport({ roundStartedAt: '2569-11-27T21:17:37Z' })],
  ['elapsedSeconds 0', validReport({ elapsedSeconds: 0 })],
  ['elapsedSeconds 12.5', validReport({ elapsedSeconds: 12.5 })],
  ['pluginVersion of 32 chars', validReport({ pluginVersion: `1.2.${'0'.repeat(28)}` })],
  [
    'every optional field',
    validReport({
      roundId: 'round-1',
      roundStartedAt: '2026-03-01T08:00:00.000Z',
      elapsedSeconds: 30,
      pluginVersion: '1.2.0',
    }),
  ],
  ['extra unknown fields', validReport({ serverName: 'x', nested: { a: [1, 2] }, future: null })],
];

describe('times a client sends (RFC 3339) are kept as the same instant in UTC', () => {
  it.each([
    ['2026-11-27T06:00:00Z', '2026-11-27T06:00:00.000Z'],
    ['2026-11-27T06:00:00+00:00', '2026-11-27T06:00:00.000Z'],
    ['2026-11-27T06:00:00-00:00', '2026-11-27T06:00:00.000Z'],
    ['2026-11-27T06:00:00.5+02:00', '2026-11-27T04:00:00.500Z'],
    ['2026-11-27T06:00:00.57-05:30', '2026-11-27T11:30:00.570Z'],
    ['2026-11-27T06:00:00.1234567+00:00', '2026-11-27T06:00:00.123Z'],
    ['2026-11-27t23:30:00z', '2026-11-27T23:30:00.000Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0099-01-01T00:00:00Z', '0099-01-01T00:00:00.000Z'],
  ])('%s → %s', (text, utc) => {
    expect(ReportBodySchema.parse(validReport({ roundStartedAt: text })).roundStartedAt).toBe(utc);
  });

  it.each([
    '2025-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-03-01T08:60:00Z',
    '2026-03-01T08:00:00+24:00',
  ])('%s names no instant: refused', (text) => {
    expect(ReportBodySchema.safeParse(validReport({ roundStartedAt: text })).success).toBe(false);
  });
});

describe.each(REPORT_PATHS)('POST %s body rules', (path) => {
  it('a round_start with a +00:00 roundStartedAt opens the window like one with Z', async () => {
    const seed = 40_000 + REPORT_PATHS.indexOf(path);
    const opened = await sendReport(
      api,
      key.credential,
      validReport({ event: 'round_start', seed, roundStartedAt: '2026-11-27T06:00:00+00:00' }),
      { path },
    );
    expect(opened.status).toBe(200);
    expect(typeof opened.body.blockedUntil).toBe('string');
  });

  it.each(MALFORMED)('%s → 400 invalid request naming the field', async (name, body) => {
    const res = await sendReport(api, key.credential, body, { path });
    expectError(res, 400, 'invalid request');
    // Each case's name says which field it breaks.
    expect(res.body.field).toBe(REPORT_FIELDS.find((field) => new RegExp(`\\b${field}\\b`).test(name)));
  });

  it('a 400 names a field by the schema, never by what the client sent', async () => {
    const secret = key.credential;
    const res = await sendReport(
      api,
      key.credential,
      { ...validReport({ seed: 'x' }), [secret]: { [secret]: 1 } },
      { path },
    );
    expectError(res, 400, 'invalid request');
    expect(res.body).toEqual({ error: 'invalid request', field: 'seed' });
    expect(res.text).not.toContain(secret.slice(4));
  });

  it.each(WELL_FORMED)('%s → 200', async (_name, body) => {
    const res = await sendReport(api, key.credential, body, { path });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
  });

  it('malformed JSON → 400 invalid request with a key; without one the key is refused first', async () => {
    const raw = '{"event":"round_start","seed":1,';
    const send400 = (auth: Record<string, string>) =>
      send(`${api.base}${path}`, { raw, headers: { 'content-type': 'application/json', ...auth } });
    expectError(await send400({ authorization: `Bearer ${key.credential}` }), 400, 'invalid request');
    // The body is read after the limits and the key, so that every request counts (spec 8 rule 2).
    expectError(await send400({}), 401, 'invalid credential');
  });

  it.each([
    ['a JSON string', '"round_start"'],
    ['a JSON number', '123456'],
    ['null', 'null'],
    ['an array', '[{"event":"round_start","seed":1,"port":7777}]'],
    ['an empty object', '{}'],
  ])('a body that is %s → 400 invalid request', async (name, raw) => {
    const res = await send(`${api.base}${path}`, {
      raw,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.credential}` },
    });
    expectError(res, 400, 'invalid request');
    // Not an object: no field to name; an empty one lacks its first field.
    expect(res.body.field).toBe(name === 'an empty object' ? 'event' : undefined);
  });

  it.each([
    ['no Content-Type', null],
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
  ])('a valid JSON body sent with %s → 400', async (_name, type) => {
    const res = await send(`${api.base}${path}`, {
      raw: JSON.stringify(validReport()),
      headers: { authorization: `Bearer ${key.credential}`, ...(type ? { 'content-type': type } : {}) },
    });
    expectError(res, 400, 'invalid request');
  });

  it('no body at all → 400', async () => {
    const res = await send(`${api.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.credential}` },
    });
    expectError(res, 400, 'invalid request');
  });

  it('application/json with a charset parameter is JSON → 200', async () => {
    const res = await sendReport(api, key.credential, validReport(), {
      path,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });

  it('a body of exactly 16 KiB is read; one byte more → 413 with an error string', async () => {
    const sized = (bytes: number) => {
      const base = JSON.stringify(validReport({ pad: '' }));
      const text = JSON.stringify(validReport({ pad: 'p'.repeat(bytes - base.length) }));
      expect(Buffer.byteLength(text)).toBe(bytes);
      return text;
    };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key.credential}` };
    const fits = await send(`${api.base}${path}`, { raw: sized(MAX_BODY_BYTES), headers });
    expect(fits.status).toBe(200);
    expect(MAX_BODY_BYTES).toBe(16 * 1024);
    const tooLarge = await send(`${api.base}${path}`, { raw: sized(MAX_BODY_BYTES + 1), headers });
    expectError(tooLarge, 413);
    // A much larger body: still 413, never a 5xx; with no key, 401 (the key comes before the body).
    expectError(await send(`${api.base}${path}`, { raw: sized(200 * 1024), headers }), 413);
    const keyless = await send(`${api.base}${path}`, {
      raw: sized(200 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expectError(keyless, 401, 'invalid credential');
  });
});

describe('error bodies are {error: string} and never a 5xx', () => {
  it.each([
    ['no key', null, validReport()],
    ['a malformed body with no key', null, { seed: 'x' }],
  ])('%s', async (_name, credential, body) => {
    for (const path of REPORT_PATHS) {
      const res = await sendReport(api, credential, body, { path });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.body.error).toBe('string');
    }
  });
});
