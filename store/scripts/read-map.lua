--[[
  GET /maps/{seed} (spec 4.7) in one round trip, for a map the API process does not hold (one it
  holds needs only check-seed-block): the block check, then for a dumped seed its bytes from the
  map cache (or word that the caller must rebuild them), for any other seed its job, or (within
  the per-IP limit of uncached seeds) a new job.

  KEYS: [1] the per-IP counter of uncached seeds (hash resetAt, over; up to the limit's seeds in
           the set <key>:members)
  ARGV: [1] prefix  [2] seed  [3] clock (see includes/clock.lua)  [4] queue max  [5] uncached limit
        (per window of RATE_LIMITS.uncachedMapsPerIp)  [6] generator version (an ETag starts
        `"<version>.`; a cached map of another version is not served: 'rebuild')
  Touches: what seedBlock and enqueueJob touch; the seed index (read); the map cache (read, and
           the LRU tick of an entry read); the counter.
  Returns: { 'blocked', until ms } | { 'permanent' } |
           { 'cached', etag, brotli body, gzip body } | { 'rebuild' } (dumped, not cached) |
           { 'pending' } | { 'error' } | { 'full' } | { 'limited', resetAt ms }
]]
--- @include "clock"
--- @include "seed-block"
--- @include "seed-index"
--- @include "count-distinct"
--- @include "enqueue-job"
--- @include "map-cache"

local prefix, seed, now = ARGV[1], ARGV[2], clockNow(ARGV[3])
local block = seedBlock(prefix, seed, now)
if block == 'permanent' then return { 'permanent' } end
if block ~= '' then return { 'blocked', block } end

-- A dumped seed counts as generated (spec 8): never limited, never queued again.
if seedOrder(prefix, seed) then
  local cached = redis.call('HMGET', prefix .. 'mapcache:' .. seed, 'etag', 'br', 'gz')
  local version = '"' .. ARGV[6] .. '.'
  if not cached[1] or string.sub(cached[1], 1, #version) ~= version then return { 'rebuild' } end
  touchCachedMap(prefix, seed)
  return { 'cached', cached[1], cached[2], cached[3] }
end

-- The limit is on distinct uncached seeds, so polling one pending seed costs one; past the limit
-- every uncached request is refused until the window ends.
local limit = tonumber(ARGV[5])
local hits, resetAt = countDistinct(KEYS[1], seed, now, SPEC.rateLimits.uncachedMapsPerIp.windowMs, limit)
if hits > limit then return { 'limited', resetAt } end

local status = redis.call('HGET', prefix .. 'job:' .. seed, 'status')
if status == 'error' then return { 'error' } end
local queued = enqueueJob(prefix, seed, now, tonumber(ARGV[4]))
if queued == 'full' then return { 'full' } end
return { 'pending' }
