--[[
  Keeps a map rebuilt by an API process in the map cache, evicting the least recently read maps
  until it fits under the cap (see includes/map-cache.lua), in place of an entry of another
  generator version. Bodies larger than the cap are not kept. With its summary, the seed's index
  entry is brought up to date too (a new generator may place other rooms and spawns).

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] cap (bytes)  [4] etag  [5] brotli body  [6] gzip body
        [7] roomCount  [8] spawns  [9] markers  ([7]-[9] empty: index left as it is)
  Touches: mapcache:<seed>, mapcache:<evicted seed>, mapcache:lru, mapcache:state; the seed's
           list entry
  Returns: 1 when kept, 0 when not.
]]
--- @include "seed-index"
--- @include "map-cache"

if ARGV[7] ~= '' then refreshSeedSummary(ARGV[1], ARGV[2], ARGV[7], ARGV[8], ARGV[9]) end
return cacheMap(ARGV[1], ARGV[2], ARGV[4], ARGV[5], ARGV[6], tonumber(ARGV[3])) and 1 or 0
