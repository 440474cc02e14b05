--[[
  Whether Redis is close to its maxmemory (none set: never). Derived data must not take what is
  left: past MEMORY_FILL_MAX no new seed is queued (the seed index only ever grows) and no map is
  added to the map cache, so windows, budgets, credentials and claims keep their room.
]]
local MEMORY_FILL_MAX = 0.9

local function memoryTight()
  local info = redis.call('INFO', 'memory')
  local maxmemory = tonumber(string.match(info, '\nmaxmemory:(%d+)') or '0')
  if maxmemory == 0 then return false end
  return tonumber(string.match(info, '\nused_memory:(%d+)')) > maxmemory * MEMORY_FILL_MAX
end
