--[[
  Brings dumped seeds' index entries up to date with the generator now deployed (`admin -- maps
  reindex`): roomCount, spawns and markers as given, order and `detected` kept. A seed without a
  map is left alone.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix, then per seed: seed, roomCount, spawns, markers
  Touches: the seed index (read); seeds:list:<n> (the seeds' entries)
  Returns: how many entries changed.
]]
--- @include "seed-index"

local prefix = ARGV[1]
local changed = 0
for i = 2, #ARGV, 4 do
  if refreshSeedSummary(prefix, ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]) then changed = changed + 1 end
end
return changed
