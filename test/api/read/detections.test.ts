import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminEnv, runAdmin } from '../../support/admin-cli.ts';
import { startApiAt, type TestApi } from '../../support/api.ts';
import { advanceClock, HOUR, MINUTE } from '../../support/clock.ts';
import { startTestWorker, type TestWorker } from '../../support/generator-worker.ts';
import { bearer, send, get } from '../../support/http.ts';
import { closeWindow, generate, jobHash, openWindow, waitReady } from '../../support/read-api.ts';

// Sightings of the seed detector: POST /admin/v1/detections (ADMIN_TOKEN) and the CLI's
// `detect <seed>`. They feed `detected` on the seed list, `seedsDetected` and the 24h/7d counts
// of the overview (2.5, 2.8), are dropped while the seed's window is open, and those of the last
// 5 minutes are deleted when a window opens (3.1).

const TOKEN = 'detector-token-0123456789abcdef';
const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const DAY = 24 * HOUR;

let api: TestApi;
let worker: TestWorker;
beforeEach(async () => {
  api = await startApiAt(new Date(T0).toISOString(), { ADMIN_TOKEN: TOKEN });
  worker = await startTestWorker(api.config.REDIS_PREFIX);
});
afterEach(async () => {
  await worker.stop();
  await api.close();
});

function detect(seed: unknown, headers: Record<string, string> = bearer(TOKEN), on: TestApi = api) {
  return send<{ seed?: number; recorded?: boolean; error?: string }>(`${on.base}/admin/v1/detections`, {
    headers,
    json: { seed },
  });
}

type Overview = { seedsTracked: number; seedsDetected: number; detections: { '24h': number; '7d': number } };
/** A fresh overview: past the 60-second cache first. */
async function overview(): Promise<Overview> {
  await advanceClock(api, MINUTE);
  const res = await get<Overview>(`${api.base}/stats/overview`);
  expect(res.status).toBe(200);
  return res.body;
}

async function listed(): Promise<Map<number, boolean>> {
  const res = await get<{ items: { seed: number; detected: boolean }[] }>(`${api.base}/seeds`);
  return new Map(res.body.items.map((i) => [i.seed, i.detected]));
}

describe('POST /admin/v1/detections', () => {
  it('records a sighting with the admin token: 200 {seed, recorded: true}', async () => {
    const res = await detect(301);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ seed: 301, recorded: true });
  });

  it('answers 401 without the admin token, with a wrong one, or when none is configured', async () => {
    const { credential } = await api.store.issueHttpKey();
    for (const headers of [
      {},
      bearer('detector-token-0123456789abcdeX'),
      bearer(`${TOKEN}x`),
      { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
      bearer(credential),
    ]) {
      const res = await detect(302, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.error).toEqual(expect.any(String));
    }
    const unset = await startApiAt(new Date(T0).toISOString(), { REDIS_PREFIX: api.config.REDIS_PREFIX });
    try {
      expect((await detect(302, bearer(TOKEN), unset)).status).toBe(401);
    } finally {
      await unset.close();
    }
    expect((await overview()).seedsDetected).toBe(0);
    expect(await jobHash(api, 302)).toEqual({});
  });

  it.each([['"1"'], ['0'], ['2147483648'], ['1.5'], ['null']])('answers 400 for seed %s', async (seed) => {
    const res = await send(`${api.base}/admin/v1/detections`, {
      headers: { ...bearer(TOKEN), 'content-type': 'application/json' },
      raw: `{"seed":${seed}}`,
      method: 'POST',
    });
    expect(res.status).toBe(400);
  });

  it('feeds `detected` on the seed list, seedsDetected and the 24h/7d counts, which age with the clock', async () => {
    await generate(api, 310); // dumped, never sighted
    expect((await detect(311)).body.recorded).toBe(true);
    expect((await detect(311)).body.recorded).toBe(true);
    expect((await detect(312)).body.recorded).toBe(true);
    // A sighting queues generation of a seed never seen; the worker dumps it.
    await waitReady(api, 311);
    await waitReady(api, 312);
    expect(await listed()).toEqual(
      new Map([
        [312, true],
        [311, true],
        [310, false],
      ]),
    );
    expect(await overview()).toMatchObject({
      seedsTracked: 3,
      seedsDetected: 2,
      detections: { '24h': 3, '7d': 3 },
    });

    await advanceClock(api, 25 * HOUR);
    expect(await overview()).toMatchObject({ seedsDetected: 2, detections: { '24h': 0, '7d': 3 } });
    await detect(313);
    expect(await overview()).toMatchObject({ seedsDetected: 3, detections: { '24h': 1, '7d': 4 } });

    // Eight days after the first sightings only the one of day 2 is within 7 days.
    await advanceClock(api, 7 * DAY - 25 * HOUR + DAY);
    expect(await overview()).toMatchObject({ seedsDetected: 3, detections: { '24h': 0, '7d': 1 } });
  });

  it("drops sightings while the seed's window is open (recorded: false), and queues nothing", async () => {
    const window = await openWindow(api, 320);
    const res = await detect(320);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ seed: 320, recorded: false });
    expect(await jobHash(api, 320)).toEqual({});
    expect(await overview()).toMatchObject({ seedsTracked: 0, seedsDetected: 0, detections: { '24h': 0 } });

    await closeWindow(api, window);
    expect((await detect(320)).body).toEqual({ seed: 320, recorded: true });
    await waitReady(api, 320);
    expect((await listed()).get(320)).toBe(true);
  });

  it('the CLI `detect <seed>` records a sighting the same way', async () => {
    const res = await runAdmin(['detect', '330'], adminEnv(api.config.REDIS_PREFIX));
    expect(res.ok()).toEqual({ seed: 330, recorded: true });
    await waitReady(api, 330);
    expect((await listed()).get(330)).toBe(true);
    expect(await overview()).toMatchObject({ seedsDetected: 1, detections: { '24h': 1, '7d': 1 } });
  });

  it("opening a window deletes the seed's sightings of the last 5 minutes, keeping older ones", async () => {
    await detect(341); // 8 minutes before the window: kept
    await advanceClock(api, 6 * MINUTE);
    await detect(341); // 2 minutes before: deleted
    await detect(342); // 2 minutes before: deleted, and 342 had no other
    await detect(343); // another seed, no window: kept
    await waitReady(api, 341);
    await waitReady(api, 342);
    await waitReady(api, 343);
    await advanceClock(api, 2 * MINUTE);

    const w1 = await openWindow(api, 341);
    const w2 = await openWindow(api, 342);
    expect(await overview()).toMatchObject({ seedsDetected: 2, detections: { '24h': 2, '7d': 2 } });
    await closeWindow(api, w1);
    await closeWindow(api, w2);
    expect(await listed()).toEqual(
      new Map([
        [343, true],
        [342, false],
        [341, true],
      ]),
    );
  });
});
