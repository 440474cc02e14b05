--[[
  Sends a job that did not finish back to the queue (to the front: it waited already), or marks
  it `error` once it has used its attempts (JOB_MAX_ATTEMPTS).
  Keys (from the prefix): job:<seed>, queue:active, queue:wait, queue:leases
]]
local function failJob(prefix, seed, reason)
  local jobKey = prefix .. 'job:' .. seed
  redis.call('LREM', prefix .. 'queue:active', 1, seed)
  redis.call('ZREM', prefix .. 'queue:leases', seed)
  local attempts = tonumber(redis.call('HGET', jobKey, 'attempts') or '0')
  if attempts >= SPEC.jobMaxAttempts then
    redis.call('HSET', jobKey, 'status', 'error', 'error', reason)
    return 'error'
  end
  redis.call('HSET', jobKey, 'status', 'queued', 'error', reason)
  redis.call('RPUSH', prefix .. 'queue:wait', seed)
  return 'requeued'
end
