import { createServer } from 'node:http';
import { Redis } from 'ioredis';

// The baseline of the map-read benchmark: the bare runtime, node:http + ioredis, sending the same
// stored bytes with one GET per request (bare:<seed>:<coding>, written by the bench), without a
// block check, limits, validation, logging or metrics.

const redis = new Redis(process.env.REDIS_URL!, { protocol: 2 });
const prefix = process.env.REDIS_PREFIX ?? 'sb:';
const MAPS = '/api/maps/';

createServer(async (req, res) => {
  const seed = req.url!.slice(MAPS.length);
  const accepted = req.headers['accept-encoding'] ?? '';
  const coding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : null;
  const body = await redis.getBuffer(`${prefix}bare:${seed}:${coding ?? 'json'}`);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res
    .writeHead(200, {
      'Cache-Control': 'public, no-cache',
      ETag: `"${seed}-${coding}"`,
      Vary: 'Accept-Encoding',
      'Content-Type': 'application/json; charset=utf-8',
      ...(coding ? { 'Content-Encoding': coding } : {}),
      'Content-Length': body.length,
    })
    .end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
