--[[
  Issues a self-claimed credential after the probe confirmed a game server: checks the rules
  again (state may have moved while probing), revokes the self-issued registration it replaces
  at the same IP:port, writes the new one, and spends the IP's issue interval.

  KEYS: none; built from the prefix.
  ARGV: [1..9] as check-self-claim  [10] serverId  [11] credential sha256  [12] clientName
        [13] gameVersion  [14] userAgent ('' = none for the last three)
  Touches: selfclaim:last:<ip>, ip:<ip>, address:self:<ip>:<port>, and what createRegistration
           and revokeRegistration touch.
  Returns: { 'issued' } or a refusal of selfClaimRules.
]]
--- @include "registration"
--- @include "self-claim-rules"

local prefix, ip, port, now, intervalMs = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[5]), tonumber(ARGV[6])
local verdict = selfClaimRules(prefix, ip, port, ARGV[4], now, intervalMs, tonumber(ARGV[7]),
  tonumber(ARGV[8]), tonumber(ARGV[9]))
if verdict[1] ~= 'ok' then return verdict end
if verdict[2] ~= '' then revokeRegistration(prefix, verdict[2], ARGV[5]) end
createRegistration(prefix, ARGV[10], ARGV[11], 'self', ARGV[5], {
  ip = ip, port = port, clientName = ARGV[12], gameVersion = ARGV[13], userAgent = ARGV[14]
})
-- Kept in Redis (not only in memory) so an API restart does not reset the interval.
redis.call('SET', prefix .. 'selfclaim:last:' .. ip, ARGV[5], 'PX', intervalMs * 2)
return { 'issued' }
