// The browser side of the end-to-end suites: the built viewer, Debian's Chromium driven by
// playwright-core (never a downloaded browser, one for the whole e2e project), and browser
// contexts that may only talk to 127.0.0.1. The server side is the usual in-process test API (startTestApi) with a real generator
// worker (startTestWorker) on the same Redis prefix and manual clock.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, BrowserServer, Page } from 'playwright-core';
import { inject } from 'vitest';
import { ensureDebianPackage } from '../../scripts/debian-package.ts';
import { buildViewer } from '../../viewer/build.ts';
import { DIST_DIR } from '../../viewer/dist-dir.ts';

/**
 * Debian's Chromium built as the old headless shell (package chromium-headless-shell, the same
 * Blink and V8 as the `chromium` package, as Playwright's own headless runs use): without the
 * full browser's windowing and compositing it draws the same pages for about a third of the CPU
 * (the player suite: 30 CPU-s of Chromium against 106), and the e2e files are most of the suite's.
 */
const CHROMIUM_COMMAND = 'chromium-headless-shell';

/** Headless, and quiet: no background requests of the browser's own (updates, sync, QUIC probes). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const VIEWER_DIR = fileURLToPath(new URL('../../viewer/', import.meta.url));

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/**
 * Builds the viewer (viewer/build.ts) when dist/index.html is missing or older than its sources,
 * so an e2e suite also works when run alone (`npm test` builds it first in `pretest`).
 */
export async function ensureViewerBuilt(): Promise<'built' | 'current'> {
  const index = join(DIST_DIR, 'index.html');
  const sources = Math.max(
    newestMtime(join(VIEWER_DIR, 'src')),
    newestMtime(join(VIEWER_DIR, '..', 'renderer')),
    newestMtime(join(VIEWER_DIR, 'favicon.svg')),
    newestMtime(join(VIEWER_DIR, 'build.ts')),
    newestMtime(join(VIEWER_DIR, 'index-html.ts')),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return 'current';
  await buildViewer();
  return 'built';
}

/**
 * Debian's Chromium as a Playwright browser server on 127.0.0.1, for the e2e project's global setup:
 * one browser for every file of the project, each test in contexts of its own.
 */
export function launchChromiumServer(): Promise<BrowserServer> {
  ensureDebianPackage(CHROMIUM_COMMAND, CHROMIUM_COMMAND);
  return chromium.launchServer({
    executablePath: `/usr/bin/${CHROMIUM_COMMAND}`,
    headless: true,
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
}

/** The e2e project's Chromium (test/e2e/global-setup.ts); closing what this returns only disconnects. */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'));
}

// Chromium logs every 4xx/5xx answer of fetch as a console error; those answers are the API
// working as specified (403 blocked, 202 is not one), so they are not page problems.
const HTTP_STATUS_LOG = /^Failed to load resource: the server responded with a status of \d+/;

export interface GuardedContext {
  readonly context: BrowserContext;
  /** Every request the pages tried to send anywhere but 127.0.0.1 (each one was aborted). */
  readonly offLoopback: string[];
  /** Uncaught page errors and console errors (CSP violations land here too). */
  readonly problems: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * A browser context whose pages can only reach 127.0.0.1: any other request is aborted and
 * recorded in `offLoopback`, which a test then expects to be empty.
 */
export async function guardedContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<GuardedContext> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  // The map viewer writes what each frame drew to data-* attributes only when asked (test-hooks.ts).
  await context.addInitScript(() => {
    (globalThis as { seedblockTestHooks?: boolean }).seedblockTestHooks = true;
  });
  const offLoopback: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    let host = '';
    try {
      host = new URL(url).hostname;
    } catch {
      // not a URL a request can go to
    }
    if (host === '127.0.0.1') return route.continue();
    offLoopback.push(url);
    return route.abort('blockedbyclient');
  });
  const watched = new WeakSet<Page>();
  const watch = (page: Page): void => {
    if (watched.has(page)) return;
    watched.add(page);
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !HTTP_STATUS_LOG.test(msg.text()))
        problems.push(`console: ${msg.text()}`);
    });
    page.on('websocket', (ws) => offLoopback.push(ws.url()));
  };
  context.on('page', watch);
  return {
    context,
    offLoopback,
    problems,
    async newPage() {
      const page = await context.newPage();
      watch(page);
      return page;
    },
    close: () => context.close(),
  };
}
