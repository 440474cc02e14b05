--[[
  Issues a self-claimed credential after the probe confirmed a game server: checks the rules
  again (state may have moved while probing), revokes the self-issued registration it replaces
  at the same IP:port, writes the new one (marked `unacknowledged` until its answer is confirmed:
  see includes/self-claim-rules.lua), and spends the IP's issue interval.

  KEYS: none; built from the prefix.
  ARGV: [1..6] as check-self-claim  [7] serverId  [8] credential sha256  [9] clientName
        [10] gameVersion  [11] userAgent ('' = none for the last three)
  Touches: selfclaim:last:<ip key>, ip:<ip key>, address:self:<ip>:<port>, and what createRegistration
           and revokeRegistration touch.
  Returns: { 'issued', issuedAt ms } or a refusal of selfClaimRules.
]]
--- @include "clock"
--- @include "registration"
--- @include "self-claim-rules"

local prefix, ip, ipKey, port = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = clockNow(ARGV[6])
local verdict = selfClaimRules(prefix, ip, ipKey, port, ARGV[5], now)
if verdict[1] ~= 'ok' then return verdict end
if verdict[2] ~= '' then revokeRegistration(prefix, verdict[2], now) end
createRegistration(prefix, ARGV[7], ARGV[8], 'self', now, {
  ip = ip, ipKey = ipKey, port = port, clientName = ARGV[9], gameVersion = ARGV[10], userAgent = ARGV[11],
  unacknowledged = '1'
})
-- Kept in Redis (not only in memory) so an API restart does not reset the interval.
redis.call('SET', prefix .. 'selfclaim:last:' .. ipKey, string.format('%d', now), 'PX',
  SPEC.selfClaimIntervalMs * 2)
return { 'issued', string.format('%d', now) }
