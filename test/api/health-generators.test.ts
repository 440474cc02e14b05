// Issue 18, point 2: the generator workers seen and the queue depth in /readyz, on a real API
// process; jobs with no worker are logged at `error`, once, however many probes come. Apart from
// health.test.ts: nothing here is bounded in time (the watch looks every 10 s), so it need not
// run alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generators } from '../../api/schemas.ts';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { startTestWorker, type TestWorker } from '../support/generator-worker.ts';
import { send } from '../support/http.ts';
import { logLines } from '../support/logged-process.ts';
import { pollUntil } from '../support/clock.ts';

const readyz = (api: ApiProcess) => send<{ generators: Generators | null }>(`${api.url}/readyz`);
const linesOf = (api: ApiProcess) => logLines(api.stdout());

describe('generator workers and the queue', () => {
  let api: ApiProcess;
  let worker: TestWorker | undefined;

  beforeAll(async () => {
    api = await startApiProcess({ LOG_LEVEL: 'info' });
  }, 30_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
  });

  const stallLines = () =>
    linesOf(api).filter((l) => String(l.msg).startsWith('jobs are waiting and no generator worker'));

  it('reports jobs waiting with no worker, logging it at error once however many probes come', async () => {
    for (const seed of [870_001, 870_002]) expect((await send(`${api.base}/maps/${seed}`)).status).toBe(202);
    const res = await readyz(api);
    expect(res.status).toBe(200);
    expect(res.body.generators).toEqual({ workers: 0, waiting: 2, active: 0, stalled: true });
    // The watch looks every 10 s.
    await pollUntil(
      async () => stallLines(),
      (lines) => lines.length > 0,
      {
        what: 'the stall logged',
        timeoutMs: 20_000,
      },
    );
    for (let i = 0; i < 50; i++) await readyz(api);
    expect(stallLines().length).toBe(1);
    expect(stallLines()[0]).toMatchObject({ level: 50, workers: 0, waiting: 2 });
  });

  it('counts a worker that heartbeats, and the queue it empties', async () => {
    worker = await startTestWorker(api.prefix);
    const res = await pollUntil(
      () => readyz(api),
      (r) =>
        r.body.generators?.workers === 1 && r.body.generators.waiting === 0 && r.body.generators.active === 0,
      { what: 'one worker, queue empty' },
    );
    expect(res.body.generators).toEqual({ workers: 1, waiting: 0, active: 0, stalled: false });
    await worker.stop();
    worker = undefined;
    // A worker that stops says so.
    const after = await readyz(api);
    expect(after.body.generators?.workers).toBe(0);
  });
});
