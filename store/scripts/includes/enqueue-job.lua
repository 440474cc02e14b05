--[[
  Queues generation of a seed once: a seed with a job or a map is left alone. A full queue, or
  Redis near its maxmemory, takes no new seed.
  Keys (from the prefix): job:<seed>, queue:wait; the seed index (read)
  Returns: 'queued' (now or before), 'exists' (has a map or a finished job), or 'full'.
]]
--- @include "seed-index"
--- @include "memory-headroom"

local function enqueueJob(prefix, seed, now, queueMax)
  local jobKey = prefix .. 'job:' .. seed
  local status = redis.call('HGET', jobKey, 'status')
  if status == 'queued' or status == 'running' then return 'queued' end
  if status or seedOrder(prefix, seed) then return 'exists' end
  if redis.call('LLEN', prefix .. 'queue:wait') >= queueMax or memoryTight() then return 'full' end
  redis.call('HSET', jobKey, 'status', 'queued', 'attempts', 0, 'enqueuedAt', string.format('%d', now))
  redis.call('LPUSH', prefix .. 'queue:wait', seed)
  return 'queued'
end
