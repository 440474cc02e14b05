--[[
  One page of GET /seeds (spec 4.9): dumped seeds, newest dump first, leaving out seeds with an
  open window and seeds on the blocklist. The cursor is the last seed of the previous page; its
  dump order is fixed, so new dumps never shift or repeat items of pages already read. A page
  reads the index's list chunks (128 seeds each) from the cursor down: a GETRANGE or two whatever
  the number of seeds.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] now (ms)  [3] limit  [4] cursor seed ('' = first page)
  Touches (read only): the seed index, windows:open, blocklist
  Returns: { total, next cursor seed or '', entry, ... } with each entry as the index stores it
           (see includes/seed-index.lua); or { 'invalid cursor' }
]]
--- @include "seed-index"

local prefix, now, limit, cursor = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]

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
local taken, lastEntry = 0, nil
local order = top
-- Each step reads, from one chunk of the list, just as many entries as the page still needs (and
-- one more, to know whether another page follows); hidden seeds may take another step.
while order >= 1 do
  local key, index = listSlot(prefix, order)
  -- Dump orders start at 1: the first chunk's first entry is never written.
  local lowest = math.max(order == index and 1 or 0, index - (limit - taken))
  local chunk = redis.call('GETRANGE', key, lowest * LIST_ENTRY, (index + 1) * LIST_ENTRY - 1)
  for i = index - lowest, 0, -1 do
    local entry = string.sub(chunk, i * LIST_ENTRY + 1, (i + 1) * LIST_ENTRY)
    local written = #entry == LIST_ENTRY and string.byte(entry, LIST_ENTRY) ~= 0
    if written and not (anyHidden and hidden[tonumber(string.sub(entry, 1, 10))]) then
      if taken == limit then
        result[2] = tonumber(string.sub(lastEntry, 1, 10))
        return result
      end
      result[#result + 1] = entry
      taken = taken + 1
      lastEntry = entry
    end
  end
  order = order - (index - lowest) - 1
end
return result
