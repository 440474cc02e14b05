import express from 'express';
import { Redis } from 'ioredis';
import { brotliDecompressSync } from 'node:zlib';

// The baseline of the cached-map benchmark: a bare Express + ioredis handler doing the same
// single Redis round trip as our read path (block check + map fetch) and sending the same bytes,
// without limits, validation, logging or metrics.

const LUA = `
if redis.call('SISMEMBER', ARGV[1] .. 'blocklist', ARGV[2]) == 1 then return { 'blocked' } end
local endsAt = redis.call('HGET', ARGV[1] .. 'window:' .. ARGV[2], 'endsAt')
if endsAt and tonumber(endsAt) > tonumber(ARGV[3]) then return { 'blocked', endsAt } end
return redis.call('HMGET', ARGV[1] .. 'map:' .. ARGV[2], 'etag', ARGV[4])
`;

const redis = new Redis(process.env.REDIS_URL!, { protocol: 2 }) as Redis & {
  readMapBuffer(...args: (string | number)[]): Promise<Buffer[]>;
};
redis.defineCommand('readMap', { numberOfKeys: 0, lua: LUA });
const prefix = process.env.REDIS_PREFIX ?? 'sb:';
const app = express();
app.get('/api/maps/:seed', async (req, res) => {
  const accepted = req.acceptsEncodings('br', 'gzip');
  const field = accepted === 'gzip' ? 'gz' : 'br';
  const [etag, body] = await redis.readMapBuffer(prefix, req.params.seed, Date.now(), field);
  if (!etag || !body) {
    res.status(404).json({ error: 'not found' });
    return;
  }
  res.set({
    'Cache-Control': 'public, no-cache',
    ETag: etag.toString(),
    Vary: 'Accept-Encoding',
    'Content-Type': 'application/json; charset=utf-8',
  });
  if (accepted === 'br' || accepted === 'gzip') {
    res.set('Content-Encoding', accepted).send(body);
  } else {
    res.send(brotliDecompressSync(body));
  }
});
app.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
