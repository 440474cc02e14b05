--[[
  Whether a seed may be shown now. Settles its window first when it has run out, so a read never
  waits for the sweeper. A refused view is counted when `countView`.
  Needs the "settle-window" include.
  Keys (from the prefix): blocklist, window:<seed>, stats
  Returns: '' when visible, 'permanent' when on the blocklist, else the window's end (ms).
]]
local function seedBlock(prefix, seed, now, countView, cooldownMs, recentMax)
  if redis.call('SISMEMBER', prefix .. 'blocklist', seed) == 1 then
    if countView then redis.call('HINCRBY', prefix .. 'stats', 'viewAttemptsBlocked', 1) end
    return 'permanent'
  end
  settleWindow(prefix, seed, now, false, cooldownMs, recentMax)
  local windowKey = prefix .. 'window:' .. seed
  local endsAt = redis.call('HGET', windowKey, 'endsAt')
  if not endsAt then return '' end
  if countView then
    redis.call('HINCRBY', windowKey, 'viewAttempts', 1)
    redis.call('HINCRBY', prefix .. 'stats', 'viewAttemptsBlocked', 1)
  end
  return endsAt
end
