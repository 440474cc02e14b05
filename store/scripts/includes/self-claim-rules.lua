--[[
  The rules of a self-claim (spec 4.1) that depend on stored state, checked in this order:
  the 5-minute issue interval per IP (SELF_CLAIM_INTERVAL_MS); a live self-issued registration at
  the same IP:port (409 unless its credential is presented or it has been silent over an hour,
  SELF_CLAIM_SILENCE_MS); at most SELF_CLAIM_LIVE_MAX live self-issued credentials per IP (a
  re-claim of the same IP:port frees its slot). Unused self-issued credentials older than
  SELF_CLAIM_UNUSED_LAPSE_MS lapse here, freeing their slot.
  A registration at the address whose issue was answered 503 (marked `unacknowledged` until its
  answer is confirmed, store/acknowledged.ts), unused and younger than SPEC.claimRetryMs, is the
  claim being retried: it is replaced, and the interval it spent is not asked again.
  "Per IP" is per `ipKey`, the key of every per-IP limit (an IPv4 address, an IPv6 /56), so one
  network cannot mint keys address by address; the address in use is the exact `ip`.
  Returns: { 'ok', id to replace or '' } or a refusal { 'interval', ms left } | { 'address in use' }
           | { 'too many', live, ms until an unused one lapses (0 = none will) }
]]
--- @include "registration"

local function selfClaimRules(prefix, ip, ipKey, port, presentedHash, now)
  local intervalMs, liveMax = SPEC.selfClaimIntervalMs, SPEC.selfClaimLiveMax
  local silenceMs, lapseMs = SPEC.selfClaimSilenceMs, SPEC.selfClaimUnusedLapseMs
  local atAddress = redis.call('GET', prefix .. 'address:self:' .. ip .. ':' .. port)
  local held, retried = nil, false
  if atAddress then
    held = redis.call('HMGET', prefix .. 'server:' .. atAddress, 'credentialHash', 'lastReportAt', 'issuedAt',
      'unacknowledged')
    retried = held[4] and not held[2] and now - tonumber(held[3]) < SPEC.claimRetryMs
  end

  local last = redis.call('GET', prefix .. 'selfclaim:last:' .. ipKey)
  if not retried and last and now < tonumber(last) + intervalMs then
    return { 'interval', tonumber(last) + intervalMs - now }
  end

  local replaceId = ''
  if atAddress then
    local lastSeen = tonumber(held[2] or held[3] or '0')
    if retried or held[1] == presentedHash or now - lastSeen > silenceMs then
      replaceId = atAddress
    else
      return { 'address in use' }
    end
  end

  local live, nextLapse = 0, false
  for _, id in ipairs(redis.call('SMEMBERS', prefix .. 'ip:' .. ipKey)) do
    local r = redis.call('HMGET', prefix .. 'server:' .. id, 'issuedAt', 'lastReportAt', 'revoked')
    if not r[1] or r[3] then
      redis.call('SREM', prefix .. 'ip:' .. ipKey, id)
    elseif not r[2] and now >= tonumber(r[1]) + lapseMs then
      revokeRegistration(prefix, id, now)
    elseif id ~= replaceId then
      live = live + 1
      if not r[2] and (not nextLapse or tonumber(r[1]) + lapseMs < nextLapse) then
        nextLapse = tonumber(r[1]) + lapseMs
      end
    end
  end
  -- When an unused credential will lapse, a slot frees then: that is when to retry.
  if live >= liveMax then return { 'too many', live, nextLapse and (nextLapse - now) or 0 } end
  return { 'ok', replaceId }
end
