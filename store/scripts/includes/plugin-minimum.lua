--[[
  Whether a plugin version is below the operator's minimum (spec 4.4, 4.5), as isBelowMinimum in
  store/versions.ts decides it: major.minor.patch compared as numbers (a leading `v` allowed), a
  pre-release (`1.2.0-beta`) below its release, an unparsable version below every minimum, and an
  unparsable minimum no minimum at all.
]]
local function parseVersion(v)
  local major, minor, patch = string.match(v, '^%s*v?(%d+)%.(%d+)%.(%d+)')
  if not major then return nil end
  return { tonumber(major), tonumber(minor), tonumber(patch) }
end

local function isBelowMinimum(version, minimum)
  local min = parseVersion(minimum)
  if not min then return false end
  local v = parseVersion(version)
  if not v then return true end
  for i = 1, 3 do
    if v[i] ~= min[i] then return v[i] < min[i] end
  end
  return string.match(version, '^%s*v?%d+%.%d+%.%d+%-') ~= nil
end
