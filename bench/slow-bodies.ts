// The slow-body drill of issue 22 at full size (not part of `npm test`, which runs 300 sockets):
// 4,000 sockets each send all but the last 100 bytes of a 16,000-byte report body to an API at
// its default settings, while one report from another client is timed. Needs REDIS_URL; the API
// listens on 127.0.0.1:SLOW_PORT (default 48010). Run: REDIS_URL=… npx tsx bench/slow-bodies.ts
import { portOpen } from '../scripts/redis-server.ts';
import { slowBodyDrill } from '../test/support/slow-bodies.ts';
import { round, spawnEntry } from './lib.ts';

const port = Number(process.env.SLOW_PORT ?? 48010);
const count = Number(process.env.SLOW_SOCKETS ?? 4_000);
const api = spawnEntry('api/main.ts', {
  HOST: '127.0.0.1',
  PORT: String(port),
  REDIS_PREFIX: `slow${process.pid}:`,
  LOG_LEVEL: 'warn',
});
try {
  while (!(await portOpen(port))) await new Promise((r) => setTimeout(r, 100));
  const base = `http://127.0.0.1:${port}/api`;
  const result = await slowBodyDrill({ port, pid: api.child.pid!, base }, count, 30_000);
  console.table({
    [`${count} slow bodies`]: {
      'report status': result.reportStatus,
      'report ms (goal < 1000)': round(result.reportMs, 1),
      'RSS growth MiB (goal ≤ 64)': round(result.rssGrowthBytes / 2 ** 20, 1),
      'all closed after s (goal ≤ 30)': round(result.allClosedMs / 1000, 1),
    },
  });
} finally {
  await api.stop();
}
