--[[
  seeds:hidden: every seed no read may show now, in one hash (seed → the end of its window, or
  'permanent' for the blocklist), so a map an API process holds in memory is checked with a single
  HEXISTS. Derived from the windows and the blocklist, and kept in step with them by every script
  that opens or settles a window or changes the blocklist (build-hidden-seeds.lua rebuilds it).
  A seed in it is looked at closely by seedBlock: its window may have run out, unsettled.
  Keys (from the prefix): seeds:hidden, blocklist (read), window:<seed> (read)
]]
--- Brings a seed's entry in line with its window and the blocklist as they are now.
local function syncHiddenSeed(prefix, seed)
  if redis.call('SISMEMBER', prefix .. 'blocklist', seed) == 1 then
    redis.call('HSET', prefix .. 'seeds:hidden', seed, 'permanent')
    return
  end
  local endsAt = redis.call('HGET', prefix .. 'window:' .. seed, 'endsAt')
  if endsAt then
    redis.call('HSET', prefix .. 'seeds:hidden', seed, endsAt)
  else
    redis.call('HDEL', prefix .. 'seeds:hidden', seed)
  end
end
