--[[
  Admits a report (POST /plugin/v1/report, /v1/servers/report; spec 5.2 and 8) in one step, in
  the order of the checks: the per-IP limit, the key (a game-server key only from the IP it was
  registered at), the per-key limit. A request stopped by one check is not counted by the later
  ones, as when they were separate calls.

  KEYS: none; every key is built from the prefix (the per-key counter is named by the server id
        the credential leads to, which is only known inside the script).
  Touches: rate:reportPerIp:<ip key>, credential:<hash>, rate:reportPerKey:<serverId>
  ARGV: [1] prefix  [2] the client's per-IP limit key (its IP, an IPv6 one's /56)  [3] credential
        hash ('' for a malformed credential)  [4] client IP  [5] now (ms)  [6] per-IP limit  [7] per-key limit
        [8] per-IP window ms  [9] per-key window ms
  Returns: { 'limited', window end ms } | { 'invalid' } | { 'admitted', serverId, kind, ip or '' }
]]
--- @include "count-hit"

local prefix, ipKey, credentialHash, clientIp = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now, ipLimit, keyLimit = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local ipWindowMs, keyWindowMs = tonumber(ARGV[8]), tonumber(ARGV[9])

local hits, resetAt = countHit(prefix .. 'rate:reportPerIp:' .. ipKey, now, ipWindowMs)
if hits > ipLimit then return { 'limited', resetAt } end

if credentialHash == '' then return { 'invalid' } end
local key = redis.call('HMGET', prefix .. 'credential:' .. credentialHash, 'serverId', 'kind', 'ip')
local serverId, kind, ip = key[1], key[2], key[3] or ''
if not serverId or not kind then return { 'invalid' } end
if kind ~= 'http' and ip ~= clientIp then return { 'invalid' } end

hits, resetAt = countHit(prefix .. 'rate:reportPerKey:' .. serverId, now, keyWindowMs)
if hits > keyLimit then return { 'limited', resetAt } end
return { 'admitted', serverId, kind, ip }
