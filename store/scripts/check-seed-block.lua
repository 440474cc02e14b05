--[[
  Whether a seed may be shown now (see includes/seed-block.lua).

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] clock (see includes/clock.lua)
  Returns: '' when visible, 'permanent' when on the blocklist, else the window's end (ms).
]]
--- @include "clock"
--- @include "seed-block"

return seedBlock(ARGV[1], ARGV[2], clockNow(ARGV[3]))
