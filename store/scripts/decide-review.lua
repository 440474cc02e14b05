--[[
  A moderator's decision on a pending review. Two moderators pressing at once give one decision:
  the first wins, the second learns who decided. A superseded review (its code registered from
  the expected address meanwhile) takes no decision either; no one decided it.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] review id  [3] decision ('approved' | 'rejected')  [4] moderator  [5] clock (see includes/clock.lua)
  Touches: review:<id>, reviews:pending, code:<code of the review>
  Returns: { 'decided', decision, moderator } | { 'already', status, moderator or '' } | { 'unknown' }
]]
--- @include "clock"

local prefix, id, decision, moderator = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = string.format('%d', clockNow(ARGV[5]))
local reviewKey = prefix .. 'review:' .. id
local r = redis.call('HMGET', reviewKey, 'status', 'code', 'decidedBy')
if not r[1] then return { 'unknown' } end
if r[1] ~= 'pending' then return { 'already', r[1], r[3] or '' } end
redis.call('HSET', reviewKey, 'status', decision, 'decidedBy', moderator, 'decidedAt', now)
redis.call('ZREM', prefix .. 'reviews:pending', id)
local codeKey = prefix .. 'code:' .. r[2]
if redis.call('HGET', codeKey, 'status') == 'review' then
  redis.call('HSET', codeKey, 'status', decision)
end
return { 'decided', decision, moderator }
