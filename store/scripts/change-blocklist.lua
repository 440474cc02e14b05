--[[
  Adds a seed to the permanent blocklist or removes it, and hides it (or shows it again, unless a
  window still holds it) in the same step. A change is audited.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] 'add' | 'remove'  [4] clock (see includes/clock.lua)  [5] actor
        for the audit trail ('' = not recorded)
  Touches: blocklist, seeds:hidden, audit; window:<seed> (read)
  Returns: 1 when the blocklist changed, 0 when the seed was already (or not) on it.
]]
--- @include "clock"
--- @include "hidden-seeds"
--- @include "audit"

local prefix, seed = ARGV[1], ARGV[2]
local changed
if ARGV[3] == 'add' then
  changed = redis.call('SADD', prefix .. 'blocklist', seed)
else
  changed = redis.call('SREM', prefix .. 'blocklist', seed)
end
syncHiddenSeed(prefix, seed)
if changed == 1 then recordAudit(prefix, clockNow(ARGV[4]), ARGV[5], 'blocklist.' .. ARGV[3], seed) end
return changed
