--[[
  Cancels a claim code that has not been used yet.

  KEYS: [1] code:<normalized code>
  ARGV: none
  Returns: 1 when cancelled now, 0 when unknown, used or already cancelled.
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'used' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'cancelled')
return 1
