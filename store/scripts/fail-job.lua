--[[
  A generation attempt failed (or its worker died): back to the queue while attempts remain,
  else the job is `error` with the reason.

  KEYS: none; built from the prefix.
  ARGV: [1] prefix  [2] seed  [3] reason
  Touches: job:<seed>, queue:active, queue:wait, queue:leases
  Returns: 'requeued' or 'error'
]]
--- @include "fail-job"

return failJob(ARGV[1], ARGV[2], ARGV[3])
