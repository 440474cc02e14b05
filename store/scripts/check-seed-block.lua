--[[
  Whether a seed may be shown now. Settles its window first when it has run out, so a read
  never waits for the sweeper. A refused view is counted when asked to.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] now (ms)  [4] count a refused view 0/1  [5] seed cooldown ms
        [6] protection recent length
  Touches: blocklist, window:<seed> (and what settleWindow touches), stats
  Returns: '' when visible, 'permanent' when on the blocklist, else the window's end (ms).
]]
--- @include "settle-window"

local prefix, seed, now, countView = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1'
local cooldownMs, recentMax = tonumber(ARGV[5]), tonumber(ARGV[6])

if redis.call('SISMEMBER', prefix .. 'blocklist', seed) == 1 then
  if countView then redis.call('HINCRBY', prefix .. 'stats', 'viewAttemptsBlocked', 1) end
  return 'permanent'
end
settleWindow(prefix, seed, now, false, cooldownMs, recentMax)
local windowKey = prefix .. 'window:' .. seed
local endsAt = redis.call('HGET', windowKey, 'endsAt')
if not endsAt then return '' end
if countView then
  redis.call('HINCRBY', windowKey, 'viewAttempts', 1)
  redis.call('HINCRBY', prefix .. 'stats', 'viewAttemptsBlocked', 1)
end
return endsAt
