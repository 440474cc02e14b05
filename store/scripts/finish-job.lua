--[[
  Stores a generated map (compressed, with its list metadata) and marks the job ready. The seed
  joins the seed list at the next dump order, so it is newest and pages already read never shift.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] now (ms)  [4] etag  [5] brotli body  [6] gzip body
        [7] roomCount  [8] spawns  [9] markers
  Touches: map:<seed>, seeds:by-dump, seeds:dump-order, seeds:known, job:<seed>, queue:active,
           queue:leases
  Returns: the seed's dump order.
]]
local prefix, seed, now = ARGV[1], ARGV[2], ARGV[3]
local mapKey = prefix .. 'map:' .. seed
local order = redis.call('HGET', mapKey, 'order')
if not order then
  order = redis.call('INCR', prefix .. 'seeds:dump-order')
  redis.call('HSET', mapKey, 'etag', ARGV[4], 'br', ARGV[5], 'gz', ARGV[6], 'roomCount', ARGV[7],
    'spawns', ARGV[8], 'markers', ARGV[9], 'dumpedAt', now, 'order', order)
  redis.call('ZADD', prefix .. 'seeds:by-dump', order, seed)
  redis.call('SADD', prefix .. 'seeds:known', seed)
end
redis.call('HSET', prefix .. 'job:' .. seed, 'status', 'ready', 'finishedAt', now)
redis.call('HDEL', prefix .. 'job:' .. seed, 'error')
redis.call('LREM', prefix .. 'queue:active', 1, seed)
redis.call('ZREM', prefix .. 'queue:leases', seed)
return tonumber(order)
