--[[
  Jobs whose worker died: a lease that ran out sends its job back to the queue (or to `error`
  after the last attempt). A seed found in queue:active without a lease (its worker died between
  taking it and leasing it) gets a lease now, so it is reclaimed in turn.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] clock (see includes/clock.lua)
  Touches: queue:leases, queue:active, queue:wait, job:<seed>
  Returns: the number of jobs sent back or failed.
]]
--- @include "clock"
--- @include "fail-job"

local prefix, now = ARGV[1], clockNow(ARGV[2])
local leases = prefix .. 'queue:leases'
for _, seed in ipairs(redis.call('LRANGE', prefix .. 'queue:active', 0, -1)) do
  if not redis.call('ZSCORE', leases, seed) then
    redis.call('ZADD', leases, string.format('%d', now + SPEC.jobVisibilityMs), seed)
  end
end
local stale = redis.call('ZRANGEBYSCORE', leases, '-inf', string.format('%d', now))
for _, seed in ipairs(stale) do
  failJob(prefix, seed, 'worker stopped before finishing')
end
return #stale
