// Spec 8 rule 2 for bodies (issue 22, finding 2): every request to a limited path counts,
// whatever its body. An unparseable or oversized body is answered 400 or 413 only after the
// route's limits counted it, so a client cannot probe past a limit with broken bodies.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../store/index.ts';
import { startApiAt, type TestApi } from '../../support/api.ts';
import { from } from '../../support/claims.ts';
import { retryAfterSeconds } from '../../support/requests.ts';
import { type HttpAnswer, send } from '../../support/http.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startApiAt('2026-03-01T08:00:00.000Z');
});
afterEach(async () => {
  await api.close();
});

const JSON_TYPE = { 'content-type': 'application/json' };
const OVERSIZED = `{"pad":"${'p'.repeat(MAX_BODY_BYTES)}"}`;

/** Sends `count` requests one after another; returns every answer. */
async function sendMany(count: number, url: string, raw: string, headers: Record<string, string>) {
  const answers: HttpAnswer[] = [];
  for (let i = 0; i < count; i++) answers.push(await send(url, { raw, headers }));
  return answers;
}

function expectCountedThenLimited(answers: HttpAnswer[], limit: number, status: number) {
  expect(answers.slice(0, limit).map((r) => r.status)).toEqual(Array(limit).fill(status));
  for (const refused of answers.slice(limit)) {
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate limited' });
    expect(retryAfterSeconds(refused)).toBe(60);
  }
}

describe('malformed and oversized bodies count against the limits', () => {
  it('plugin claim: the 11th `{bad` in a minute is 429 with Retry-After', async () => {
    const headers = { ...JSON_TYPE, ...from('203.0.113.10') };
    const answers = await sendMany(11, `${api.base}/plugin/v1/claim`, '{bad', headers);
    expectCountedThenLimited(answers, 10, 400);
    expect(answers[0]!.body).toEqual({ error: 'invalid request' });
  });

  it('plugin claim: 12 bodies over 16 KiB are 10 × 413, then 429', async () => {
    const headers = { ...JSON_TYPE, ...from('203.0.113.11') };
    const answers = await sendMany(12, `${api.base}/plugin/v1/claim`, OVERSIZED, headers);
    expectCountedThenLimited(answers, 10, 413);
  });

  it('report: 125 malformed reports from one IP are 120 answers, then 429 (the per-IP limit)', async () => {
    const headers = { ...JSON_TYPE, ...from('2001:db8:5:100::1') };
    const answers = await sendMany(125, `${api.base}/plugin/v1/report`, '{bad', headers);
    // No key: the key is checked before the body, and it needs only the Authorization header.
    expectCountedThenLimited(answers, 120, 401);
  });

  it('report: a key sending malformed bodies spends its own 12 a minute', async () => {
    const { credential } = await api.store.issueHttpKey();
    const headers = { ...JSON_TYPE, authorization: `Bearer ${credential}` };
    const answers = await sendMany(13, `${api.base}/v1/servers/report`, '{bad', headers);
    expectCountedThenLimited(answers, 12, 400);
    // Another IP, the same key: the per-key count holds, whatever the body.
    const elsewhere = await send(`${api.base}/v1/servers/report`, {
      raw: OVERSIZED,
      headers: { ...headers, ...from('198.51.100.7') },
    });
    expect(elsewhere.status).toBe(429);
  });

  it('revoke: 22 with broken bodies are 20 answers, then 429', async () => {
    const headers = { ...JSON_TYPE, ...from('203.0.113.12') };
    const answers = await sendMany(22, `${api.base}/v1/servers/revoke`, '{bad', headers);
    expectCountedThenLimited(answers, 20, 401);
  });
});
