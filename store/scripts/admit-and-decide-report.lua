--[[
  A whole report (POST /plugin/v1/report, /v1/servers/report) in one atomic step, in the spec's
  order: the per-IP limit, the key, the per-key limit (includes/admit-report), the plugin minimum
  (spec 4.4, 4.5; only when a pluginVersion is given), then the block engine's decision
  (includes/decide-report). One round trip where the separate steps took two or three.

  KEYS: none; every key is built from the prefix (the keys touched depend on the server id the
        credential leads to, which is only known inside the script).
  ARGV: [1] prefix  [2..6] as admit-report.lua  [7] seed  [8] event  [9] pluginVersion ('' for
        none)
  Touches: what admit-report.lua and report-seed.lua touch, and reads version (minimum, downloadUrl)
  Returns: { 'limited', window end ms } | { 'invalid' } | { 'outdated', minimum, downloadUrl or '' }
           | { 'decided', outcome, blockedUntil ms or '', exhausted 0/1 } (report-seed.lua's result)
]]
--- @include "admit-report"
--- @include "plugin-minimum"
--- @include "decide-report"

local prefix = ARGV[1]
local request = admissionArgs()
local admission = admitReport(prefix, request)
if admission[1] ~= 'admitted' then return admission end

local pluginVersion = ARGV[9]
if pluginVersion ~= '' then
  local version = redis.call('HMGET', prefix .. 'version', 'minimum', 'downloadUrl')
  if version[1] and isBelowMinimum(pluginVersion, version[1]) then
    return { 'outdated', version[1], version[2] or '' }
  end
end

local decision = decideReport(prefix, admission[2], admission[3], ARGV[7], ARGV[8], request.now)
return { 'decided', decision[1], decision[2], decision[3] }
