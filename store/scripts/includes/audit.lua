--[[
  The audit trail (store/audit.ts): who did what to which target, and when (the script's clock),
  as one entry of the stream audit, written in the same step as the action it records. Bounded:
  SPEC.auditMaxEntries entries at most, none older than SPEC.auditMaxAgeMs by Redis's TIME (stream
  ids are Redis's time; trimming only cleans up). Needs `--- @include "spec"` before it.
  An action without an actor (a key holder's own revoke through the API) is not recorded.
  `extra`: further { name, value, ... } pairs; empty values are left out.
]]
local function recordAudit(prefix, now, actor, action, target, extra)
  if actor == '' then return end
  local key = prefix .. 'audit'
  local fields = { 'at', string.format('%d', now), 'actor', actor, 'action', action, 'target', target }
  for i = 1, #(extra or {}), 2 do
    if extra[i + 1] and extra[i + 1] ~= '' then
      table.insert(fields, extra[i])
      table.insert(fields, extra[i + 1])
    end
  end
  redis.call('XADD', key, 'MAXLEN', SPEC.auditMaxEntries, '*', unpack(fields))
  local time = redis.call('TIME')
  local oldest = tonumber(time[1]) * 1000 - SPEC.auditMaxAgeMs
  redis.call('XTRIM', key, 'MINID', string.format('%d', oldest))
end
