--[[
  Counts a view an open window refused (spec 2.7 viewAttemptsBlocked, and the window's own
  viewAttempts), apart from the refusal: the refusal itself writes nothing, so it stands whatever
  the master accepts to write, and this count is best effort. Only the window the refusal named
  counts it, or that window extended since (a report in between): one that closed in between is
  not brought back as a stray key.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] the end of the window the refusal named (ms)
  Touches: window:<seed>, stats
  Returns: 1 when counted, 0 when that window is gone.
]]
local windowKey = ARGV[1] .. 'window:' .. ARGV[2]
local endsAt = redis.call('HGET', windowKey, 'endsAt')
if not endsAt or tonumber(endsAt) < tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', windowKey, 'viewAttempts', 1)
redis.call('HINCRBY', ARGV[1] .. 'stats', 'viewAttemptsBlocked', 1)
return 1
