--[[
  Whether a self-claim from this IP:port could be issued now, before the game-server probe runs
  (no probe for a claim that would be refused anyway). Lapses unused credentials as it goes.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] ip  [3] ip key (the per-IP limit key: IPv4 address, IPv6 /56)  [4] port
        [5] presented credential sha256 ('' = none)  [6] clock (see includes/clock.lua)  [7] issue interval ms
        [8] live max per ip key  [9] silence ms allowing replacement  [10] unused lapse ms
  Returns: what selfClaimRules returns.
]]
--- @include "clock"
--- @include "registration"
--- @include "spec"
--- @include "self-claim-rules"

return selfClaimRules(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], clockNow(ARGV[6]), tonumber(ARGV[7]),
  tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]))
