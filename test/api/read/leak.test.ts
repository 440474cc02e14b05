import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiAt, type TestApi } from '../../support/api.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';
import { startTestWorker, type TestWorker } from '../../support/generator-worker.ts';
import { bearer, send, get, type WireAnswer } from '../../support/http.ts';
import { closeWindow, generate, openWindow, type OpenWindow } from '../../support/read-api.ts';

// The seed of a live window appears nowhere (spec 1, 4.9, 4.11): with windows open on several
// seeds, a crawl of every read endpoint (every map, job, page of seeds, both statistics and the
// version) finds none of their numbers in any header or body. The seeds are generated, sighted
// and were blocked before, so every place that could carry them has had them.

const TOKEN = 'detector-token-0123456789abcdef';
const T0 = '2026-03-01T08:00:00.000Z';
/** Distinctive numbers, so a match is a leak and not a coincidence. */
const BLOCKED = [918273645, 827364519, 736451928];
/** Blocked without ever being requested (never generated or queued). */
const BLOCKED_UNSEEN = 645192837;
const VISIBLE = [1234567, 7654321, 2233445];
const ALL_BLOCKED = [...BLOCKED, BLOCKED_UNSEEN];
const ENCODINGS: Record<string, string>[] = [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }];

let api: TestApi;
let worker: TestWorker;
let windows: OpenWindow[] = [];

beforeAll(async () => {
  api = await startApiAt(T0, { ADMIN_TOKEN: TOKEN });
  worker = await startTestWorker(api.config.REDIS_PREFIX);
  await generate(api, ...BLOCKED, ...VISIBLE);
  for (const seed of [...BLOCKED, ...VISIBLE]) {
    const res = await send(`${api.base}/admin/v1/detections`, { headers: bearer(TOKEN), json: { seed } });
    expect(res.body).toEqual({ seed, recorded: true });
  }
  // Earlier windows of a blocked and of a visible seed, ended: both are in protection `recent`.
  for (const seed of [BLOCKED[0]!, VISIBLE[1]!]) {
    const w = await openWindow(api, seed);
    await get(`${api.base}/maps/${seed}`);
    await advanceClock(api, MINUTE);
    await closeWindow(api, w);
  }
  // Past the cooldown and the 5-minute detection purge: the sightings stay.
  await advanceClock(api, 10 * MINUTE);
  // Warm the statistics caches, then open the windows: the cached answers must not leak either.
  await get(`${api.base}/stats/overview`);
  await get(`${api.base}/stats/protection`);
  windows = [];
  for (const seed of ALL_BLOCKED) windows.push(await openWindow(api, seed));
});
afterAll(async () => {
  await worker.stop();
  await api.close();
});

/** Every read endpoint, every page, every encoding: the answers as they came. */
async function crawl(): Promise<{ what: string; res: WireAnswer }[]> {
  const seen: { what: string; res: WireAnswer }[] = [];
  const fetch = async (path: string, headers: Record<string, string> = {}) => {
    const res = await get(`${api.base}${path}`, { headers, ip: '198.51.100.90' });
    seen.push({ what: `${path} ${JSON.stringify(headers)}`, res });
    return res;
  };
  const seeds = [...ALL_BLOCKED, ...VISIBLE, 31337];
  for (const seed of seeds) {
    for (const accept of ENCODINGS) {
      const res = await fetch(`/maps/${seed}`, accept);
      const etag = res.headers.get('etag');
      if (etag) await fetch(`/maps/${seed}`, { ...accept, 'if-none-match': etag });
    }
    await fetch(`/jobs/${seed}`);
  }
  for (const limit of [1, 2, 3, 200, 500]) {
    let cursor: number | null = null;
    do {
      const res = await fetch(`/seeds?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
      cursor = (res.body as { nextCursor: number | null }).nextCursor;
    } while (cursor !== null);
  }
  // A cursor held from before a window opened still pages on without naming it.
  await fetch(`/seeds?limit=2&cursor=${BLOCKED[1]}`);
  await fetch('/seeds');
  for (let i = 0; i < 2; i++) {
    await fetch('/stats/overview');
    await fetch('/stats/protection');
  }
  await fetch('/plugin/v1/version');
  return seen;
}

const everything = ({ res }: { res: WireAnswer }) => `${JSON.stringify([...res.headers])}\n${res.text}`;

describe('the seed of an open window', () => {
  it('appears in no header and no body of any read endpoint (cached statistics included)', async () => {
    const answers = await crawl();
    for (const answer of answers) {
      const text = everything(answer);
      for (const seed of ALL_BLOCKED)
        expect(text, `${answer.what} names ${seed}`).not.toContain(String(seed));
    }
    // The crawl did reach the data: the visible seeds are there, the blocked ones refused.
    const all = answers.map(everything).join('\n');
    for (const seed of VISIBLE) expect(all).toContain(`"seed":${seed}`);
    expect(all).toContain(`"seed":${VISIBLE[1]},"at"`); // its ended window
    for (const seed of ALL_BLOCKED) {
      const res = answers.find((a) => a.what.startsWith(`/maps/${seed} `))!.res;
      expect(res.status).toBe(403);
    }
  });

  it('and again after the statistics caches expire with the windows still open', async () => {
    await advanceClock(api, 2 * MINUTE);
    for (const answer of await crawl()) {
      for (const seed of ALL_BLOCKED) expect(everything(answer), answer.what).not.toContain(String(seed));
    }
  });

  it('shows up once the windows have ended (the check above can see them)', async () => {
    await setClock(
      api,
      windows
        .map((w) => w.blockedUntil)
        .sort()
        .at(-1)!,
    );
    await advanceClock(api, MINUTE);
    const all = (await crawl()).map(everything).join('\n');
    for (const seed of BLOCKED) expect(all).toContain(`"seed":${seed}`);
    for (const seed of ALL_BLOCKED) expect(all).toContain(`"seed":${seed},"at"`);
  });
});
