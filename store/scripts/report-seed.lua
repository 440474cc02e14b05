--[[
  The block engine's report decision (spec 3.1) for a key already admitted (includes/decide-report).

  KEYS: none; every key is built from the prefix (the keys touched depend on the stored window
        of the reporting key, which is only known inside the script).
  ARGV: [1] prefix  [2] serverId  [3] the key's kind (plugin, self, http)  [4] seed  [5] event
        [6] clock (see includes/clock.lua)
  Returns: { outcome, blockedUntil ms or '', exhausted 0/1 } (see includes/decide-report)
]]
--- @include "clock"
--- @include "decide-report"

return decideReport(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], clockNow(ARGV[6]))
