--[[
  Counts one request in a fixed-window rate counter (see includes/count-hit.lua).

  KEYS: [1] the counter hash (hits, resetAt)
  ARGV: [1] clock (see includes/clock.lua)  [2] window length (ms)
  Returns: { hits in this window, window end (ms) }
]]
--- @include "clock"
--- @include "count-hit"

local hits, resetAt = countHit(KEYS[1], clockNow(ARGV[1]), tonumber(ARGV[2]))
return { hits, resetAt }
