--[[
  Keeps a map rebuilt by an API process in the map cache, evicting the least recently read maps
  until it fits under the cap (see includes/map-cache.lua). Bodies larger than the cap are not
  kept.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] cap (bytes)  [4] etag  [5] brotli body  [6] gzip body
  Touches: mapcache:<seed>, mapcache:<evicted seed>, mapcache:lru, mapcache:state
  Returns: 1 when kept, 0 when not.
]]
--- @include "memory-headroom"
--- @include "map-cache"

return cacheMap(ARGV[1], ARGV[2], ARGV[4], ARGV[5], ARGV[6], tonumber(ARGV[3])) and 1 or 0
