import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { openStore, redisReady, type ReportEvent } from '../store/index.ts';

// The baseline of the report benchmark: the bare runtime, node:http + ioredis, that parses the JSON
// body and runs the same block engine script (report-seed.lua) with one EVALSHA, without limits,
// validation, logging or metrics. The key's server id comes from a table in memory
// (BENCH_KEYS_FILE: `credential serverId` per line, written by the bench), not from Redis.

// The store's own ioredis connection and wrapper of report-seed.lua: one EVALSHA per call.
const store = openStore({
  redisUrl: process.env.REDIS_URL!,
  prefix: process.env.REDIS_PREFIX ?? 'sb:',
  clock: 'system',
  name: 'bench-bare-report',
});
// Listening only once Redis is (the connection has no offline queue).
await redisReady(store.ctx.redis);
const serverIds = new Map(
  readFileSync(process.env.BENCH_KEYS_FILE!, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ') as [string, string]),
);

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { seed: number; event: ReportEvent };
    const serverId = serverIds.get(req.headers.authorization?.slice('Bearer '.length) ?? '') ?? '';
    const decision = await store.reportSeed({ serverId, kind: 'http', seed: body.seed, event: body.event });
    const { blockedUntil: until } = decision;
    const blockedUntil = until === null ? null : new Date(until).toISOString();
    const answer = JSON.stringify({ ok: decision.outcome !== 'revoked', blockedUntil });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
    res.end(answer);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
