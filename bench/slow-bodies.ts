// The slow-body drill of issue 22 at full size (not part of `npm test`, which runs a few hundred
// sockets): 4,000 sockets each send all but the last 100 bytes of a 16,000-byte report body to a
// freshly started API at its default settings, while one report from another client is timed.
// Two variants, each against its own fresh API: every socket from 127.0.0.1 (one client IP), and
// every socket with an X-Forwarded-For of its own through the trusted loopback proxy (4,000 client
// IPs). SLOW_CLIENTS=one-ip or distinct-xff runs one of them. Needs REDIS_URL; the API listens on
// 127.0.0.1:SLOW_PORT (default 48010). Run: REDIS_URL=… npx tsx bench/slow-bodies.ts
import { portOpen } from '../scripts/redis-server.ts';
import { slowBodyDrill, type SlowClients } from '../test/support/slow-bodies.ts';
import { round, spawnEntry } from './lib.ts';

const port = Number(process.env.SLOW_PORT ?? 48010);
const count = Number(process.env.SLOW_SOCKETS ?? 4_000);
const variants: SlowClients[] =
  process.env.SLOW_CLIENTS === 'one-ip' || process.env.SLOW_CLIENTS === 'distinct-xff'
    ? [process.env.SLOW_CLIENTS]
    : ['one-ip', 'distinct-xff'];

const rows: Record<string, Record<string, number>> = {};
for (const clients of variants) {
  const api = spawnEntry('api/main.ts', {
    HOST: '127.0.0.1',
    PORT: String(port),
    REDIS_PREFIX: `slow${process.pid}:`,
    LOG_LEVEL: 'warn',
  });
  try {
    while (!(await portOpen(port))) await new Promise((r) => setTimeout(r, 100));
    const base = `http://127.0.0.1:${port}/api`;
    const result = await slowBodyDrill({ port, pid: api.child.pid!, base }, count, 30_000, clients);
    rows[`${count} slow bodies, ${clients}`] = {
      'report status': result.reportStatus,
      'report ms (goal < 1000)': round(result.reportMs, 1),
      'RSS growth MiB (goal ≤ 64)': round(result.rssGrowthBytes / 2 ** 20, 1),
      'all closed after s (goal ≤ 30)': round(result.allClosedMs / 1000, 1),
    };
  } finally {
    await api.stop();
  }
}
console.table(rows);
