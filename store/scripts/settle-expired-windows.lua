--[[
  The sweeper's step: settles every window that has run out by `now` (at most `limit`).

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] clock (see includes/clock.lua)  [3] limit
  Touches: windows:open and, per expired seed, what settleWindow touches.
  Returns: the number of windows settled.
]]
--- @include "clock"
--- @include "settle-window"

local prefix, now, limit = ARGV[1], clockNow(ARGV[2]), tonumber(ARGV[3])
local expired = redis.call('ZRANGEBYSCORE', prefix .. 'windows:open', '-inf', string.format('%d', now), 'LIMIT', 0, limit)
local settled = 0
for _, seed in ipairs(expired) do
  if settleWindow(prefix, seed, now, false) then settled = settled + 1 end
end
return settled
