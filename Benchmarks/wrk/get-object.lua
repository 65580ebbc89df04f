-- wrk script: one record fetched again and again (`GET /1/indexes/{index}/{objectID}`), the
-- cheapest read the server answers, for what a request costs besides its search.
--   wrk -t2 -c32 -d10s -s Benchmarks/wrk/get-object.lua http://127.0.0.1:18108/1/indexes/products/p42792
wrk.headers["X-Algolia-Application-Id"] = "local"
wrk.headers["X-Algolia-API-Key"] = "local"

local errors = 0
function response(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end
