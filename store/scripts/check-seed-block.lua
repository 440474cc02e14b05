--[[
  Whether a seed may be shown now (see includes/seed-block.lua).

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] clock (see includes/clock.lua)  [4] seed cooldown ms  [5] protection recent length
  Returns: '' when visible, 'permanent' when on the blocklist, else the window's end (ms).
]]
--- @include "clock"
--- @include "hidden-seeds"
--- @include "settle-window"
--- @include "seed-block"

return seedBlock(ARGV[1], ARGV[2], clockNow(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]))
