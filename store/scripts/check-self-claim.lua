--[[
  Whether a self-claim from this IP:port could be issued now, before the game-server probe runs
  (no probe for a claim that would be refused anyway). Lapses unused credentials as it goes.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] ip  [3] port  [4] presented credential sha256 ('' = none)  [5] now (ms)
        [6] issue interval ms  [7] live max per IP  [8] silence ms allowing replacement
        [9] unused lapse ms
  Returns: what selfClaimRules returns.
]]
--- @include "registration"
--- @include "self-claim-rules"

return selfClaimRules(ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]),
  tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9]))
