--[[
  One page of GET /seeds (spec 4.9): dumped seeds, newest dump first, leaving out seeds with an
  open window and seeds on the blocklist. The cursor is the last seed of the previous page; its
  dump order is fixed, so new dumps never shift or repeat items of pages already read.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] now (ms)  [3] limit  [4] cursor seed ('' = first page)
  Touches (read only): seeds:by-dump, map:<seed>, seeds:detected, windows:open, blocklist
  Returns: { total, next cursor seed or '', seed, roomCount, spawns, markers, detected 0/1, ... }
           or { 'invalid cursor' }
]]
local prefix, now, limit, cursor = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local byDump = prefix .. 'seeds:by-dump'

local function hidden(seed)
  local endsAt = redis.call('ZSCORE', prefix .. 'windows:open', seed)
  if endsAt and tonumber(endsAt) > now then return true end
  return redis.call('SISMEMBER', prefix .. 'blocklist', seed) == 1
end

local maxScore = '+inf'
if cursor ~= '' then
  local score = redis.call('ZSCORE', byDump, cursor)
  if not score then return { 'invalid cursor' } end
  maxScore = '(' .. score
end

-- Hidden seeds are few (open windows, the blocklist): count them among the dumped ones.
local hiddenCount = 0
local open = redis.call('ZRANGEBYSCORE', prefix .. 'windows:open', '(' .. string.format('%d', now), '+inf')
for _, seed in ipairs(open) do
  if redis.call('ZSCORE', byDump, seed) then hiddenCount = hiddenCount + 1 end
end
for _, seed in ipairs(redis.call('SMEMBERS', prefix .. 'blocklist')) do
  local endsAt = redis.call('ZSCORE', prefix .. 'windows:open', seed)
  local alsoOpen = endsAt and tonumber(endsAt) > now
  if not alsoOpen and redis.call('ZSCORE', byDump, seed) then hiddenCount = hiddenCount + 1 end
end
local total = redis.call('ZCARD', byDump) - hiddenCount

local result = { total, '' }
local taken, lastSeed, more = 0, nil, false
local batch = limit + 1
while not more do
  local seeds = redis.call('ZREVRANGEBYSCORE', byDump, maxScore, '-inf', 'WITHSCORES', 'LIMIT', 0, batch)
  if #seeds == 0 then break end
  for i = 1, #seeds, 2 do
    local seed = seeds[i]
    maxScore = '(' .. seeds[i + 1]
    if not hidden(seed) then
      if taken == limit then
        more = true
        break
      end
      local m = redis.call('HMGET', prefix .. 'map:' .. seed, 'roomCount', 'spawns', 'markers')
      local detected = redis.call('SISMEMBER', prefix .. 'seeds:detected', seed)
      table.insert(result, seed)
      table.insert(result, m[1] or '0')
      table.insert(result, m[2] or '0')
      table.insert(result, m[3] or '0')
      table.insert(result, detected)
      taken = taken + 1
      lastSeed = seed
    end
  end
  if #seeds < batch * 2 then break end
end
if more and lastSeed then result[2] = lastSeed end
return result
