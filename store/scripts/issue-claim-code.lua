--[[
  Stores a new one-time claim code (issued by the chat bot or the CLI). A chat member holds at most
  SPEC.claimCodesLivePerMember live codes (open and unexpired, under review, or approved and not yet used) and is
  issued at most SPEC.claimCodesPerMemberPerDay in any SPEC.claimCodesDayMs; the codes of each member are indexed by issue time in
  codes:by:<member> (which /keys lists). The CLI's codes (no issuer) are not limited.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] normalized code  [3] clock (see includes/clock.lua)
        [4] expected ip ('' = register at the request address)  [5] expected port ('' = any)
        [6] issued by ('' = operator)  [7] actor for the audit trail ('' = not recorded)
  Touches: code:<code>, codes:by:<member> (and reads the codes it lists), audit
  Returns: { 'issued', expiresAt ms } | { 'exists' } (the caller draws another code)
         | { 'live', live, liveMax, next ms } (next: the soonest an open one expires; 0 when all
           wait on a review) | { 'day', issued, dayMax, next ms }
]]
--- @include "clock"
--- @include "audit"

local prefix, code, lifetime = ARGV[1], ARGV[2], SPEC.claimCodeTtlMs
local issuedBy = ARGV[6]
local liveMax, dayMax, dayMs = SPEC.claimCodesLivePerMember, SPEC.claimCodesPerMemberPerDay, SPEC.claimCodesDayMs
local codeKey = prefix .. 'code:' .. code
if redis.call('EXISTS', codeKey) == 1 then return { 'exists' } end
local now = clockNow(ARGV[3])
local memberKey = prefix .. 'codes:by:' .. issuedBy

if issuedBy ~= '' then
  local since = now - dayMs
  local live, soonest = 0, 0
  local listed = redis.call('ZRANGE', memberKey, 0, -1, 'WITHSCORES')
  for i = 1, #listed, 2 do
    local c = redis.call('HMGET', prefix .. 'code:' .. listed[i], 'status', 'expiresAt')
    local open = c[1] == 'open' and now < tonumber(c[2])
    if open or c[1] == 'review' or c[1] == 'approved' then
      live = live + 1
      if open and (soonest == 0 or tonumber(c[2]) < soonest) then soonest = tonumber(c[2]) end
    elseif tonumber(listed[i + 1]) <= since then
      -- Done with and out of the day: nothing left to count it for.
      redis.call('ZREM', memberKey, listed[i])
    end
  end
  if live >= liveMax then return { 'live', live, liveMax, soonest } end
  local today = redis.call('ZRANGEBYSCORE', memberKey, '(' .. string.format('%d', since), '+inf', 'WITHSCORES')
  if #today / 2 >= dayMax then
    return { 'day', #today / 2, dayMax, tonumber(today[2]) + dayMs }
  end
end

local expiresAt = now + lifetime
redis.call('HSET', codeKey, 'status', 'open', 'createdAt', string.format('%d', now), 'expiresAt',
  string.format('%d', expiresAt), 'expectedIp', ARGV[4], 'expectedPort', ARGV[5], 'issuedBy', issuedBy)
-- Kept a day past expiry so a late resend still gets `invalid code`, then cleaned up. Relative
-- (not PEXPIREAT): the manual clock may be far from Redis's own.
redis.call('PEXPIRE', codeKey, lifetime + 86400000)
if issuedBy ~= '' then
  redis.call('ZADD', memberKey, string.format('%d', now), code)
  -- Outlives the day it counts and every code it lists.
  redis.call('PEXPIRE', memberKey, dayMs + lifetime + 86400000)
end
recordAudit(prefix, now, ARGV[7], 'code.issue', string.sub(code, 1, 5) .. '-' .. string.sub(code, 6),
  { 'owner', issuedBy })
return { 'issued', expiresAt }
