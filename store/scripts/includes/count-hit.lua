--[[
  A fixed-window rate counter (spec 8): the window starts at the first request for the key and
  lasts `windowMs`; requests past the limit still count, so retrying after a 429 keeps failing
  until the window ends. The TTL only cleans up; the window is judged by the clock.
  Returns: hits in this window, window end (ms, as a string)
]]
local function countHit(key, now, windowMs)
  local state = redis.call('HMGET', key, 'hits', 'resetAt')
  local resetAt = tonumber(state[2] or '0')
  local hits
  if not state[1] or now >= resetAt then
    resetAt = now + windowMs
    hits = 1
    redis.call('HSET', key, 'hits', 1, 'resetAt', string.format('%d', resetAt))
    -- Set with the window, the TTL outlives it: the key is there for every hit of its window.
    redis.call('PEXPIRE', key, windowMs + 60000)
  else
    hits = redis.call('HINCRBY', key, 'hits', 1)
  end
  return hits, string.format('%d', resetAt)
end
