import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDebianPackage } from '../../scripts/debian-package.ts';
import { BLOCK_CAP_MS, SEED_COOLDOWN_MS, type Store } from '../../store/index.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { testPrefix } from '../support/api.ts';
import { get } from '../support/http.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { openTestStore } from '../support/test-store.ts';

// One clock (issue 27): two API processes on one Redis, one of them 30 s ahead under Debian's
// faketime (its Date.now() really is ahead). Every rule that depends on time takes Redis's TIME,
// so through either process a window ends 20 minutes from the true now, is never settled early,
// charges its budget by the time it really stood, and the cooldown, the gap and the
// 12-reports-a-minute limit hold across both. Windows last minutes: nothing here waits for time.

const AHEAD_MS = 30_000;
/** How far a time the service states may be from the one the test computes (HTTP, a loaded host). */
const SLACK_MS = 3_000;
const prefix = testPrefix();
let store: Store;
let normal: ApiProcess;
let ahead: ApiProcess;

beforeAll(async () => {
  ensureDebianPackage('faketime', 'faketime');
  store = await openTestStore({ prefix, clock: 'system', name: 'clock-skew' });
  const env = { REDIS_PREFIX: prefix, SEEDBLOCK_CLOCK: 'system', RATE_LIMIT_MULTIPLIER: '1' };
  [normal, ahead] = await Promise.all([
    startApiProcess(env),
    startApiProcess(env, { under: ['faketime', '-f', `+${AHEAD_MS / 1000}s`] }),
  ]);
}, 90_000);
afterAll(async () => {
  await Promise.all([normal?.stop(), ahead?.stop()]);
  await store?.close();
});

type Details = { clockSkewMs: number | null; clockSkewed: boolean };

async function report(api: ApiProcess, credential: string, seed: number, event = 'round_start') {
  const res = await sendReport(api, credential, validReport({ seed, event }));
  return { status: res.status, body: res.body, at: Date.now() };
}

const newKey = async () => (await store.issueHttpKey()).credential;

describe('two API processes whose clocks are 30 s apart', () => {
  it('the one ahead knows it: /readyz shows the skew, without failing', async () => {
    const [mine, theirs] = await Promise.all([get(`${normal.url}/readyz`), get(`${ahead.url}/readyz`)]);
    // Ready or not as the rest of it says (the viewer may be unbuilt here), never for the clock.
    for (const res of [mine, theirs])
      expect(res.body.failed ?? []).toEqual(res.status === 200 ? [] : ['viewer']);
    const skewOf = (res: typeof mine) => (res.body as { details: Details }).details;
    expect(Math.abs(skewOf(mine).clockSkewMs!)).toBeLessThan(2_000);
    expect(skewOf(mine).clockSkewed).toBe(false);
    expect(Math.abs(skewOf(theirs).clockSkewMs! - AHEAD_MS)).toBeLessThan(SLACK_MS);
    expect(skewOf(theirs).clockSkewed).toBe(true);
  });

  it('a window opened through either ends 20 minutes from the true now, and both show the same end', async () => {
    for (const [i, [opener, other]] of [
      [ahead, normal],
      [normal, ahead],
    ].entries()) {
      const key = await newKey();
      const seed = 880_001 + i;
      const sentAt = Date.now();
      const opened = await report(opener!, key, seed);
      expect(opened.status).toBe(200);
      const until = Date.parse(opened.body.blockedUntil as string);
      expect(until).toBeGreaterThanOrEqual(sentAt + BLOCK_CAP_MS.http - SLACK_MS);
      expect(until).toBeLessThanOrEqual(opened.at + BLOCK_CAP_MS.http + SLACK_MS);
      // The same window through the other process: kept, never extended, and hidden by both.
      const again = await report(other!, key, seed, 'periodic');
      expect(again.body.blockedUntil).toBe(opened.body.blockedUntil);
      for (const api of [opener!, other!]) {
        const read = await get(`${api.base}/maps/${seed}`);
        expect(read.status).toBe(403);
        expect(read.body).toEqual({ error: 'blocked', blockedUntil: opened.body.blockedUntil });
      }
    }
  });

  it('opened ahead and ended on the true clock: charged the time it stood; then cooldown and gap hold through both', async () => {
    const key = await newKey();
    const seed = 880_101;
    const opened = await report(ahead, key, seed);
    expect(opened.status).toBe(200);
    const ended = await report(normal, key, seed, 'round_end');
    expect(ended.status).toBe(200);
    expect(ended.body.blockedUntil).toBeNull();
    const [usedMs, cooldownUntil] = (
      await store.ctx.redis.hmget(`${prefix}seed:${seed}`, 'usedMs', 'cooldownUntil')
    ).map(Number);
    expect(usedMs).toBeGreaterThanOrEqual(0);
    expect(usedMs).toBeLessThanOrEqual(ended.at - opened.at + 1_000);
    expect(Math.abs(cooldownUntil! - (ended.at + SEED_COOLDOWN_MS))).toBeLessThan(SLACK_MS);

    // The seed is in its cooldown for every key, through either process.
    const other = await newKey();
    for (const api of [ahead, normal]) {
      const refused = await report(api, other, seed);
      expect(refused.body).toMatchObject({ blockedUntil: null, reason: 'cooldown' });
    }
    // The key opened a window moments ago: its gap holds through either process.
    for (const api of [ahead, normal]) {
      const refused = await report(api, key, 880_102);
      expect(refused.body).toMatchObject({ blockedUntil: null, reason: 'gap' });
    }
  });

  it('one key gets at most 12 reports a minute across both', async () => {
    const key = await newKey();
    const answers = [];
    for (let i = 0; i < 24; i++) answers.push(await report(i % 2 ? ahead : normal, key, 880_201, 'periodic'));
    expect(answers.filter((a) => a.status !== 429)).toHaveLength(12);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12);
  });
});
