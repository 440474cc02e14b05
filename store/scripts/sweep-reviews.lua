--[[
  Looks over the pending reviews (the bot runs it every few seconds). A review whose code is gone
  (its key expired, a day after the code did) or was cancelled closes as `expired` or
  `cancelled`, and queues a notice so the bot removes its buttons. A review pending
  SPEC.reviewRemindAfterMs or longer that was not reminded yet is returned, for the bot to bring up once.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] clock (see includes/clock.lua)
  Touches: review:<id>, reviews:pending, reviews:notify; code:<code> (read)
  Returns: the ids of the reviews due for a reminder, oldest first.
]]
--- @include "clock"

local prefix, now = ARGV[1], clockNow(ARGV[2])
local due = {}
for _, id in ipairs(redis.call('ZRANGE', prefix .. 'reviews:pending', 0, -1)) do
  local reviewKey = prefix .. 'review:' .. id
  local r = redis.call('HMGET', reviewKey, 'code', 'createdAt', 'remindedAt')
  local codeStatus = r[1] and redis.call('HGET', prefix .. 'code:' .. r[1], 'status')
  if not r[1] then
    redis.call('ZREM', prefix .. 'reviews:pending', id) -- no record left to show
  elseif not codeStatus or codeStatus == 'cancelled' then
    redis.call('HSET', reviewKey, 'status', codeStatus and 'cancelled' or 'expired', 'decidedAt',
      string.format('%d', now))
    redis.call('ZREM', prefix .. 'reviews:pending', id)
    redis.call('LPUSH', prefix .. 'reviews:notify', id)
  elseif not r[3] and now - tonumber(r[2]) >= SPEC.reviewRemindAfterMs then
    table.insert(due, id)
  end
end
return due
