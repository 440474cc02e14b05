// The API reference page (GET /docs) in Debian's headless Chromium against the in-process API on
// loopback: it shows every operation of the served OpenAPI document with a request and a response
// example, under the viewer's Content-Security-Policy, asks nothing of any other origin, logs no
// console error, and the viewer links to it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOperations } from '../../api/openapi.ts';
import { VIEWER_CSP } from '../../api/viewer-files.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import {
  ensureViewerBuilt,
  guardedContext,
  connectChromium,
  type GuardedContext,
} from '../support/e2e-stack.ts';
import { get } from '../support/http.ts';

type Document = { paths: Record<string, Record<string, unknown>> };

let api: TestApi;
let browser: Browser;
beforeAll(async () => {
  await ensureViewerBuilt();
  api = await startTestApi();
  browser = await connectChromium();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** A context that records every request its pages send. */
async function watched(): Promise<GuardedContext & { requests: string[] }> {
  const c = await guardedContext(browser);
  const requests: string[] = [];
  c.context.on('request', (req) => requests.push(req.url()));
  return Object.assign(c, { requests });
}

describe('GET /docs in Chromium', () => {
  it('renders every operation of the OpenAPI document with a request and a response example', async () => {
    const doc = (await get<Document>(`${api.base}/openapi.json`)).body;
    const operations = documentOperations(doc);
    expect(operations.length).toBeGreaterThan(10);

    const c = await watched();
    const page = await c.newPage();
    const res = await page.goto(`${api.url}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toBe(VIEWER_CSP);

    for (const { path, method, atRoot } of operations) {
      const section = page.locator(`section.operation[data-path="${path}"][data-method="${method}"]`);
      const what = `${method.toUpperCase()} ${path}`;
      expect(await section.count(), what).toBe(1);
      // Sections off screen are laid out only once scrolled to (content-visibility: auto).
      await section.scrollIntoViewIfNeeded();
      // Waits until the request block is drawn (the section is laid out after the scroll).
      await section.locator('h3:text-is("Request") + pre').waitFor({ state: 'visible', timeout: 10_000 });
      expect(await section.locator('h2').textContent(), what).toContain(`${atRoot ? '' : '/api'}${path}`);
      expect(await section.locator('.answer pre').count(), `${what} response examples`).toBeGreaterThan(0);
      // The table of contents reaches it.
      const id = await section.getAttribute('id');
      expect(await page.locator(`nav a[href="#${id}"]`).count(), what).toBe(1);
    }
    // The report's answer shows the reason field of a window that did not open, in its field table.
    const report = page.locator('section[data-path="/plugin/v1/report"]');
    await report.scrollIntoViewIfNeeded();
    await report.locator('h3:text-is("Request") + pre').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await report.locator('table:has(caption:text-is("Fields of 200"))').textContent()).toContain(
      'not_open',
    );
    expect(await report.locator('table:has(caption:text-is("Body fields")) td').first().textContent()).toBe(
      'event',
    );

    // Its own stylesheet applied under the strict CSP (the viewer's dark background).
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(16, 20, 24)',
    );
    expect(c.requests.length).toBeGreaterThan(1);
    expect(c.requests.filter((url) => new URL(url).origin !== api.url)).toEqual([]);
    expect(c.offLoopback).toEqual([]);
    expect(c.problems).toEqual([]);
    await c.close();
  });

  it("is linked from the viewer's footer", async () => {
    const c = await watched();
    const page = await c.newPage();
    await page.goto(`${api.url}/stats`);
    await page.locator('footer a[href$="/docs"]').click();
    await page.waitForURL(`${api.url}/docs`);
    expect(await page.locator('h1').innerText()).toContain('API');
    expect(c.offLoopback).toEqual([]);
    expect(c.problems).toEqual([]);
    await c.close();
  });
});
