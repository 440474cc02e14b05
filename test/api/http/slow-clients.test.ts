// Slow clients (issue 22, finding 3): sockets that send all but the last 100 bytes of a
// 16,000-byte body hold neither memory nor the service, whether they come from one client IP or
// each from its own (X-Forwarded-For through the trusted loopback proxy). One client IP sends at
// most MAX_CONNECTIONS_PER_IP bodies at once (the rest are answered 429 and closed at once), the
// process receives at most MAX_BODIES_IN_FLIGHT (a newer one closes the oldest), and a body not
// finished within REQUEST_TIMEOUT_MS is closed. The suite runs a few hundred sockets with short
// timeouts; bench/slow-bodies.ts runs the same drill with 4,000 at the defaults.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiProcess, type ApiProcess } from '../../support/api-process.ts';
import { openSlowBodies, slowBodyDrill, type SlowClients } from '../../support/slow-bodies.ts';

const MIB = 2 ** 20;

/** Writes `raw` to the API and reads everything it answers until it closes the socket. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

function statusAndBody(answer: string): [number, unknown] {
  const [head, body] = answer.split('\r\n\r\n');
  expect(head).toMatch(/content-type: application\/json/i);
  return [Number(head!.split(' ')[1]), JSON.parse(body!)];
}
let api: ApiProcess;

beforeAll(async () => {
  api = await startApiProcess({
    HEADERS_TIMEOUT_MS: '2000',
    REQUEST_TIMEOUT_MS: '3000',
    RATE_LIMIT_MULTIPLIER: '1',
  });
});
afterAll(async () => {
  await api?.stop();
});

describe('slow bodies', () => {
  it.each<[SlowClients, string]>([
    ['one-ip', 'from one client IP'],
    ['distinct-xff', 'each from its own client IP'],
  ])(
    '300 slow sockets %s (%s): a report from another client is answered, memory stays bounded, every one is closed',
    async (clients) => {
      const result = await slowBodyDrill(
        { port: api.port, pid: api.process.pid!, base: api.base },
        300,
        30_000,
        clients,
      );
      expect(result.reportStatus).toBe(401); // an unknown key, looked up: the report was served
      expect(result.rssGrowthBytes).toBeLessThan(64 * MIB);
    },
    60_000,
  );
});

describe('past MAX_BODIES_IN_FLIGHT', () => {
  let capped: ApiProcess;
  beforeAll(async () => {
    // Long timeouts: any socket closed here was closed by the cap.
    capped = await startApiProcess({ MAX_BODIES_IN_FLIGHT: '40', REQUEST_TIMEOUT_MS: '60000' });
  });
  afterAll(async () => {
    await capped?.stop();
  });

  it('a newer body closes the oldest still arriving, and a report from another client is answered', async () => {
    // A claim reads its body first: each of these is held by the route until its body ends.
    const claim = new URL(`${capped.base}/v1/servers/claim`).pathname;
    const report = () =>
      fetch(`${capped.base}/plugin/v1/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
        body: JSON.stringify({ event: 'round_start', seed: 1, port: 7777 }),
      });
    const older = await openSlowBodies(capped.port, claim, 40, 'distinct-xff');
    // A read without a body (not counted) answered after the server has read every body sent
    // before it: the cap is full, none closed.
    await (await fetch(`${capped.base}/seeds`)).arrayBuffer();
    expect(older.closed()).toBe(0);
    const newer = await openSlowBodies(capped.port, claim, 30, 'distinct-xff');
    try {
      await vi.waitFor(() => expect(older.closed()).toBe(30), { timeout: 20_000, interval: 50 });
      expect(newer.closed()).toBe(0);
      // A body of its own, so it too closes the oldest: answered at once.
      expect((await report()).status).toBe(401);
    } finally {
      older.destroy();
      newer.destroy();
    }
  }, 60_000);
});

describe("node's own answers carry the spec's error body", () => {
  it('a request line that does not parse is 400 invalid request', async () => {
    const answer = await rawExchange(api.port, 'NOT A REQUEST\r\n\r\n');
    expect(statusAndBody(answer)).toEqual([400, { error: 'invalid request' }]);
  });

  it('headers past the size limit are 431 invalid request', async () => {
    const answer = await rawExchange(
      api.port,
      `GET /api/seeds HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(statusAndBody(answer)).toEqual([431, { error: 'invalid request' }]);
  });

  it('a body not finished within REQUEST_TIMEOUT_MS is 408 request timeout, then closed', async () => {
    const answer = await rawExchange(
      api.port,
      // A client of its own: the drill above may have spent the loopback address's limits.
      'POST /api/plugin/v1/claim HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.9\r\n' +
        'Content-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"code":',
    );
    expect(statusAndBody(answer)).toEqual([408, { error: 'request timeout' }]);
  }, 20_000);
});
