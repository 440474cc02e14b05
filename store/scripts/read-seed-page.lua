--[[
  One page of GET /seeds (spec 4.9): dumped seeds, newest dump first, leaving out seeds with an
  open window and seeds on the blocklist. The cursor is the last seed of the previous page; its
  dump order is fixed, so new dumps never shift or repeat items of pages already read. A page
  reads the index's list chunks (128 seeds each) from the cursor down: a GETRANGE or two whatever
  the number of seeds.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] clock (see includes/clock.lua)  [3] limit  [4] cursor seed ('' = first page)
  Touches (read only): the seed index, windows:open, blocklist
  Returns: { total, next cursor seed or '', run, ... }: each run the entries of consecutive seeds
           of the page as the index stores them (see includes/seed-index.lua), in dump order
           (oldest first), the runs newest first; or { 'invalid cursor' }
]]
--- @include "clock"
--- @include "seed-index"

local prefix, now, limit, cursor = ARGV[1], clockNow(ARGV[2]), tonumber(ARGV[3]), ARGV[4]

local seeds, _, _, dumped = indexState(prefix)
local top = dumped
if cursor ~= '' then
  local order = seedOrder(prefix, cursor)
  if not order then return { 'invalid cursor' } end
  top = order - 1
end

-- Hidden seeds are few (open windows, the blocklist): gather them once, count the dumped ones.
local hidden, hiddenCount = {}, 0
local function hide(seed)
  if hidden[tonumber(seed)] then return end
  hidden[tonumber(seed)] = true
  if seedOrder(prefix, seed) then hiddenCount = hiddenCount + 1 end
end
for _, seed in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'windows:open', '(' .. string.format('%d', now), '+inf')) do
  hide(seed)
end
for _, seed in ipairs(redis.call('SMEMBERS', prefix .. 'blocklist')) do hide(seed) end
local anyHidden = next(hidden) ~= nil

local result = { seeds - hiddenCount, '' }
-- Kept entries go out in runs, one substring per run of consecutive kept entries, not one string
-- each: a page is then a handful of allocations in Redis and of bulk strings in the reply.
local taken, lastChunk, lastAt = 0, nil, nil
local order = top
-- Each step reads, from one chunk of the list, just as many entries as the page still needs (and
-- one more, to know whether another page follows); hidden seeds may take another step.
while order >= 1 do
  local key, index = listSlot(prefix, order)
  -- Dump orders start at 1: the first chunk's first entry is never written.
  local lowest = math.max(order == index and 1 or 0, index - (limit - taken))
  local chunk = redis.call('GETRANGE', key, lowest * LIST_ENTRY, (index + 1) * LIST_ENTRY - 1)
  -- The current run is chunk bytes runStart + 1 .. runEnd (runEnd nil: no run open).
  local runStart, runEnd = 0, nil
  for i = index - lowest, 0, -1 do
    local at = i * LIST_ENTRY
    -- Never written: past the chunk's end, or zero bytes.
    local last = string.byte(chunk, at + LIST_ENTRY)
    local kept = last ~= nil and last ~= 0
    if kept and anyHidden and hidden[tonumber(string.sub(chunk, at + 1, at + 10))] then kept = false end
    if kept then
      if taken == limit then
        if runEnd then result[#result + 1] = string.sub(chunk, runStart + 1, runEnd) end
        result[2] = tonumber(string.sub(lastChunk, lastAt + 1, lastAt + 10))
        return result
      end
      runEnd = runEnd or at + LIST_ENTRY
      runStart = at
      taken = taken + 1
      lastChunk, lastAt = chunk, at
    elseif runEnd then
      result[#result + 1] = string.sub(chunk, runStart + 1, runEnd)
      runEnd = nil
    end
  end
  if runEnd then result[#result + 1] = string.sub(chunk, runStart + 1, runEnd) end
  order = order - (index - lowest) - 1
end
return result
