// Issue 34, items 7 and 9: nginx, cloud load balancers and CDNs reuse an idle upstream connection
// for 60 s or more, so the API keeps one open longer (KEEP_ALIVE_TIMEOUT_MS, 65 s by default) and
// says so (`Keep-Alive: timeout=65`). A connection idle for 10 s is reused, on an API whose header
// and request timeouts are far below 10 s: they run from a request's first byte, never across the
// idle time between two, so they still close a connection that sends nothing within them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { rawConnection } from '../support/raw-http.ts';

const IDLE_MS = 10_000;
const VERSION = 'GET /api/plugin/v1/version HTTP/1.1\r\nHost: seedblock.test';

let api: ApiProcess;
beforeAll(async () => {
  api = await startApiProcess({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  await api?.stop();
});

describe('an idle keep-alive connection', () => {
  it(`is reused after ${IDLE_MS / 1000} s idle, while a silent connection is closed after the header timeout`, async () => {
    const kept = await rawConnection(api.port);
    const first = await kept.request(VERSION);
    const idleFrom = performance.now();
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe('keep-alive');
    const timeout = Number(/^timeout=(\d+)$/.exec(first.headers['keep-alive'] ?? '')?.[1]);
    expect(timeout).toBe(65);

    // Opened now, sending nothing: node answers 408 and closes it once HEADERS_TIMEOUT_MS (2 s)
    // has passed, well within the idle time below.
    const silent = await rawConnection(api.port);
    await silent.ended;
    expect(performance.now() - idleFrom).toBeLessThan(IDLE_MS);

    // The idle time is what is tested here: nothing to wait for but the clock.
    await new Promise((r) => setTimeout(r, IDLE_MS - (performance.now() - idleFrom)));
    expect(kept.closed).toBe(false);
    const second = await kept.request(VERSION);
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body)).toEqual(JSON.parse(first.body));
    kept.destroy();
  }, 30_000);
});
