--[[
  Counts one request in a fixed-window rate counter (see includes/count-hit.lua).

  KEYS: [1] the counter hash (hits, resetAt)
  ARGV: [1] now (ms)  [2] window length (ms)
  Returns: { hits in this window, window end (ms) }
]]
--- @include "count-hit"

local hits, resetAt = countHit(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
return { hits, resetAt }
