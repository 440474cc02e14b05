import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { newCredential } from '../../store/credentials.ts';

// The slow-body drill of issue 22: sockets that send a report's headers and all but the last 100
// bytes of a 16,000-byte body, then wait. Used by test/api/http/slow-clients.test.ts (a few
// hundred sockets) and bench/slow-bodies.ts (4,000). Loopback only.

export const BODY_BYTES = 16_000;
export const HELD_BACK_BYTES = 100;

export interface SlowBodies {
  readonly sockets: number;
  /** Sockets the server has closed (or reset) so far. */
  closed(): number;
  /** Whether the `i`th socket (in the order opened) is still open. */
  isOpen(i: number): boolean;
  /** Closes what is still open (clean-up). */
  destroy(): void;
}

/**
 * Where the slow sockets say they come from: all from 127.0.0.1 itself (one client IP), or each
 * through the trusted loopback proxy with an X-Forwarded-For of its own (as many client IPs as
 * sockets: 10.x.y.z, only header text).
 */
export type SlowClients = 'one-ip' | 'distinct-xff';

/** The X-Forwarded-For of the `i`th slow socket of the distinct-xff variant. */
export const distinctIp = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** Opens `count` slow-body sockets to 127.0.0.1:`port`, `batch` connects at a time. */
export async function openSlowBodies(
  port: number,
  path: string,
  count: number,
  clients: SlowClients = 'one-ip',
  batch = 200,
): Promise<SlowBodies> {
  const head = (i: number) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    (clients === 'distinct-xff' ? `X-Forwarded-For: ${distinctIp(i)}\r\n` : '') +
    `Authorization: Bearer sbk_slow\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`;
  const body = `{"pad":"${'p'.repeat(BODY_BYTES - 10)}"}`.slice(0, BODY_BYTES - HELD_BACK_BYTES);
  const sockets: Socket[] = [];
  let closed = 0;
  for (let start = 0; start < count; start += batch) {
    const opened = Array.from({ length: Math.min(batch, count - start) }, (_, n) => {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', () => {}); // a reset is the server closing it
      socket.once('close', () => closed++);
      socket.on('data', () => {}); // the server's answer, if any, is read and dropped
      return new Promise<void>((resolve) => {
        socket.once('connect', () => socket.write(head(start + n) + body, () => resolve()));
        socket.once('close', () => resolve());
      });
    });
    await Promise.all(opened);
  }
  return {
    sockets: count,
    closed: () => closed,
    isOpen: (i) => !sockets[i]!.closed,
    destroy: () => sockets.forEach((s) => s.destroy()),
  };
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) * 1024;
}

export interface DrillResult {
  /** Status and time of a report from another client while the slow sockets are open. */
  reportStatus: number;
  reportMs: number;
  /** Most RSS the API gained over its start, sampled every 50 ms until every socket closed. */
  rssGrowthBytes: number;
  /** From the last socket written to the last one closed by the server. */
  allClosedMs: number;
}

/**
 * Opens `count` slow-body sockets (from `clients`) to the API process `pid` at `port`, times one
 * report from another client (198.51.100.7 through the trusted loopback proxy), and waits up to
 * `closeWithinMs` for the server to close every slow socket.
 */
export async function slowBodyDrill(
  api: { port: number; pid: number; base: string },
  count: number,
  closeWithinMs: number,
  clients: SlowClients = 'one-ip',
): Promise<DrillResult> {
  const before = rssBytes(api.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(api.pid))), 50);
  const slow = await openSlowBodies(
    api.port,
    new URL(`${api.base}/plugin/v1/report`).pathname,
    count,
    clients,
  );
  try {
    const opened = performance.now();
    const started = performance.now();
    const report = await fetch(`${api.base}/plugin/v1/report`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${newCredential()}`, // well formed, so it is looked up
        'x-forwarded-for': '198.51.100.7',
      },
      body: JSON.stringify({ event: 'round_start', seed: 1, port: 7777 }),
    });
    await report.arrayBuffer();
    const reportMs = performance.now() - started;
    while (slow.closed() < count && performance.now() - opened < closeWithinMs) {
      await new Promise((r) => setTimeout(r, 50));
    }
    peak = Math.max(peak, rssBytes(api.pid));
    if (slow.closed() < count) throw new Error(`${count - slow.closed()} slow sockets still open`);
    return {
      reportStatus: report.status,
      reportMs,
      rssGrowthBytes: peak - before,
      allClosedMs: performance.now() - opened,
    };
  } finally {
    clearInterval(sampler);
    slow.destroy();
  }
}
