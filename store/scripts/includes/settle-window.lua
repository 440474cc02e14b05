--[[
  Settles the window of one seed: charges the time actually blocked to the seed's budget, starts
  the seed cooldown, frees the owning key, and keeps the window for protection statistics.
  Runs when the window has run out at `now`, or at once when `force` (round_end).
  Settling a seed without a window changes nothing, so settling twice is harmless.
  Keys (from the prefix): window:<seed>, seed:<seed>, server:<id>, windows:open, windows:ended,
  seeds:hidden
  windows:ended (protection statistics' `recent`) is a sorted set scored by the end time, so its
  order is the order windows ended in, not the order they were settled in: a sweep or a read may
  settle a window that ran out after a later window was closed by round_end. A tie on the end
  time goes to the window opened later, then to the higher seed (the member starts with both,
  zero-padded, so member order is numeric order); it ends with the views refused and the kind of
  the key that held the window (plugin, self or http). It holds the PROTECTION_RECENT_MAX
  latest-ended windows.
  (Versions before it kept a list under windows:recent; that key is no longer read or written.)
  Returns true when a window was settled.
]]
--- @include "hidden-seeds"

local function settleWindow(prefix, seed, now, force)
  local windowKey = prefix .. 'window:' .. seed
  local w = redis.call('HMGET', windowKey, 'serverId', 'openedAt', 'endsAt', 'viewAttempts')
  if not w[1] then return false end
  local openedAt, endsAt = tonumber(w[2]), tonumber(w[3])
  if not force and now < endsAt then return false end
  local endedAt = math.max(openedAt, math.min(now, endsAt))
  local seedKey = prefix .. 'seed:' .. seed
  redis.call('HINCRBY', seedKey, 'usedMs', endedAt - openedAt)
  redis.call('HSET', seedKey, 'cooldownUntil', string.format('%d', endedAt + SPEC.seedCooldownMs))
  local serverKey = prefix .. 'server:' .. w[1]
  if redis.call('HGET', serverKey, 'windowSeed') == seed then
    redis.call('HDEL', serverKey, 'windowSeed')
  end
  redis.call('ZREM', prefix .. 'windows:open', seed)
  local endedKey = prefix .. 'windows:ended'
  redis.call('ZADD', endedKey, string.format('%d', endedAt), string.format('%015d:%010d:%d:%s', openedAt,
    tonumber(seed), tonumber(w[4] or '0'), redis.call('HGET', serverKey, 'kind') or ''))
  redis.call('ZREMRANGEBYRANK', endedKey, 0, -SPEC.protectionRecentMax - 1)
  redis.call('DEL', windowKey)
  syncHiddenSeed(prefix, seed)
  return true
end
