-- Reports, each from the next of the keys in a file (one `Bearer` credential per line), cycling
-- through round_start, periodic, periodic, round_end over 5,000 seeds. Args: path, key file.
local path, keys, n = nil, {}, 0
local events = { 'round_start', 'periodic', 'periodic', 'round_end' }

function init(args)
  path = args[1]
  for line in io.lines(args[2]) do keys[#keys + 1] = 'Bearer ' .. line end
end

function request()
  n = n + 1
  local body = string.format('{"event":"%s","seed":%d,"port":7777}', events[n % 4 + 1], 1 + n % 5000)
  local headers = { ['Content-Type'] = 'application/json', Authorization = keys[n % #keys + 1] }
  return wrk.format('POST', path, headers, body)
end
