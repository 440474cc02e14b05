--[[
  A moderator's decision on a pending review. Two moderators pressing at once give one decision:
  the first wins, the second learns who decided. A closed review (superseded: its code registered
  from the expected address meanwhile; expired or cancelled: its code is gone) takes no decision
  either; no one decided it. A decision queues a notice, so the bot brings the review's message up
  to date and tells the claimant, whoever decided (the chat or the CLI); and it is audited.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] review id  [3] decision ('approved' | 'rejected')  [4] moderator (as shown)
        [5] clock (see includes/clock.lua)  [6] actor for the audit trail ('' = not recorded)
  Touches: review:<id>, reviews:pending, reviews:notify, code:<code of the review>, audit
  Returns: { 'decided', decision, moderator } | { 'already', status, moderator or '' } | { 'unknown' }
]]
--- @include "clock"
--- @include "audit"

local prefix, id, decision, moderator = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = clockNow(ARGV[5])
local reviewKey = prefix .. 'review:' .. id
local r = redis.call('HMGET', reviewKey, 'status', 'code', 'decidedBy', 'issuedBy')
if not r[1] then return { 'unknown' } end
if r[1] ~= 'pending' then return { 'already', r[1], r[3] or '' } end
redis.call('HSET', reviewKey, 'status', decision, 'decidedBy', moderator, 'decidedAt', string.format('%d', now))
redis.call('ZREM', prefix .. 'reviews:pending', id)
redis.call('LPUSH', prefix .. 'reviews:notify', id)
local codeKey = prefix .. 'code:' .. r[2]
if redis.call('HGET', codeKey, 'status') == 'review' then
  redis.call('HSET', codeKey, 'status', decision)
end
local action = decision == 'approved' and 'review.approve' or 'review.reject'
local code = string.sub(r[2], 1, 5) .. '-' .. string.sub(r[2], 6)
recordAudit(prefix, now, ARGV[6], action, code, { 'owner', r[4], 'review', id })
return { 'decided', decision, moderator }
