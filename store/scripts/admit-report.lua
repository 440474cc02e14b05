--[[
  Admits a report whose body is not one (malformed, too large): it counts as any report does
  (spec 8 rule 2), and its answer is the first refusal (includes/admit-report) or then the body's.

  KEYS: none; every key is built from the prefix (the per-key counter is named by the server id
        the credential leads to, which is only known inside the script).
  ARGV: [1] prefix  [2] the client's per-IP limit key (its IP, an IPv6 one's /56)  [3] credential
        hash ('' for a malformed credential)  [4] client IP  [5] clock (see includes/clock.lua)  [6] the rate limits'
        multiplier (RATE_LIMIT_MULTIPLIER)
  Returns: { 'limited', window end ms } | { 'invalid' } | { 'admitted', serverId, kind, ip or '' }
]]
--- @include "admit-report"

return admitReport(ARGV[1], admissionArgs())
