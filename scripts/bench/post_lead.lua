-- wrk script: every request posts a valid lead with a bot-check token, as
-- one of 4,096 clients behind a trusted proxy (X-Forwarded-For), so the
-- per-client form limit is exercised with many keys and none is exhausted.
-- The requests are formatted once, up front, so wrk's own cost stays flat.
local body = '{"name":"Load Test","email":"load@example.com","company":"Bench Ltd","message":"A lead sent by the load benchmark.","captchaToken":"bench"}'
local requests = {}
local count = 4096
local next_index = 0

function init(args)
  for i = 1, count do
    local headers = {
      ["Content-Type"] = "application/json",
      ["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(i / 65536) % 256, math.floor(i / 256) % 256, i % 256),
    }
    requests[i] = wrk.format("POST", nil, headers, body)
  end
end

function request()
  next_index = next_index % count + 1
  return requests[next_index]
end
