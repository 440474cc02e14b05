--[[
  Admits a report (spec 5.2 and 8) in the order of its checks: the per-IP limit, the key (a
  game-server key only from the IP it was registered at), the per-key limit. A request stopped by
  one check is not counted by the later ones. Needs the include count-hit.
  Touches: rate:reportPerIp:<ip key>, credential:<hash>, rate:reportPerKey:<serverId>
  `request`: ipKey (IPv4 address, IPv6 /56), credentialHash ('' for a malformed credential),
  clientIp, now (ms), ipLimit, keyLimit, ipWindowMs, keyWindowMs.
  Returns: { 'limited', window end ms } | { 'invalid' } | { 'admitted', serverId, kind, ip or '' }
]]
local function admitReport(prefix, request)
  local hits, resetAt = countHit(prefix .. 'rate:reportPerIp:' .. request.ipKey, request.now, request.ipWindowMs)
  if hits > request.ipLimit then return { 'limited', resetAt } end

  if request.credentialHash == '' then return { 'invalid' } end
  local key = redis.call('HMGET', prefix .. 'credential:' .. request.credentialHash, 'serverId', 'kind', 'ip')
  local serverId, kind, ip = key[1], key[2], key[3] or ''
  if not serverId or not kind then return { 'invalid' } end
  if kind ~= 'http' and ip ~= request.clientIp then return { 'invalid' } end

  hits, resetAt = countHit(prefix .. 'rate:reportPerKey:' .. serverId, request.now, request.keyWindowMs)
  if hits > request.keyLimit then return { 'limited', resetAt } end
  return { 'admitted', serverId, kind, ip }
end

-- The request fields of admitReport from ARGV[2..9] (see the scripts' headers).
local function admissionArgs()
  return {
    ipKey = ARGV[2],
    credentialHash = ARGV[3],
    clientIp = ARGV[4],
    now = tonumber(ARGV[5]),
    ipLimit = tonumber(ARGV[6]),
    keyLimit = tonumber(ARGV[7]),
    ipWindowMs = tonumber(ARGV[8]),
    keyWindowMs = tonumber(ARGV[9]),
  }
end
