// One e2e file's stack for the map viewer: the built viewer, an in-process API on loopback (manual
// clock) with a real generator worker on the same Redis prefix, and the e2e project's Chromium.
// Registers the file's hooks: every page of a test must stay on 127.0.0.1 and run without page or
// console errors; the first-draw times recorded by the tests are printed and saved at the end.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { MapData } from '../../renderer/map-types.ts';
import { startTestApi, type TestApi } from './api.ts';
import { bearer, send, get } from './http.ts';
import { newKey } from './keys.ts';
import { setClock } from './clock.ts';
import { connectChromium, ensureViewerBuilt, guardedContext, type GuardedContext } from './e2e-stack.ts';
import { startTestWorker, type TestWorker } from './generator-worker.ts';
import { generate } from './read-api.ts';
import { saveArtifact, type Drawn } from './viewer-page.ts';

export const E2E_T0 = '2026-05-01T12:00:00.000Z';

export interface ViewerStackOptions {
  /** Names the saved draw times: test-artifacts/viewer/draw-ms-<name>.json. */
  name: string;
  /** Seeds generated before the first test, in this order (the seed list shows the last first). */
  seeds: readonly number[];
  /** Environment overrides of the API (e.g. ADMIN_TOKEN). */
  env?: Record<string, string>;
}

export interface ViewerStack {
  readonly api: TestApi;
  readonly browser: Browser;
  /** A context at 1280×800 unless `options` say otherwise, checked after the test. */
  context(options?: BrowserContextOptions): Promise<GuardedContext>;
  openPage(path: string, options?: BrowserContextOptions): Promise<Page>;
  mapJson(seed: number): Promise<MapData>;
  /** Keeps a first-draw time (ms from the map answer to its first frame) for the report. */
  recordDraw(what: string, d: Drawn): void;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
}

export function viewerStack(opts: ViewerStackOptions): ViewerStack {
  let api: TestApi | undefined;
  let browser: Browser | undefined;
  let worker: TestWorker | undefined;
  const contexts: GuardedContext[] = [];
  const drawMs: Record<string, number> = {};
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${what} is not started`);
    return v;
  };

  const stack: ViewerStack = {
    get api() {
      return need(api, 'the API');
    },
    get browser() {
      return need(browser, 'Chromium');
    },
    async context(options = {}) {
      const c = await guardedContext(stack.browser, { viewport: { width: 1280, height: 800 }, ...options });
      contexts.push(c);
      return c;
    },
    async openPage(path, options) {
      const page = await (await stack.context(options)).newPage();
      await page.goto(`${stack.api.url}${path}`);
      return page;
    },
    async mapJson(seed) {
      const res = await get<MapData>(`${stack.api.base}/maps/${seed}`);
      expect(res.status, `map of ${seed}`).toBe(200);
      return res.body;
    },
    recordDraw(what, d) {
      // Measured, not judged: a loaded machine must not fail a test (the figure is reported).
      expect(d.drawMs).toBeGreaterThanOrEqual(0);
      drawMs[what] = d.drawMs;
    },
    async stopWorker() {
      await worker?.stop();
      worker = undefined;
    },
    async startWorker() {
      worker = await startTestWorker(stack.api.config.REDIS_PREFIX);
    },
  };

  beforeAll(async () => {
    const launched = connectChromium();
    launched.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
    await ensureViewerBuilt();
    api = await startTestApi(opts.env);
    await setClock(api, E2E_T0);
    await stack.startWorker();
    await generate(api, ...opts.seeds);
    browser = await launched;
  }, 60_000);

  afterEach(async () => {
    // Every page of the test stayed on 127.0.0.1 and ran without errors.
    for (const c of contexts.splice(0)) {
      await c.close();
      expect(c.offLoopback, 'requests off 127.0.0.1').toEqual([]);
      expect(c.problems, 'page errors').toEqual([]);
    }
  });

  afterAll(async () => {
    if (Object.keys(drawMs).length) {
      saveArtifact(`draw-ms-${opts.name}.json`, JSON.stringify(drawMs, null, 2) + '\n');
      console.log(`viewer first-draw times (ms after the map JSON arrived): ${JSON.stringify(drawMs)}`);
    }
    await browser?.close();
    await worker?.stop();
    await api?.close();
  });

  return stack;
}

/** Opens a window on a seed through the plugin API, as a game server's round start does. */
export async function blockByRound(api: TestApi, seed: number): Promise<void> {
  const key = await newKey(api, 'http');
  const report = await send(`${api.base}/plugin/v1/report`, {
    headers: bearer(key.credential),
    json: { event: 'round_start', seed, port: 7777 },
  });
  expect(report.status).toBe(200);
}
