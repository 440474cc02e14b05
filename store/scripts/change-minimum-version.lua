--[[
  Sets the minimum plugin version (spec 2.9), or clears it with '', and audits a change.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] minimum ('' = none)  [3] clock (see includes/clock.lua)  [4] actor for
        the audit trail ('' = not recorded)
  Touches: version, audit
  Returns: 1 when the minimum changed, 0 when it was that already.
]]
--- @include "clock"
--- @include "audit"

local prefix, minimum = ARGV[1], ARGV[2]
local key = prefix .. 'version'
local before = redis.call('HGET', key, 'minimum') or ''
if before == minimum then return 0 end
if minimum == '' then
  redis.call('HDEL', key, 'minimum')
  recordAudit(prefix, clockNow(ARGV[3]), ARGV[4], 'minimum-version.clear', before)
else
  redis.call('HSET', key, 'minimum', minimum)
  recordAudit(prefix, clockNow(ARGV[3]), ARGV[4], 'minimum-version.set', minimum)
end
return 1
