--[[
  A sighting of a seed by the seed detector (outside this service). Dropped while the seed's
  window is open (a blocked seed is not collected); otherwise recorded and, when the seed has no
  map or job yet, its generation is queued.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] clock (see includes/clock.lua)  [4] sighting id  [5] queue max
  Touches: det:<seed>, det:all (kept for the longest of DETECTION_WINDOWS_MS), seeds:detected, seeds:known-undumped, the seed index (a dumped
           seed's `detected` flag), and what seedBlock/enqueueJob touch.
  Returns: 'recorded' | 'dropped'
]]
--- @include "clock"
--- @include "seed-block"
--- @include "seed-index"
--- @include "enqueue-job"

local prefix, seed, now, id = ARGV[1], ARGV[2], clockNow(ARGV[3]), ARGV[4]
local block = seedBlock(prefix, seed, now)
if block ~= '' and block ~= 'permanent' then return 'dropped' end
local at = string.format('%d', now)
redis.call('ZADD', prefix .. 'det:' .. seed, at, id)
redis.call('ZADD', prefix .. 'det:all', at, seed .. ':' .. id)
redis.call('ZREMRANGEBYSCORE', prefix .. 'det:all', '-inf', string.format('%d', now - SPEC.detectionWindowsMs['7d']))
if redis.call('SADD', prefix .. 'seeds:detected', seed) == 1 then setSeedDetected(prefix, seed, 1) end
-- Known seeds (spec 2.8 seedsTracked) are the dumped ones plus those only ever sighted.
if not seedOrder(prefix, seed) then redis.call('SADD', prefix .. 'seeds:known-undumped', seed) end
if block == '' then enqueueJob(prefix, seed, now, tonumber(ARGV[5])) end
return 'recorded'
