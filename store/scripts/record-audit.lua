--[[
  Records an action in the audit trail that is not itself one script (an operator's sighting or
  reindex), right after it, with the time from the one clock.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] clock (see includes/clock.lua)  [3] actor  [4] action  [5] target
  Touches: audit
  Returns: 1
]]
--- @include "clock"
--- @include "audit"

recordAudit(ARGV[1], clockNow(ARGV[2]), ARGV[3], ARGV[4], ARGV[5])
return 1
