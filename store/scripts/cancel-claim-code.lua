--[[
  Cancels a claim code that has not been used yet. A review still pending for it closes as
  `cancelled` (nothing is left to decide) and queues a notice, so the bot removes its buttons.
  An owner's cancel (from the chat) names the issuer: a code of anyone else is left alone.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] normalized code  [3] clock (see includes/clock.lua)  [4] actor for the
        audit trail ('' = not recorded)  [5] issuer it must have ('' = any)
  Touches: code:<code>, review:<id>, reviews:pending, reviews:notify, audit
  Returns: 1 when cancelled now, 0 when unknown, used, already cancelled, or not the given issuer's.
]]
--- @include "clock"
--- @include "audit"

local prefix, code, actor, mustHave = ARGV[1], ARGV[2], ARGV[4], ARGV[5]
local codeKey = prefix .. 'code:' .. code
local c = redis.call('HMGET', codeKey, 'status', 'issuedBy', 'reviewId')
local status, issuedBy = c[1], c[2] or ''
if not status or status == 'used' or status == 'cancelled' then return 0 end
if mustHave ~= '' and issuedBy ~= mustHave then return 0 end
local now = clockNow(ARGV[3])
redis.call('HSET', codeKey, 'status', 'cancelled')
if c[3] and redis.call('HGET', prefix .. 'review:' .. c[3], 'status') == 'pending' then
  redis.call('HSET', prefix .. 'review:' .. c[3], 'status', 'cancelled', 'decidedAt', string.format('%d', now))
  redis.call('ZREM', prefix .. 'reviews:pending', c[3])
  redis.call('LPUSH', prefix .. 'reviews:notify', c[3])
end
recordAudit(prefix, now, actor, 'code.cancel', string.sub(code, 1, 5) .. '-' .. string.sub(code, 6),
  { 'owner', issuedBy })
return 1
