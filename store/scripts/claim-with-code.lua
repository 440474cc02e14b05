--[[
  A plugin claim (spec 4.4) with a one-time code, as one atomic step. A code without an expected
  address registers the request's IP:port. A code with one registers when it matches; otherwise
  the first such claim opens one review request (and queues a notice for the bot's moderators'
  channel). After approval the same code, resent from the reviewed address, registers.
  Registering revokes every earlier registration at that IP:port and uses up the code. A code
  still under review that registers from its expected address closes its review as superseded
  (no decision is left to take) and queues another notice, so the bot updates the review's
  message the same at-least-once way it posts it. The review, and the registration the code makes,
  carry who asked for the code (issuedBy), so the moderators see it and the member owns the server.
  A used code is usable once more by the same claim retried: when the registration it made is
  still marked `unacknowledged` (its answer was a 503: the replicas did not confirm it, see
  store/acknowledged.ts), unused, younger than SPEC.claimRetryMs and at this IP:port, that
  registration is revoked and a new one made, so the client ends up with one live credential.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] normalized code  [3] request ip  [4] request port  [5] clock (see includes/clock.lua)
        [6] new serverId  [7] credential sha256  [8] review id (used if a review opens)
        [9] pluginVersion  [10] gameVersion  [11] labApiVersion ('' = none for the last three)
  Touches: code:<code>, review:<id>, reviews:pending, reviews:notify, and what
           createRegistration and revokeRegistration touch.
  Returns: { 'verified', issuedAt ms } | { 'review', reason } | { 'invalid code' } | { 'claim rejected' }
]]
--- @include "clock"
--- @include "registration"

local prefix, code, ip, port = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = string.format('%d', clockNow(ARGV[5]))
local codeKey = prefix .. 'code:' .. code
local c = redis.call('HMGET', codeKey, 'status', 'expiresAt', 'expectedIp', 'expectedPort', 'reviewId',
  'issuedBy', 'createdAt', 'usedBy')
local status = c[1]

local function register()
  for _, kind in ipairs({ 'plugin', 'self' }) do
    local earlier = redis.call('GET', prefix .. 'address:' .. kind .. ':' .. ip .. ':' .. port)
    if earlier then revokeRegistration(prefix, earlier, now) end
  end
  createRegistration(prefix, ARGV[6], ARGV[7], 'plugin', now, {
    ip = ip, port = port, pluginVersion = ARGV[9], gameVersion = ARGV[10], labApiVersion = ARGV[11],
    -- The member who asked for the code owns the registration (they see and revoke it with /keys).
    owner = c[6] or '', unacknowledged = '1'
  })
  redis.call('HSET', codeKey, 'status', 'used', 'usedBy', ARGV[6])
  return { 'verified', now }
end

if status == 'used' and c[8] then
  local u = redis.call('HMGET', prefix .. 'server:' .. c[8], 'unacknowledged', 'lastReportAt', 'issuedAt', 'ip', 'port')
  if u[1] and not u[2] and tonumber(now) - tonumber(u[3]) < SPEC.claimRetryMs and u[4] == ip and u[5] == port then
    revokeRegistration(prefix, c[8], now)
    return register()
  end
end
if not status or status == 'used' or status == 'cancelled' then return { 'invalid code' } end
if status == 'rejected' then return { 'claim rejected' } end

local review = false
if c[5] then
  review = redis.call('HMGET', prefix .. 'review:' .. c[5], 'actualIp', 'actualPort', 'reason')
end
-- An approved code stays usable past its 30 minutes: the moderators' decision took that time.
-- For the same reason a code under review keeps answering 202 until they decide: a 401 would make
-- the client stop resending before the approval it was told to wait for.
if status ~= 'approved' and tonumber(now) >= tonumber(c[2]) then
  if status == 'review' and review then return { 'review', review[3] } end
  return { 'invalid code' }
end

local matches
if status == 'approved' then
  matches = review and review[1] == ip and review[2] == port
else
  matches = (c[3] == '' or c[3] == ip) and (c[4] == '' or c[4] == port)
end

if not matches then
  if review then return { 'review', review[3] } end
  local reason = (c[3] ~= '' and c[3] ~= ip) and 'ip_mismatch' or 'port_mismatch'
  local reviewId = ARGV[8]
  redis.call('HSET', prefix .. 'review:' .. reviewId, 'id', reviewId, 'code', code, 'status', 'pending',
    'expectedIp', c[3], 'expectedPort', c[4], 'actualIp', ip, 'actualPort', port, 'reason', reason,
    'pluginVersion', ARGV[9], 'createdAt', now, 'issuedBy', c[6] or '', 'codeIssuedAt', c[7] or '')
  redis.call('ZADD', prefix .. 'reviews:pending', now, reviewId)
  redis.call('LPUSH', prefix .. 'reviews:notify', reviewId)
  redis.call('HSET', codeKey, 'status', 'review', 'reviewId', reviewId)
  return { 'review', reason }
end

if status == 'review' then
  redis.call('HSET', prefix .. 'review:' .. c[5], 'status', 'superseded', 'decidedAt', now)
  redis.call('ZREM', prefix .. 'reviews:pending', c[5])
  redis.call('LPUSH', prefix .. 'reviews:notify', c[5])
end
return register()
