--[[
  The block engine's report decision (spec 3.1) for a key already admitted (includes/decide-report).

  KEYS: none; every key is built from the prefix (the keys touched depend on the stored window
        of the reporting key, which is only known inside the script).
  ARGV: [1] prefix  [2] serverId  [3] capMs of the key's kind  [4] seed  [5] event
        [6] now (ms)  [7] seed cooldown ms  [8] per-key gap ms  [9] detection purge ms
        [10] protection recent length  [11] unused self-claim lapse ms
  Returns: { outcome, blockedUntil ms or '', exhausted 0/1 } (see includes/decide-report)
]]
--- @include "hidden-seeds"
--- @include "settle-window"
--- @include "registration"
--- @include "seed-index"
--- @include "decide-report"

return decideReport(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6]), {
  cooldownMs = tonumber(ARGV[7]),
  gapMs = tonumber(ARGV[8]),
  purgeMs = tonumber(ARGV[9]),
  recentMax = tonumber(ARGV[10]),
  lapseMs = tonumber(ARGV[11]),
})
