-- Cycles through the paths given after `--`, one per request, with wrk's -H headers: varied
-- paths (e.g. 64 seeds) from requests built once in init, so wrk does no work per request.
local requests, i = {}, 0

function init(args)
  for _, path in ipairs(args) do requests[#requests + 1] = wrk.format(nil, path) end
end

function request()
  i = i % #requests + 1
  return requests[i]
end
