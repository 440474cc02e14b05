--[[
  Settles the window of one seed: charges the time actually blocked to the seed's budget, starts
  the seed cooldown, frees the owning key, and keeps the window for protection statistics.
  Runs when the window has run out at `now`, or at once when `force` (round_end).
  Settling a seed without a window changes nothing, so settling twice is harmless.
  Keys (from the prefix): window:<seed>, seed:<seed>, server:<id>, windows:open, windows:recent
  Returns true when a window was settled.
]]
local function settleWindow(prefix, seed, now, force, cooldownMs, recentMax)
  local windowKey = prefix .. 'window:' .. seed
  local w = redis.call('HMGET', windowKey, 'serverId', 'openedAt', 'endsAt', 'viewAttempts')
  if not w[1] then return false end
  local openedAt, endsAt = tonumber(w[2]), tonumber(w[3])
  if not force and now < endsAt then return false end
  local endedAt = math.max(openedAt, math.min(now, endsAt))
  local seedKey = prefix .. 'seed:' .. seed
  redis.call('HINCRBY', seedKey, 'usedMs', endedAt - openedAt)
  redis.call('HSET', seedKey, 'cooldownUntil', string.format('%d', endedAt + cooldownMs))
  local serverKey = prefix .. 'server:' .. w[1]
  if redis.call('HGET', serverKey, 'windowSeed') == seed then
    redis.call('HDEL', serverKey, 'windowSeed')
  end
  redis.call('ZREM', prefix .. 'windows:open', seed)
  redis.call('LPUSH', prefix .. 'windows:recent', cjson.encode({
    seed = tonumber(seed), at = openedAt, endedAt = endedAt, viewAttempts = tonumber(w[4] or '0')
  }))
  redis.call('LTRIM', prefix .. 'windows:recent', 0, recentMax - 1)
  redis.call('DEL', windowKey)
  return true
end
