-- wrk script: counts the answers that are not 304 Not Modified, over every wrk thread.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  others = 0
end

function response(status, headers, body)
  if status ~= 304 then
    others = others + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("others")
  end
  io.write(string.format("not 304: %d\n", total))
end
