-- wrk script: the keystroke log as Algolia single-index queries, each connection cycling
-- through the requests in order from its own starting point.
--   wrk -t2 -c32 -d30s -s Benchmarks/wrk/keystrokes.lua http://127.0.0.1:8108 -- BODIES.jsonl INDEX
-- BODIES.jsonl: one JSON search body per line (the log's lines without "indexName").
local bodies = {}
local path = "/1/indexes/products/query"
local counter = 0

function init(args)
  local file = assert(io.open(args[1], "r"), "cannot open " .. tostring(args[1]))
  for line in file:lines() do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  file:close()
  if args[2] then path = "/1/indexes/" .. args[2] .. "/query" end
  counter = math.random(#bodies)
end

function request()
  counter = counter % #bodies + 1
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/json",
    ["X-Algolia-Application-Id"] = "local",
    ["X-Algolia-API-Key"] = "local",
  }, bodies[counter])
end

local errors = 0
function response(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("requests %d in %.1f s: %.0f/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; errors: %d socket, %d non-2xx\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.errors.status))
end
