import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../store/index.ts';
import { testPrefix } from '../support/api.ts';
import { startHeldReplication } from '../support/held-replication.ts';
import type { HoldingProxy } from '../support/holding-proxy.ts';
import { logLines } from '../support/logged-process.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import type { PrivateRedis } from '../support/private-redis.ts';
import { parseExposition, valueOf } from '../support/prometheus.ts';
import { pollUntil } from '../support/clock.ts';
import { retryAfterSeconds, sendReport, validReport } from '../support/requests.ts';
import { send } from '../support/http.ts';
import { openTestStore } from '../support/test-store.ts';

// Say it (issue 34, item 5): while the replicas cannot confirm writes (every report that would
// open a window answers 503), the API says so where an operator looks, once: one warn line (and one
// info line when they confirm again), /readyz `details` (`replicasAckable`, `replicasConfirmed` of
// `replicasAck`) with readiness still 200, and a gauge. Nothing has to be written meanwhile: an
// idle process finds out by itself. The replica reads its primary through a proxy that holds its
// bytes, as a lagging link does. API as its own process, logging. All on loopback.

const TOKEN = 'signals-token-0123456789';
const prefix = testPrefix();
let primary: PrivateRedis;
let proxy: HoldingProxy;
let stopReplication: (() => Promise<void>) | undefined;
let api: ApiProcess;
let store: Store;

beforeAll(async () => {
  ({ primary, proxy, stop: stopReplication } = await startHeldReplication('signals'));
  api = await startApiProcess({
    LOG_LEVEL: 'info',
    REDIS_URL: primary.url,
    REDIS_PREFIX: prefix,
    SEEDBLOCK_CLOCK: 'system',
    REDIS_REPLICAS_ACK: '1',
    ADMIN_TOKEN: TOKEN,
  });
  store = await openTestStore({ redisUrl: primary.url, prefix, clock: 'system', name: 'signals' });
}, 60_000);
afterAll(async () => {
  await api?.stop();
  await store?.close();
  await stopReplication?.();
});

type Details = { replicasAck: number; replicasAckable: boolean; replicasConfirmed: number };
const readyz = () => send<{ status: string; details: Details }>(`${api.url}/readyz`);
const gauges = async () => {
  const samples = parseExposition(
    (await send(`${api.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text,
  );
  return {
    ackable: valueOf(samples, 'seedblock_replicas_ackable'),
    confirmed: valueOf(samples, 'seedblock_replicas', { state: 'confirmed' }),
    required: valueOf(samples, 'seedblock_replicas', { state: 'required' }),
  };
};
const lines = (msg: string) => logLines(api.stdout()).filter((line) => line.msg === msg);
const STUCK =
  'replicas do not confirm writes in time: reports that would open a window, and other acknowledged writes, answer 503 until they do';
const BACK = 'replicas confirm writes again';

describe('replicas that cannot confirm writes', () => {
  it('are said once in the log, in /readyz details and in a gauge, readiness staying 200; and again once they confirm', async () => {
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body.details).toMatchObject({ replicasAck: 1, replicasAckable: true, replicasConfirmed: 1 });

    proxy.hold();
    try {
      const held = await pollUntil(readyz, (r) => !r.body.details.replicasAckable, {
        what: 'readiness details saying the replicas do not confirm',
        everyMs: 100,
        timeoutMs: 15_000,
      });
      expect(held.status).toBe(200);
      expect(held.body).toMatchObject({
        status: 'ready',
        details: { replicasAck: 1, replicasAckable: false, replicasConfirmed: 0 },
      });
      expect(await gauges()).toEqual({ ackable: 0, confirmed: 0, required: 1 });
      const { credential } = await store.issueHttpKey();
      const report = await sendReport(api, credential, validReport({ seed: 945_001 }));
      expect({ status: report.status, body: report.body }).toEqual({
        status: 503,
        body: { error: 'db unavailable' },
      });
      expect(retryAfterSeconds(report)).toBeGreaterThan(0);
      await pollUntil(
        async () => lines(STUCK),
        (found) => found.length > 0,
        { what: 'the warn line', everyMs: 100 },
      );
    } finally {
      proxy.release();
    }
    await pollUntil(readyz, (r) => r.body.details.replicasAckable, {
      what: 'readiness details saying the replicas confirm again',
      everyMs: 100,
      timeoutMs: 15_000,
    });
    await pollUntil(
      async () => lines(BACK),
      (found) => found.length > 0,
      { what: 'the info line', everyMs: 100 },
    );
    expect(await gauges()).toEqual({ ackable: 1, confirmed: 1, required: 1 });
    const [stuck, back] = [lines(STUCK), lines(BACK)];
    expect(stuck.map((line) => [line.level, line.replicasConfirmed, line.replicasAck])).toEqual([[40, 0, 1]]);
    expect(back.map((line) => line.level)).toEqual([30]);
  });
});
