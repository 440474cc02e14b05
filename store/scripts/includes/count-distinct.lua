--[[
  A fixed-window counter of distinct members (spec 8: "20 uncached seeds per minute"): asking
  again for a seed already counted in this window does not count twice; every new seed counts,
  past the limit too. The window starts at the first member and lasts `windowMs`; TTLs only
  clean up, the window is judged by the clock.
  Keys: `key` (hash resetAt) and `key`:members (set).
  Returns: distinct members in this window, window end (ms, as a string)
]]
local function countDistinct(key, member, now, windowMs)
  local membersKey = key .. ':members'
  local resetAt = tonumber(redis.call('HGET', key, 'resetAt') or '0')
  if now >= resetAt then
    resetAt = now + windowMs
    redis.call('HSET', key, 'resetAt', string.format('%d', resetAt))
    redis.call('DEL', membersKey)
  end
  redis.call('SADD', membersKey, member)
  redis.call('PEXPIRE', key, windowMs + 60000)
  redis.call('PEXPIRE', membersKey, windowMs + 60000)
  return redis.call('SCARD', membersKey), string.format('%d', resetAt)
end
