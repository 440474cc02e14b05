--[[
  Admits a report (spec 5.2 and 8) in the order of its checks: the per-IP limit, the key (a
  game-server key only from the IP it was registered at), the per-key limit. A request stopped by
  one check is not counted by the later ones.
  Touches: rate:reportPerIp:<ip key>, credential:<hash>, rate:reportPerKey:<serverId>
  `request`: ipKey (IPv4 address, IPv6 /56), credentialHash ('' for a malformed credential),
  clientIp, now (ms, by includes/clock), multiplier (of the spec's limits, RATE_LIMIT_MULTIPLIER).
  Returns: { 'limited', window end ms } | { 'invalid' } | { 'admitted', serverId, kind, ip or '' }
]]
--- @include "clock"
--- @include "count-hit"

local function admitReport(prefix, request)
  local perIp, perKey = SPEC.rateLimits.reportPerIp, SPEC.rateLimits.reportPerKey
  local hits, resetAt = countHit(prefix .. 'rate:reportPerIp:' .. request.ipKey, request.now, perIp.windowMs)
  if hits > perIp.limit * request.multiplier then return { 'limited', resetAt } end

  if request.credentialHash == '' then return { 'invalid' } end
  local key = redis.call('HMGET', prefix .. 'credential:' .. request.credentialHash, 'serverId', 'kind', 'ip')
  local serverId, kind, ip = key[1], key[2], key[3] or ''
  if not serverId or not kind then return { 'invalid' } end
  if kind ~= 'http' and ip ~= request.clientIp then return { 'invalid' } end

  hits, resetAt = countHit(prefix .. 'rate:reportPerKey:' .. serverId, request.now, perKey.windowMs)
  if hits > perKey.limit * request.multiplier then return { 'limited', resetAt } end
  return { 'admitted', serverId, kind, ip }
end

-- The request fields of admitReport from ARGV[2..6] (see the scripts' headers).
local function admissionArgs()
  return {
    ipKey = ARGV[2],
    credentialHash = ARGV[3],
    clientIp = ARGV[4],
    now = clockNow(ARGV[5]),
    multiplier = tonumber(ARGV[6]),
  }
end
