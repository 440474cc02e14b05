--[[
  Revokes a registration: its credential stops working at once and its address slot frees.
  An open window of the key runs on to its end; revoking does not reveal the seed.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] serverId  [3] clock (see includes/clock.lua)
  Touches: what revokeRegistration touches.
  Returns: 1 when revoked now, 0 when unknown or already revoked.
]]
--- @include "clock"
--- @include "registration"

if revokeRegistration(ARGV[1], ARGV[2], clockNow(ARGV[3])) then return 1 end
return 0
