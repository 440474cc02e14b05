// Issue 34, finding 9 and item 8: one peer address held every socket with connections that sent
// nothing (with MAX_CONNECTIONS=300, 300 silent sockets locked every other client out; on the
// default config one address held 2,000). Now the connections one peer holds without a request
// under way are capped (MAX_IDLE_CONNECTIONS_PER_PEER, 64): silent ones past a second's grace
// always, kept-alive ones once the process is full, when a newcomer takes the place of the longest
// idle connection of a peer over the cap. A trusted proxy that forwards is exempt. Peers are
// distinct addresses of 127.0.0.0/8; the timeouts are long, so only the cap closes anything here.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiProcess, type ApiProcess } from '../../support/api-process.ts';
import { rawConnection, type RawConnection } from '../../support/raw-http.ts';

const PER_PEER = 64; // MAX_IDLE_CONNECTIONS_PER_PEER's default
const LONG = { HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '60000' };
const HEALTH = 'GET /healthz HTTP/1.1\r\nHost: seedblock.test';
const WAIT = { timeout: 20_000, interval: 50 };

/** `count` connections from `address`, opened together; `send` is written on each once open. */
async function openMany(port: number, address: string, count: number, send?: string) {
  const conns = await Promise.all(Array.from({ length: count }, () => rawConnection(port, address)));
  if (send !== undefined) {
    const answers = await Promise.all(conns.map((c) => c.request(send)));
    expect(answers.map((a) => a.status)).toEqual(Array(count).fill(200));
  }
  return conns;
}
const closedOf = (conns: RawConnection[]) => conns.filter((c) => c.closed).length;
const destroyAll = (...groups: RawConnection[][]) => groups.flat().forEach((c) => c.destroy());

let tight: ApiProcess;
let roomy: ApiProcess;
beforeAll(async () => {
  [tight, roomy] = await Promise.all([
    startApiProcess({ ...LONG, MAX_CONNECTIONS: '300' }),
    startApiProcess({ ...LONG, MAX_CONNECTIONS: '400' }),
  ]);
});
afterAll(async () => {
  await Promise.all([tight?.stop(), roomy?.stop()]);
});

describe('silent connections from one peer (MAX_CONNECTIONS=300)', () => {
  it('400 from one address do not stop a request from another; past the grace it holds 64', async () => {
    const hog = await openMany(tight.port, '127.0.0.2', 400);
    // The 100 past MAX_CONNECTIONS find no other peer to make room and are closed at once.
    await vi.waitFor(() => expect(closedOf(hog)).toBeGreaterThanOrEqual(100), WAIT);
    // The process is full of the hog's sockets: another address takes the place of one of them.
    const other = await rawConnection(tight.port, '127.0.0.3');
    expect((await other.request(HEALTH)).status).toBe(200);
    expect((await fetch(`${tight.base}/plugin/v1/version`)).status).toBe(200);
    // Past a second silent, the hog keeps its 64, which still serve a request when it sends one.
    await vi.waitFor(() => expect(closedOf(hog)).toBe(400 - PER_PEER), WAIT);
    const kept = hog.filter((c) => !c.closed);
    expect((await kept[0]!.request(HEALTH)).status).toBe(200);
    destroyAll(hog, [other]);
  });

  it('a trusted proxy that forwards is exempt; a trusted peer that forwards nothing is not', async () => {
    // Both addresses are loopback, which TRUST_PROXY trusts by default.
    const proxyHead = `${HEALTH}\r\nX-Forwarded-For: 198.51.100.20`;
    const forwarded = await openMany(tight.port, '127.0.0.7', 10, proxyHead);
    const preconnected = await openMany(tight.port, '127.0.0.7', PER_PEER + 6);
    const silent = await openMany(tight.port, '127.0.0.8', PER_PEER + 6);
    await vi.waitFor(() => expect(closedOf(silent)).toBe(6), WAIT);
    // The same sweep went over the proxy's connections, every one older than the grace.
    expect(closedOf(preconnected) + closedOf(forwarded)).toBe(0);
    destroyAll(forwarded, preconnected, silent);
  });
});

describe('kept-alive idle connections (MAX_CONNECTIONS=400)', () => {
  it('one client holds as many as there is room for, and gives way only when the process is full', async () => {
    const kept = await openMany(roomy.port, '127.0.0.4', 250, HEALTH);
    // A sweep past the grace of every kept connection: it closes silent ones only.
    const witness = await openMany(roomy.port, '127.0.0.6', PER_PEER + 6);
    await vi.waitFor(() => expect(closedOf(witness)).toBe(6), WAIT);
    expect(closedOf(kept)).toBe(0);
    // 250 + 64 open: the next 86 fit, the last 14 each take the place of one of the 250.
    const newcomers = await openMany(roomy.port, '127.0.0.5', 100, HEALTH);
    expect(closedOf(newcomers)).toBe(0);
    await vi.waitFor(() => expect(closedOf(kept)).toBe(14), WAIT);
    expect(closedOf(witness)).toBe(6);
    destroyAll(kept, witness, newcomers);
  });
});
