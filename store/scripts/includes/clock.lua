--[[
  Now, in ms: one clock for every process, Redis's own (TIME), so that processes whose clocks
  disagree still decide alike. `manualKey` is the manual test clock's key when the calling
  process runs with SEEDBLOCK_CLOCK=manual ('' otherwise): that clock lives in Redis, starting at
  Redis's time when first read. A production process passes '', so no key can stop its clock.
]]
local function clockNow(manualKey)
  if manualKey ~= '' then
    local manual = redis.call('GET', manualKey)
    if manual then return tonumber(manual) end
  end
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  if manualKey ~= '' then redis.call('SET', manualKey, string.format('%d', now)) end
  return now
end
