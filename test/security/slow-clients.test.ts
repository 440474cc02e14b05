// Slow clients (issue 22, finding 3): sockets that send all but the last 100 bytes of a
// 16,000-byte body hold neither memory nor the service. One client IP sends at most
// MAX_CONNECTIONS_PER_IP bodies at once (the rest are answered 429 and closed at once), and a body
// not finished within REQUEST_TIMEOUT_MS is closed. The suite runs a few hundred sockets with short
// timeouts; bench/slow-bodies.ts runs the same drill with 4,000 at the defaults.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { slowBodyDrill } from '../support/slow-bodies.ts';

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
  it('300 slow sockets: a report from another client is answered, memory stays bounded, every one is closed', async () => {
    const result = await slowBodyDrill(
      { port: api.port, pid: api.process.pid!, base: api.base },
      300,
      30_000,
    );
    expect(result.reportStatus).toBe(401); // an unknown key, looked up: the report was served
    expect(result.rssGrowthBytes).toBeLessThan(64 * MIB);
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
