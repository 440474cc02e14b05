--[[
  Writes a new registration and its credential lookup, and revokes one.
  Keys (from the prefix): server:<id> (the record), credential:<sha256> (lookup: serverId, kind, ip),
  servers (live registrations by issue time), owner:<owner> (live registrations of a chat user: HTTP keys, and plugin registrations
  their claim codes made),
  address:<kind>:<ip>:<port> (the live registration of that kind at that address), ip:<ipKey> (live
  self-issued ids per IP limit key: IPv4 address, IPv6 /56; records from before it was kept use ip).
]]
local function createRegistration(prefix, serverId, credentialHash, kind, now, fields)
  local serverKey = prefix .. 'server:' .. serverId
  redis.call('HSET', serverKey, 'serverId', serverId, 'kind', kind, 'credentialHash', credentialHash,
    'issuedAt', string.format('%d', now))
  for name, value in pairs(fields) do
    if value ~= '' then redis.call('HSET', serverKey, name, value) end
  end
  redis.call('HSET', prefix .. 'credential:' .. credentialHash, 'serverId', serverId, 'kind', kind,
    'ip', fields.ip or '')
  redis.call('ZADD', prefix .. 'servers', string.format('%d', now), serverId)
  if fields.owner and fields.owner ~= '' then
    redis.call('SADD', prefix .. 'owner:' .. fields.owner, serverId)
  end
  if fields.ip and fields.ip ~= '' and fields.port and fields.port ~= '' then
    redis.call('SET', prefix .. 'address:' .. kind .. ':' .. fields.ip .. ':' .. fields.port, serverId)
  end
  if kind == 'self' then redis.call('SADD', prefix .. 'ip:' .. fields.ipKey, serverId) end
end

-- Revoked records are kept a while for the operator, then cleaned up.
local REVOKED_RECORD_TTL_SECONDS = 30 * 24 * 3600

local function revokeRegistration(prefix, serverId, now)
  local serverKey = prefix .. 'server:' .. serverId
  local r = redis.call('HMGET', serverKey, 'credentialHash', 'revoked', 'owner', 'ip', 'port', 'kind', 'ipKey')
  if not r[1] or r[2] then return false end
  redis.call('HSET', serverKey, 'revoked', string.format('%d', now))
  redis.call('EXPIRE', serverKey, REVOKED_RECORD_TTL_SECONDS)
  redis.call('DEL', prefix .. 'credential:' .. r[1])
  redis.call('ZREM', prefix .. 'servers', serverId)
  if r[3] then redis.call('SREM', prefix .. 'owner:' .. r[3], serverId) end
  if r[4] and r[5] then
    local addressKey = prefix .. 'address:' .. r[6] .. ':' .. r[4] .. ':' .. r[5]
    if redis.call('GET', addressKey) == serverId then redis.call('DEL', addressKey) end
  end
  if r[6] == 'self' then redis.call('SREM', prefix .. 'ip:' .. (r[7] or r[4]), serverId) end
  return true
end
