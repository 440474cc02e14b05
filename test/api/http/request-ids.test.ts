// Request ids and logged paths (issue 22, finding 6): a client's X-Request-Id is kept only when it
// is at most 64 characters of [A-Za-z0-9._-] and no key without its prefix (38 base62 characters
// that pass the checksum); a path segment shaped like a key or a claim code is logged redacted.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCredential } from '../../../store/credentials.ts';
import { logOptions } from '../../../runtime/logger.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { send } from '../../support/http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const lines: Record<string, unknown>[] = [];
let api: TestApi;
let sent = 0;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  api = await startTestApi({}, pino(logOptions('info', 'api'), sink));
});
afterAll(async () => {
  await api.close();
});

/** The request id answered for `given`, and the log text of that request. */
async function idFor(given: string, path = '/plugin/v1/version') {
  const res = await send(`${api.base}${path}`, { headers: { 'x-request-id': given } });
  const id = res.headers.get('x-request-id')!;
  const logged = lines.filter((l) => l.msg === 'request' && l.reqId === id);
  expect(logged).toHaveLength(1);
  return { id, log: JSON.stringify(logged[0]) };
}

describe('X-Request-Id', () => {
  it.each(['trace-0001', 'cdn.edge.4f1c_ab', 'A'.repeat(64), '0123456789abcdefghijABCDEFGHIJ012345678'])(
    'keeps %s',
    async (given) => {
      expect((await idFor(given)).id).toBe(given);
    },
  );

  const key = newCredential();
  it.each([
    ['a key without its sbk_ prefix', key.slice(4)],
    ['a key', key],
    ['65 characters', 'A'.repeat(65)],
    ['a colon', 'cdn:4f1c'],
    ['a space', 'has space'],
    ['markup', '<script>'],
    ['a claim code', 'ABCDE-FGHJK'],
  ])('replaces %s, which no log line carries', async (_name, given) => {
    const { id, log } = await idFor(given);
    expect(id).toMatch(UUID);
    expect(log).not.toContain(given);
  });
});

describe('logged paths', () => {
  const key = newCredential();
  it.each([
    ['a key', `/maps/${key}`],
    ['a key without its prefix', `/maps/${key.slice(4)}`],
    ['a percent-encoded key', `/maps/${key.replace('_', '%5F')}`],
    ['a key between other segments', `/v1/${key}/report`],
    ['a claim code', '/maps/ABCDE-FGHJK'],
    ['a claim code without its dash', '/maps/ABCDEFGHJK'],
  ])('%s is redacted', async (_name, path) => {
    const { log } = await idFor(`path-test-${++sent}`, path);
    for (const secret of [key, key.slice(4), 'ABCDE', 'FGHJK']) expect(log).not.toContain(secret);
    expect(log).toContain('[redacted]');
  });

  it('seeds and route words stay as they were sent (the query is never logged)', async () => {
    for (const path of ['/maps/2147483647', '/stats/protection', '/seeds?cursor=1234567890']) {
      const { log } = await idFor(`path-test-${++sent}`, path);
      expect(JSON.parse(log).path).toBe(`/api${path.split('?')[0]}`);
    }
  });
});
