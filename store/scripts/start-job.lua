--[[
  A worker took a seed from queue:wait into queue:active (BLMOVE): marks the job running and
  leases it until `now + JOB_VISIBILITY_MS`. A lease that runs out sends the job back (requeue-stale-jobs).

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] clock (see includes/clock.lua)  [4] worker id
  Touches: job:<seed>, queue:leases, queue:active; the seed index (read)
  Returns: attempts so far (this one included), or 0 when the seed needs no work (it is dumped
           already): the job is then acknowledged here.
]]
--- @include "clock"
--- @include "seed-index"

local prefix, seed, now = ARGV[1], ARGV[2], clockNow(ARGV[3])
local jobKey = prefix .. 'job:' .. seed
if seedOrder(prefix, seed) then
  redis.call('LREM', prefix .. 'queue:active', 1, seed)
  redis.call('DEL', jobKey)
  return 0
end
local attempts = redis.call('HINCRBY', jobKey, 'attempts', 1)
redis.call('HSET', jobKey, 'status', 'running', 'startedAt', string.format('%d', now), 'worker', ARGV[4])
redis.call('ZADD', prefix .. 'queue:leases', string.format('%d', now + SPEC.jobVisibilityMs), seed)
return attempts
