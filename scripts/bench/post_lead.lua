-- wrk script: every request posts a valid lead with a bot-check token.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"name":"Load Test","email":"load@example.com","company":"Bench Ltd","message":"A lead sent by the load benchmark.","captchaToken":"bench"}'
