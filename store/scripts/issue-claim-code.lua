--[[
  Stores a new one-time claim code (issued by the chat bot or the CLI).

  KEYS: [1] code:<normalized code>
  ARGV: [1] now (ms)  [2] expires at (ms)  [3] expected ip ('' = register at the request address)
        [4] expected port ('' = any)  [5] issued by ('' = operator)
  Returns: 1, or 0 when the code already exists (the caller draws another).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'status', 'open', 'createdAt', ARGV[1], 'expiresAt', ARGV[2],
  'expectedIp', ARGV[3], 'expectedPort', ARGV[4], 'issuedBy', ARGV[5])
-- Kept a day past expiry so a late resend still gets `invalid code`, then cleaned up. Relative
-- to our clock (not PEXPIREAT): Redis's own clock may differ from it (the manual clock, host skew),
-- and an absolute time in Redis's past would delete the code at once.
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) - tonumber(ARGV[1]) + 86400000)
return 1
