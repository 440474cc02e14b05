--[[
  Issues an HTTP key (not bound to an IP), at most SPEC.httpKeysPerOwner live per chat user. The owner's set
  also lists the plugin registrations their claim codes made, so only HTTP keys are counted.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] serverId  [3] credential sha256  [4] clock (see includes/clock.lua)  [5] owner ('' = operator,
        no per-owner limit)  [6] label ('' = none)  [7] actor for the audit trail ('' = not recorded)
  Touches: what createRegistration touches, audit
  Returns: { 'issued', live count of the owner } or { 'too many', live count }
]]
--- @include "clock"
--- @include "registration"
--- @include "audit"

local prefix, serverId, credentialHash, now = ARGV[1], ARGV[2], ARGV[3], clockNow(ARGV[4])
local owner, label = ARGV[5], ARGV[6]
local live = 0
if owner ~= '' then
  for _, id in ipairs(redis.call('SMEMBERS', prefix .. 'owner:' .. owner)) do
    if redis.call('HGET', prefix .. 'server:' .. id, 'kind') == 'http' then live = live + 1 end
  end
  if live >= SPEC.httpKeysPerOwner then return { 'too many', live } end
end
createRegistration(prefix, serverId, credentialHash, 'http', now, { owner = owner, clientName = label })
recordAudit(prefix, now, ARGV[7], 'httpkey.issue', serverId, { 'owner', owner })
return { 'issued', live + 1, string.format('%d', now) }
