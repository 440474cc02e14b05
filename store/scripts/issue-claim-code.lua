--[[
  Stores a new one-time claim code (issued by the chat bot or the CLI), alive CLAIM_CODE_TTL_MS.

  KEYS: [1] code:<normalized code>
  ARGV: [1] clock (see includes/clock.lua)  [2] expected ip ('' = register at the request
        address)  [3] expected port ('' = any)  [4] issued by ('' = operator)
  Returns: when the code expires (ms), or 0 when the code already exists (the caller draws another).
]]
--- @include "clock"

if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local now = clockNow(ARGV[1])
local expiresAt = now + SPEC.claimCodeTtlMs
redis.call('HSET', KEYS[1], 'status', 'open', 'createdAt', string.format('%d', now), 'expiresAt',
  string.format('%d', expiresAt), 'expectedIp', ARGV[2], 'expectedPort', ARGV[3], 'issuedBy', ARGV[4])
-- Kept a day past expiry so a late resend still gets `invalid code`, then cleaned up. Relative
-- (not PEXPIREAT): the manual clock may be far from Redis's own.
redis.call('PEXPIRE', KEYS[1], SPEC.claimCodeTtlMs + 86400000)
return expiresAt
