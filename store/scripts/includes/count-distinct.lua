--[[
  A fixed-window counter of distinct members (spec 8: "20 uncached seeds per minute"): asking
  again for a member already counted in this window does not count twice. Only the first `limit`
  members are stored: past the limit every answer is a refusal whatever the member, so later
  requests are only counted (field `over`, each request for a member not stored), and the set
  stays at most `limit` members however many a client sends. The window starts at the first
  member and lasts `windowMs`; TTLs only clean up, the window is judged by the clock.
  Keys: `key` (hash resetAt, over) and `key`:members (set, at most `limit` members).
  Returns: members stored plus requests counted past the limit, window end (ms, as a string)
]]
local function countDistinct(key, member, now, windowMs, limit)
  local membersKey = key .. ':members'
  local state = redis.call('HMGET', key, 'resetAt', 'over')
  local resetAt = tonumber(state[1] or '0')
  local over = tonumber(state[2] or '0')
  if now >= resetAt then
    resetAt = now + windowMs
    over = 0
    redis.call('HSET', key, 'resetAt', string.format('%d', resetAt), 'over', 0)
    redis.call('DEL', membersKey)
  end
  local stored = redis.call('SCARD', membersKey)
  if stored < limit then
    stored = stored + redis.call('SADD', membersKey, member)
  elseif redis.call('SISMEMBER', membersKey, member) == 0 then
    over = redis.call('HINCRBY', key, 'over', 1)
  end
  redis.call('PEXPIRE', key, windowMs + 60000)
  redis.call('PEXPIRE', membersKey, windowMs + 60000)
  return stored + over, string.format('%d', resetAt)
end
