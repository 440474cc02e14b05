--[[
  Adds a seed to the permanent blocklist or removes it, and hides it (or shows it again, unless a
  window still holds it) in the same step.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] 'add' | 'remove'
  Touches: blocklist, seeds:hidden; window:<seed> (read)
  Returns: 1 when the blocklist changed, 0 when the seed was already (or not) on it.
]]
--- @include "hidden-seeds"

local prefix, seed = ARGV[1], ARGV[2]
local changed
if ARGV[3] == 'add' then
  changed = redis.call('SADD', prefix .. 'blocklist', seed)
else
  changed = redis.call('SREM', prefix .. 'blocklist', seed)
end
syncHiddenSeed(prefix, seed)
return changed
