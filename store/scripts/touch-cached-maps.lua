--[[
  Maps an API process served from its own memory, in the order they were read: each one still in
  the map cache becomes the most recently read there, so the cache's LRU order follows every
  process's reads without a write on each read.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2...] seeds, least recent first
  Touches: mapcache:lru, mapcache:state
  Returns: how many were in the cache.
]]
--- @include "map-cache"

local touched = 0
for i = 2, #ARGV do
  if touchCachedMap(ARGV[1], ARGV[i]) then touched = touched + 1 end
end
return touched
