--[[
  Stores a generated map: the seed joins the durable index at the next dump order (so it is
  newest and pages already read never shift), its bodies go to the map cache when given and
  they fit under the cap, and the job is done (its record goes: the index now says `ready`).

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] roomCount  [4] spawns  [5] markers  [6] map cache cap (bytes)
        [7] etag  [8] brotli body  [9] gzip body  ([7]-[9] empty: nothing to cache)
  Touches: what indexSeed and cacheMap touch; seeds:detected, seeds:known-undumped (read/SREM),
           job:<seed>, queue:active, queue:leases
  Returns: the seed's dump order.
]]
--- @include "seed-index"
--- @include "map-cache"

local prefix, seed = ARGV[1], ARGV[2]
local order = seedOrder(prefix, seed)
if not order then
  local detected = redis.call('SISMEMBER', prefix .. 'seeds:detected', seed)
  order = indexSeed(prefix, seed, ARGV[3], ARGV[4], ARGV[5], detected)
  redis.call('SREM', prefix .. 'seeds:known-undumped', seed)
end
if ARGV[7] ~= '' then cacheMap(prefix, seed, ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[6])) end
redis.call('DEL', prefix .. 'job:' .. seed)
redis.call('LREM', prefix .. 'queue:active', 1, seed)
redis.call('ZREM', prefix .. 'queue:leases', seed)
return order
