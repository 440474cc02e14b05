--[[
  Whether a seed may be shown now. Settles its window first when it has run out, so a read never
  waits for the sweeper. A refusal writes nothing (count-refused-view.lua counts the view apart),
  so it stands when the master takes no writes (NOREPLICAS, OOM).
  Keys (from the prefix): blocklist, window:<seed>, stats
  Returns: '' when visible, 'permanent' when on the blocklist, else the window's end (ms).
]]
--- @include "settle-window"

local function seedBlock(prefix, seed, now)
  -- The blocklist is no window: its refusals are not the "views refused while a window was open"
  -- of viewAttemptsBlocked (spec 2.7).
  if redis.call('SISMEMBER', prefix .. 'blocklist', seed) == 1 then return 'permanent' end
  local windowKey = prefix .. 'window:' .. seed
  local endsAt = redis.call('HGET', windowKey, 'endsAt')
  if not endsAt then return '' end
  -- A window that has run out is settled now (the sweeper may not have come by yet).
  if settleWindow(prefix, seed, now, false) then return '' end
  return endsAt
end
