--[[
  A fixed-window rate counter (spec 8): the window starts at the first request for the key and
  lasts `windowMs`; requests past the limit still count, so retrying after a 429 keeps failing
  until the window ends.

  KEYS: [1] the counter hash (hits, resetAt)
  ARGV: [1] now (ms)  [2] window length (ms)
  Returns: { hits in this window, window end (ms) }
]]
local now, windowMs = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'hits', 'resetAt')
local resetAt = tonumber(state[2] or '0')
local hits
if not state[1] or now >= resetAt then
  resetAt = now + windowMs
  hits = 1
  redis.call('HSET', KEYS[1], 'hits', 1, 'resetAt', string.format('%d', resetAt))
else
  hits = redis.call('HINCRBY', KEYS[1], 'hits', 1)
end
-- The TTL only cleans up; the window itself is judged by the clock above.
redis.call('PEXPIRE', KEYS[1], windowMs + 60000)
return { hits, string.format('%d', resetAt) }
