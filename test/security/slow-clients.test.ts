// Slow clients (issue 22, finding 3): sockets that send all but the last 100 bytes of a
// 16,000-byte body hold neither memory nor the service. One client IP sends at most
// MAX_CONNECTIONS_PER_IP bodies at once (the rest are answered 429 and closed at once), and a body
// not finished within REQUEST_TIMEOUT_MS is closed. The suite runs a few hundred sockets with short
// timeouts; bench/slow-bodies.ts runs the same drill with 4,000 at the defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type ApiProcess } from '../support/api-process.ts';
import { slowBodyDrill } from '../support/slow-bodies.ts';

const MIB = 2 ** 20;
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
