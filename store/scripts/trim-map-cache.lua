--[[
  Brings the map cache under a cap, least recently read first: run at start, since the cap is
  configuration and may have been lowered since the maps were kept.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] cap (bytes)
  Touches: mapcache:<evicted seed>, mapcache:lru, mapcache:state
  Returns: how many maps were evicted.
]]
--- @include "map-cache"

return evictCachedMaps(ARGV[1], tonumber(ARGV[2]), 0)
