--[[
  Builds seeds:hidden afresh from the windows and the blocklist (see includes/hidden-seeds.lua):
  each API process runs it at start, before it trusts the hash, so one upgraded from a version
  that did not keep it (or a hash lost or damaged) is right again.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix
  Touches: seeds:hidden; windows:open, blocklist, window:<seed> (read)
  Returns: how many seeds are hidden.
]]
--- @include "hidden-seeds"

local prefix = ARGV[1]
redis.call('DEL', prefix .. 'seeds:hidden')
for _, seed in ipairs(redis.call('SMEMBERS', prefix .. 'blocklist')) do syncHiddenSeed(prefix, seed) end
for _, seed in ipairs(redis.call('ZRANGE', prefix .. 'windows:open', 0, -1)) do syncHiddenSeed(prefix, seed) end
return redis.call('HLEN', prefix .. 'seeds:hidden')
