--[[
  The map cache: compressed map bodies kept in Redis under a hard cap of bytes, least recently
  read evicted first. Maps are derived data (a pure function of the seed), so anything evicted is
  rebuilt on read; the cap keeps anonymous map traffic from ever filling the Redis that windows,
  budgets and credentials live in. Redis's own maxmemory-policy is not used: it would evict
  those too.

  Each entry is charged what it really costs Redis, not just its body length: each body rounded
  up to the allocator's size class, plus MAP_CACHE_ENTRY_OVERHEAD for its keys, ETag and LRU
  entry. So `bytes` never exceeds the cap, and neither does the memory behind it.

  Keys (from the prefix): mapcache:<seed> (hash etag, br, gz, charge), mapcache:lru (zset seed by
  recency tick), mapcache:state (hash bytes, tick)
]]
--- @include "memory-headroom"

-- Measured (INFO used_memory over 2,000 entries, Redis 7.0, jemalloc): 523 B with a 3- or
-- 10-character REDIS_PREFIX, 555 B with the longest allowed (40): the entry's key, hash table,
-- field names, ETag and charge, and its LRU skiplist node, member and dict entry.
local MAP_CACHE_ENTRY_OVERHEAD = 576

-- jemalloc's size class of an allocation of n bytes: four classes per doubling above 64 bytes.
local function allocation(n)
  if n <= 64 then return 64 end
  local step = 2 ^ math.max(4, math.floor(math.log(n - 1) / math.log(2)) - 2)
  return math.ceil(n / step) * step
end

local function mapCacheCharge(br, gz)
  -- sds header (up to 9 bytes) and terminator come with each body.
  return allocation(#br + 10) + allocation(#gz + 10) + MAP_CACHE_ENTRY_OVERHEAD
end

local function nextTick(prefix)
  return redis.call('HINCRBY', prefix .. 'mapcache:state', 'tick', 1)
end

--- Marks a cached map as read just now; false when it is not cached.
local function touchCachedMap(prefix, seed)
  if not redis.call('ZSCORE', prefix .. 'mapcache:lru', seed) then return false end
  redis.call('ZADD', prefix .. 'mapcache:lru', nextTick(prefix), seed)
  return true
end

--- Evicts least recently read maps until `room` more bytes fit under `cap`; returns how many.
local function evictCachedMaps(prefix, cap, room)
  local stateKey, lruKey = prefix .. 'mapcache:state', prefix .. 'mapcache:lru'
  local bytes = tonumber(redis.call('HGET', stateKey, 'bytes') or '0')
  local evicted = 0
  while bytes + room > cap do
    local oldest = redis.call('ZPOPMIN', lruKey)
    if #oldest == 0 then
      -- Nothing left to evict: whatever `bytes` still says is stale; it holds no body.
      bytes = 0
      break
    end
    local entryKey = prefix .. 'mapcache:' .. oldest[1]
    bytes = bytes - tonumber(redis.call('HGET', entryKey, 'charge') or '0')
    redis.call('DEL', entryKey)
    evicted = evicted + 1
  end
  redis.call('HSET', stateKey, 'bytes', math.max(0, bytes))
  return evicted
end

--- Drops a cached map (one of another generator version, say); false when it was not cached.
local function dropCachedMap(prefix, seed)
  local entryKey = prefix .. 'mapcache:' .. seed
  local charge = redis.call('HGET', entryKey, 'charge')
  if not charge then return false end
  redis.call('DEL', entryKey)
  redis.call('ZREM', prefix .. 'mapcache:lru', seed)
  redis.call('HINCRBY', prefix .. 'mapcache:state', 'bytes', -tonumber(charge))
  return true
end

--- Keeps a map's bodies when they fit under `cap` (0 keeps none) and Redis has room to spare;
--- returns true when cached. An entry with another ETag (an older generator's bytes) is
--- replaced.
local function cacheMap(prefix, seed, etag, br, gz, cap)
  local held = redis.call('HGET', prefix .. 'mapcache:' .. seed, 'etag')
  if held == etag and touchCachedMap(prefix, seed) then return true end
  if held then dropCachedMap(prefix, seed) end
  local charge = mapCacheCharge(br, gz)
  if charge > cap or memoryTight() then return false end
  evictCachedMaps(prefix, cap, charge)
  redis.call('HSET', prefix .. 'mapcache:' .. seed, 'etag', etag, 'br', br, 'gz', gz, 'charge', charge)
  redis.call('ZADD', prefix .. 'mapcache:lru', nextTick(prefix), seed)
  redis.call('HINCRBY', prefix .. 'mapcache:state', 'bytes', charge)
  return true
end
