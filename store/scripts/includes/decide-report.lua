--[[
  The block engine's report decision (spec 3.1), as one atomic step: a live key's report of a
  seed opens, keeps or closes the seed's window, or says why none opened.
  Touches: server:<id>, seed:<seed>, window:<seed>, window:<other seed of the key>,
           windows:open, windows:ended, seeds:hidden, stats, det:<seed>, det:all, seeds:detected, the seed
           index (a dumped seed's `detected` flag)
  `kind` is the reporting key's (its block cap), `now` in ms, `seed` as its decimal string.
  Returns: { outcome, blockedUntil ms or '', exhausted 0/1 }, outcome one of
           revoked | opened | kept | closed | not_open | other_key | exhausted | cooldown | busy | gap
           (a round_end that closed nothing: not_open when the seed has no open window, other_key
           when another key's window holds it)
]]
--- @include "hidden-seeds"
--- @include "settle-window"
--- @include "registration"
--- @include "seed-index"

local function decideReport(prefix, serverId, kind, seed, event, now)
  local capMs = SPEC.blockCapMs[kind]
  local gapMs, purgeMs, lapseMs = SPEC.serverGapMs, SPEC.detectionPurgeMs, SPEC.selfClaimUnusedLapseMs

  local serverKey = prefix .. 'server:' .. serverId
  local server = redis.call('HMGET', serverKey, 'kind', 'revoked', 'lastReportAt', 'issuedAt')
  if not server[1] or server[2] then return { 'revoked', '', 0 } end
  -- A self-issued key never used within its first day has lapsed (its slot is free again).
  if server[1] == 'self' and not server[3] and now >= tonumber(server[4]) + lapseMs then
    revokeRegistration(prefix, serverId, string.format('%d', now))
    return { 'revoked', '', 0 }
  end
  redis.call('HSET', serverKey, 'lastReportAt', string.format('%d', now))

  -- Whatever ran out before `now` is settled first, so every rule below sees closed windows.
  settleWindow(prefix, seed, now, false)
  local ownSeed = redis.call('HGET', serverKey, 'windowSeed')
  if ownSeed and ownSeed ~= seed and settleWindow(prefix, ownSeed, now, false) then
    ownSeed = false
  end

  local windowKey = prefix .. 'window:' .. seed
  local window = redis.call('HMGET', windowKey, 'serverId', 'endsAt')

  if event == 'round_end' then
    if window[1] == serverId then
      settleWindow(prefix, seed, now, true)
      return { 'closed', '', 0 }
    end
    return { window[1] and 'other_key' or 'not_open', '', 0 }
  end

  -- round_start and periodic from here on.
  if window[1] == serverId then return { 'kept', window[2], 0 } end
  if window[1] then
    -- Another key holds this seed: the seed stays hidden, nothing is extended. The answer is the
    -- window's end whatever else the reporting key holds (3.1 row "open / report of the same seed").
    return { 'kept', window[2], 0 }
  end

  local seedKey = prefix .. 'seed:' .. seed
  local budget = redis.call('HMGET', seedKey, 'usedMs', 'cooldownUntil')
  local used = tonumber(budget[1] or '0')
  local remaining = capMs - used
  if remaining <= 0 then return { 'exhausted', '', 1 } end
  if budget[2] and now < tonumber(budget[2]) then return { 'cooldown', '', 0 } end
  if ownSeed then return { 'busy', '', 0 } end
  local lastOpenedAt = redis.call('HGET', serverKey, 'lastWindowOpenedAt')
  if lastOpenedAt and now < tonumber(lastOpenedAt) + gapMs then return { 'gap', '', 0 } end

  local endsAt = string.format('%d', now + math.min(capMs, remaining))
  redis.call('HSET', windowKey, 'seed', seed, 'serverId', serverId, 'openedAt', string.format('%d', now),
    'endsAt', endsAt, 'viewAttempts', 0)
  redis.call('HSET', serverKey, 'windowSeed', seed, 'lastWindowOpenedAt', string.format('%d', now))
  redis.call('ZADD', prefix .. 'windows:open', endsAt, seed)
  syncHiddenSeed(prefix, seed)
  redis.call('HINCRBY', prefix .. 'stats', 'windows', 1)
  if not budget[1] then
    redis.call('HSET', seedKey, 'usedMs', 0)
    redis.call('HINCRBY', prefix .. 'stats', 'seeds', 1)
  end

  -- Sightings of this seed from the last minutes likely came from this very round: drop them.
  local detKey = prefix .. 'det:' .. seed
  local since = string.format('%d', now - purgeMs)
  local recent = redis.call('ZRANGEBYSCORE', detKey, since, '+inf')
  for _, id in ipairs(recent) do
    redis.call('ZREM', prefix .. 'det:all', seed .. ':' .. id)
  end
  redis.call('ZREMRANGEBYSCORE', detKey, since, '+inf')
  if redis.call('EXISTS', detKey) == 0 and redis.call('SREM', prefix .. 'seeds:detected', seed) == 1 then
    setSeedDetected(prefix, seed, 0)
  end

  return { 'opened', endsAt, 0 }
end
