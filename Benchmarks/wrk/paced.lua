-- wrk script: the keystroke log (keystrokes.lua) at a paced rate below saturation: each
-- connection waits DELAY milliseconds after each answer before it sends its next request, so
-- the rate is about connections / (DELAY + latency). Closed-loop pacing (wrk has no open-loop
-- rate): a slow answer delays that connection's next request rather than queueing it.
--   wrk -t2 -c32 -d30s -s Benchmarks/wrk/paced.lua http://127.0.0.1:8108 -- BODIES.jsonl INDEX DELAY
local folder = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(folder .. "keystrokes.lua")
local keystrokesInit = init
local pause = 0

function init(args)
  keystrokesInit(args)
  pause = tonumber(args[3]) or 0
end

function delay()
  return pause
end
