--[[
  Issues an HTTP key (not bound to an IP), at most HTTP_KEYS_PER_OWNER live per chat user.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] serverId  [3] credential sha256  [4] clock (see includes/clock.lua)  [5] owner ('' = operator,
        no per-owner limit)  [6] label ('' = none)
  Touches: what createRegistration touches.
  Returns: { 'issued', live count of the owner } or { 'too many', live count }
]]
--- @include "clock"
--- @include "registration"

local prefix, serverId, credentialHash, now = ARGV[1], ARGV[2], ARGV[3], clockNow(ARGV[4])
local owner, label = ARGV[5], ARGV[6]
local live = 0
if owner ~= '' then
  live = redis.call('SCARD', prefix .. 'owner:' .. owner)
  if live >= SPEC.httpKeysPerOwner then return { 'too many', live } end
end
createRegistration(prefix, serverId, credentialHash, 'http', now, { owner = owner, clientName = label })
return { 'issued', live + 1, string.format('%d', now) }
