-- Pages of the seed list at random cursors. Args: path, seed count, page size. The dumped seeds
-- are 1, 3, 5, ..., so a random odd number below 2 * count is a cursor somewhere in the list.
local path, seeds, limit

function init(args)
  path, seeds, limit = args[1], tonumber(args[2]), args[3]
end

function request()
  local cursor = math.random(1, seeds - 1) * 2 + 1
  return wrk.format(nil, path .. '?limit=' .. limit .. '&cursor=' .. cursor)
end
