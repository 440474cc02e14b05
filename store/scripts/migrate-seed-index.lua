--[[
  Moves seeds from the layout before the seed index (a map:<seed> hash each, with both compressed
  bodies, listed by dump order in the sorted set seeds:by-dump; sighted seeds in seeds:known) into
  the index, up to `batch` at a time. Each seed keeps its dump order (the old orders are reserved
  before the first new dump takes one). What can be rebuilt goes: the bodies, the finished jobs.
  Safe to run from several processes at once, and again when done.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] batch size
  Touches: seeds:by-dump, seeds:dump-order, seeds:known, map:<seed>, job:<seed>, seeds:detected
           (read), seeds:known-undumped, the seed index
  Returns: { dumped seeds moved by this call, entries of the old layout left to move }
]]
--- @include "seed-index"

local prefix, batch = ARGV[1], tonumber(ARGV[2])
local oldList, oldKnown = prefix .. 'seeds:by-dump', prefix .. 'seeds:known'

reserveOldOrders(prefix)

local moved = redis.call('ZRANGE', oldList, 0, batch - 1, 'WITHSCORES')
for i = 1, #moved, 2 do
  local seed, order = moved[i], tonumber(moved[i + 1])
  local mapKey = prefix .. 'map:' .. seed
  -- A seed dumped again since the upgrade is indexed already: its old order stays a hole.
  if not seedOrder(prefix, seed) then
    local m = redis.call('HMGET', mapKey, 'roomCount', 'spawns', 'markers')
    local detected = redis.call('SISMEMBER', prefix .. 'seeds:detected', seed)
    placeSeed(prefix, seed, order, m[1] or 0, m[2] or 0, m[3] or 0, detected)
  end
  redis.call('DEL', mapKey)
  if redis.call('HGET', prefix .. 'job:' .. seed, 'status') == 'ready' then
    redis.call('DEL', prefix .. 'job:' .. seed)
  end
  redis.call('ZREM', oldList, seed)
end

-- Then the known seeds: those never dumped are the ones only sighted so far.
if #moved == 0 then
  for _, seed in ipairs(redis.call('SPOP', oldKnown, batch)) do
    if not seedOrder(prefix, seed) then redis.call('SADD', prefix .. 'seeds:known-undumped', seed) end
  end
end
return { #moved / 2, redis.call('ZCARD', oldList) + redis.call('SCARD', oldKnown) }
