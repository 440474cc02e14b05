import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { defineScripts, type ScriptCommands } from '../store/scripts/index.ts';

// The baseline of the report benchmark: the bare runtime, node:http + ioredis (a plain connection,
// as bare-server.ts's), that parses the JSON body and runs the block engine's script
// (report-seed.lua) with one EVALSHA, without limits, validation, logging or metrics. The key's
// server id comes from a table in memory (BENCH_KEYS_FILE: `credential serverId` per line, written
// by the bench), not from Redis.

const redis = new Redis(process.env.REDIS_URL!, { protocol: 2 }) as Redis & ScriptCommands;
defineScripts(redis);
const prefix = process.env.REDIS_PREFIX ?? 'sb:';
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
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { seed: number; event: string };
    const serverId = serverIds.get(req.headers.authorization?.slice('Bearer '.length) ?? '') ?? '';
    const [outcome, until] = await redis.reportSeed(
      prefix,
      serverId,
      'http',
      body.seed,
      body.event,
      '', // Redis's clock (includes/clock.lua), as the API's scripts read it
    );
    const blockedUntil = until === '' ? null : new Date(Number(until)).toISOString();
    const answer = JSON.stringify({ ok: outcome !== 'revoked', blockedUntil });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
    res.end(answer);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
