--[[
  Issues a self-claimed credential after the probe confirmed a game server: checks the rules
  again (state may have moved while probing), revokes the self-issued registration it replaces
  at the same IP:port, writes the new one (marked `unacknowledged` until its answer is confirmed:
  see includes/self-claim-rules.lua), and spends the IP's issue interval.

  KEYS: none; built from the prefix.
  ARGV: [1..10] as check-self-claim  [11] serverId  [12] credential sha256  [13] clientName
        [14] gameVersion  [15] userAgent ('' = none for the last three)
  Touches: selfclaim:last:<ip key>, ip:<ip key>, address:self:<ip>:<port>, and what createRegistration
           and revokeRegistration touch.
  Returns: { 'issued', issuedAt ms } or a refusal of selfClaimRules.
]]
--- @include "clock"
--- @include "registration"
--- @include "spec"
--- @include "self-claim-rules"

local prefix, ip, ipKey, port = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now, intervalMs = clockNow(ARGV[6]), tonumber(ARGV[7])
local verdict = selfClaimRules(prefix, ip, ipKey, port, ARGV[5], now, intervalMs, tonumber(ARGV[8]),
  tonumber(ARGV[9]), tonumber(ARGV[10]))
if verdict[1] ~= 'ok' then return verdict end
if verdict[2] ~= '' then revokeRegistration(prefix, verdict[2], now) end
createRegistration(prefix, ARGV[11], ARGV[12], 'self', now, {
  ip = ip, ipKey = ipKey, port = port, clientName = ARGV[13], gameVersion = ARGV[14], userAgent = ARGV[15],
  unacknowledged = '1'
})
-- Kept in Redis (not only in memory) so an API restart does not reset the interval.
redis.call('SET', prefix .. 'selfclaim:last:' .. ipKey, string.format('%d', now), 'PX', intervalMs * 2)
return { 'issued', string.format('%d', now) }
