--[[
  Revokes a registration: its credential stops working at once and its address slot frees.
  An open window of the key runs on to its end; revoking does not reveal the seed. An owner's own
  revoke (from the chat) names the owner: a registration of anyone else is left alone.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] serverId  [3] clock (see includes/clock.lua)  [4] actor for the audit
        trail ('' = not recorded)  [5] owner it must have ('' = any)
  Touches: what revokeRegistration touches, audit
  Returns: 1 when revoked now, 0 when unknown, already revoked, or not the given owner's.
]]
--- @include "clock"
--- @include "registration"
--- @include "audit"

local prefix, serverId, now, actor, mustOwn = ARGV[1], ARGV[2], clockNow(ARGV[3]), ARGV[4], ARGV[5]
local owner = redis.call('HGET', prefix .. 'server:' .. serverId, 'owner') or ''
if mustOwn ~= '' and owner ~= mustOwn then return 0 end
if not revokeRegistration(prefix, serverId, now) then return 0 end
recordAudit(prefix, now, actor, 'registration.revoke', serverId, { 'owner', owner })
return 1
