--[[
  The durable index of dumped seeds: all that is kept of a generated map, since its bytes are a
  pure function of the seed (spec 2.5: roomCount, spawns, markers, detected; plus dump order).
  About 45 bytes of Redis per seed, in two structures:

  - seeds:list:<order div 128>: the list entries of 128 consecutive dump orders, one string of
    fixed-width entries, so a page of the seed list (spec 4.9) is a GETRANGE or two. An entry is
    LIST_ENTRY bytes: seed (10), roomCount (4), spawns (6), markers (3), detected (1), each
    right-aligned decimal.
  - seeds:by-seed:<bucket>: field <seed>, value <order>, in small listpack-encoded hashes.
    Finds a seed's order (is it dumped? where does a cursor point?). Buckets are split one at a
    time as seeds are added (linear hashing), so each holds about INDEX_BUCKET_LOAD seeds at any
    scale and stays within Redis's listpack limit (128 entries).
  - seeds:index: fields seeds (how many are indexed), dumped (the newest dump order), level and
    split (linear hashing). Orders are never reused; a slot never written (an order reserved by
    the migration from the old layout whose seed was dumped again meanwhile) is all zero bytes.

  Keys (from the prefix): seeds:index, seeds:by-seed:<n>, seeds:list:<n>
]]
local LIST_CHUNK = 128
local LIST_ENTRY = 24
local INDEX_BUCKETS_MIN = 16
local INDEX_BUCKET_LOAD = 48

-- A uniform 32-bit hash, so seeds that share low bits (all odd, multiples of 1024) still spread.
local function seedHash(seed)
  return tonumber(string.sub(redis.sha1hex(tostring(seed)), 1, 8), 16)
end

--- seeds (how many are indexed), level and split (linear hashing), dumped (the newest dump order).
local function indexState(prefix)
  local s = redis.call('HMGET', prefix .. 'seeds:index', 'seeds', 'level', 'split', 'dumped')
  return tonumber(s[1] or '0'), tonumber(s[2] or '0'), tonumber(s[3] or '0'), tonumber(s[4] or '0')
end

local function seedBucket(prefix, hash, level, split)
  local n = INDEX_BUCKETS_MIN * 2 ^ level
  local b = hash % n
  if b < split then b = hash % (2 * n) end
  return prefix .. 'seeds:by-seed:' .. string.format('%d', b)
end

--- The seed's dump order, or nil when it has no map yet.
local function seedOrder(prefix, seed)
  local _, level, split = indexState(prefix)
  local order = redis.call('HGET', seedBucket(prefix, seedHash(seed), level, split), seed)
  return order and tonumber(order)
end

--- Where a dump order's list entry is: its key, and the entry's index in it.
local function listSlot(prefix, order)
  return prefix .. 'seeds:list:' .. string.format('%d', math.floor(order / LIST_CHUNK)), order % LIST_CHUNK
end

local function listEntry(seed, roomCount, spawns, markers, detected)
  local entry = string.format('%10d%4d%6d%3d%1d', seed, roomCount, spawns, markers, detected)
  if #entry ~= LIST_ENTRY then error('seed list entry out of range: ' .. entry) end
  return entry
end

-- Moves the seeds of bucket `split` whose hash says so into the new bucket `split + n`. Both are
-- written afresh, so a bucket that ever grew past the listpack limit is compact again. Returns the
-- new level and split.
local function splitBucket(prefix, level, split)
  local n = INDEX_BUCKETS_MIN * 2 ^ level
  local old = prefix .. 'seeds:by-seed:' .. string.format('%d', split)
  local new = prefix .. 'seeds:by-seed:' .. string.format('%d', split + n)
  local entries = redis.call('HGETALL', old)
  local stay, move = {}, {}
  for i = 1, #entries, 2 do
    local target = (seedHash(entries[i]) % (2 * n) == split) and stay or move
    table.insert(target, entries[i])
    table.insert(target, entries[i + 1])
  end
  redis.call('DEL', old)
  if #stay > 0 then redis.call('HSET', old, unpack(stay)) end
  if #move > 0 then redis.call('HSET', new, unpack(move)) end
  split = split + 1
  if split == n then level, split = level + 1, 0 end
  redis.call('HSET', prefix .. 'seeds:index', 'level', level, 'split', split)
  return level, split
end

--- Writes a seed's list entry at `order` and makes it findable (it must not be indexed yet).
local function placeSeed(prefix, seed, order, roomCount, spawns, markers, detected)
  local _, level, split = indexState(prefix)
  local key, index = listSlot(prefix, order)
  redis.call('SETRANGE', key, index * LIST_ENTRY, listEntry(seed, roomCount, spawns, markers, detected))
  redis.call('HSET', seedBucket(prefix, seedHash(seed), level, split), seed, order)
  local seeds = redis.call('HINCRBY', prefix .. 'seeds:index', 'seeds', 1)
  while seeds > INDEX_BUCKET_LOAD * (INDEX_BUCKETS_MIN * 2 ^ level + split) do
    level, split = splitBucket(prefix, level, split)
  end
end

--- Reserves the dump orders of seeds kept in the layout before this index (migrate-seed-index.lua
--- moves them in), so seeds dumped from now on come after them.
local function reserveOldOrders(prefix)
  local oldOrder = redis.call('GET', prefix .. 'seeds:dump-order')
  if not oldOrder then return end
  local _, _, _, dumped = indexState(prefix)
  if dumped < tonumber(oldOrder) then redis.call('HSET', prefix .. 'seeds:index', 'dumped', oldOrder) end
  redis.call('DEL', prefix .. 'seeds:dump-order')
end

--- Adds a newly dumped seed at the next dump order (it must not be indexed yet); returns the order.
local function indexSeed(prefix, seed, roomCount, spawns, markers, detected)
  reserveOldOrders(prefix)
  local order = redis.call('HINCRBY', prefix .. 'seeds:index', 'dumped', 1)
  placeSeed(prefix, seed, order, roomCount, spawns, markers, detected)
  return order
end

--- Rewrites a dumped seed's roomCount, spawns and markers (as the generator now makes its map),
--- keeping its order and `detected` flag; returns whether the entry changed (false for a seed
--- without a map).
local function refreshSeedSummary(prefix, seed, roomCount, spawns, markers)
  local order = seedOrder(prefix, seed)
  if not order then return false end
  local key, index = listSlot(prefix, order)
  local at = index * LIST_ENTRY
  local old = redis.call('GETRANGE', key, at, at + LIST_ENTRY - 1)
  local new = listEntry(seed, roomCount, spawns, markers, tonumber(string.sub(old, LIST_ENTRY)))
  if new == old then return false end
  redis.call('SETRANGE', key, at, new)
  return true
end

--- Sets the `detected` flag of a dumped seed's list entry (a no-op for a seed without a map).
local function setSeedDetected(prefix, seed, detected)
  local order = seedOrder(prefix, seed)
  if not order then return end
  local key, index = listSlot(prefix, order)
  redis.call('SETRANGE', key, (index + 1) * LIST_ENTRY - 1, detected)
end
