--[[
  GET /maps/{seed} (spec 4.7) in one round trip: the block check, then the stored map, else
  the job, else (within the per-IP limit of uncached seeds) a new job.

  KEYS: [1] the per-IP counter of uncached seeds (hash resetAt, over; up to the limit's seeds in
           the set <key>:members)
  ARGV: [1] prefix  [2] seed  [3] now (ms)  [4] seed cooldown ms  [5] protection recent length
        [6] queue max  [7] encoding field of the map ('br' | 'gz')  [8] uncached limit
        [9] limit window ms
  Touches: what seedBlock and enqueueJob touch; map:<seed> (read); the counter.
  Returns: { 'blocked', until ms } | { 'permanent' } | { 'ready', etag, body } |
           { 'pending' } | { 'error' } | { 'full' } | { 'limited', resetAt ms }
]]
--- @include "settle-window"
--- @include "seed-block"
--- @include "enqueue-job"
--- @include "count-distinct"

local prefix, seed, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local block = seedBlock(prefix, seed, now, true, tonumber(ARGV[4]), tonumber(ARGV[5]))
if block == 'permanent' then return { 'permanent' } end
if block ~= '' then return { 'blocked', block } end

local map = redis.call('HMGET', prefix .. 'map:' .. seed, 'etag', ARGV[7])
if map[1] then return { 'ready', map[1], map[2] } end

-- Generated seeds are never limited. The limit is on distinct uncached seeds, so polling one
-- pending seed costs one; past the limit every uncached request is refused until the window ends.
local hits, resetAt = countDistinct(KEYS[1], seed, now, tonumber(ARGV[9]), tonumber(ARGV[8]))
if hits > tonumber(ARGV[8]) then return { 'limited', resetAt } end

local status = redis.call('HGET', prefix .. 'job:' .. seed, 'status')
if status == 'error' then return { 'error' } end
local queued = enqueueJob(prefix, seed, now, tonumber(ARGV[6]))
if queued == 'full' then return { 'full' } end
return { 'pending' }
