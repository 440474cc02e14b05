--[[
  GET /jobs/{seed} (spec 4.8): the block check (as for maps), then the job; a seed never
  requested is queued.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] clock (see includes/clock.lua)  [4] queue max
  Touches: what seedBlock and enqueueJob touch; the seed index and queue:wait (read).
  Returns: { 'blocked', until ms } | { 'permanent' } | { 'full' } |
           { status ('queued'|'running'|'ready'|'error'), ahead or error reason }
]]
--- @include "clock"
--- @include "seed-block"
--- @include "seed-index"
--- @include "enqueue-job"

local prefix, seed, now = ARGV[1], ARGV[2], clockNow(ARGV[3])
local block = seedBlock(prefix, seed, now)
if block == 'permanent' then return { 'permanent' } end
if block ~= '' then return { 'blocked', block } end

if seedOrder(prefix, seed) then return { 'ready' } end
if enqueueJob(prefix, seed, now, tonumber(ARGV[4])) == 'full' then return { 'full' } end

local job = redis.call('HMGET', prefix .. 'job:' .. seed, 'status', 'error')
if job[1] == 'error' then return { 'error', job[2] or 'generation failed' } end
if job[1] == 'queued' then
  -- New jobs are pushed on the left and taken from the right: those to our right are ahead.
  local waitKey = prefix .. 'queue:wait'
  local index = redis.call('LPOS', waitKey, seed)
  if index then return { 'queued', redis.call('LLEN', waitKey) - 1 - index } end
  return { 'queued', 0 }
end
return { job[1] or 'queued' }
