-- :checkhealth omegad, read from the report buffer.
local omegad = require("omegad")
local H = require("harness")

local function checkhealth()
  vim.cmd("silent checkhealth omegad")
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  vim.cmd("silent! tabclose")
  return text
end

local function fake_hello(hello)
  return H.fake(function(conn, req)
    conn:send(H.ok(req.id, hello))
  end)
end

return function(env)
  return {
    {
      "against the daemon: socket, answer, protocol, status, reranker, namespace",
      function()
        omegad.setup({ socket = env.daemon.socket, namespace = "health-ns" })
        local report = checkhealth()
        H.contains(report, "OK socket found: " .. env.daemon.socket .. " (from setup{socket})")
        H.contains(report, "OK daemon answers: omegad ")
        H.contains(report, "OK protocol version 1")
        H.contains(report, "OK status: ok, no problems")
        H.contains(report, "WARNING reranker: missing (queries still work, in heuristic order)")
        H.contains(report, "omegad models fetch reranker") -- the fix, as advice
        H.contains(report, "namespace: health-ns (from setup)")
        H.truthy(not report:find("ERROR"), "no errors in:\n" .. report)
      end,
    },
    {
      "no daemon: the socket is missing, with how to start it",
      function()
        local dir = H.tmpdir("odno")
        omegad.setup({ socket = dir .. "/none.sock" })
        local report = checkhealth()
        H.contains(report, "ERROR no socket at " .. dir .. "/none.sock (from setup{socket})")
        H.contains(report, "omegad serve")
        vim.fn.delete(dir, "rf")
      end,
    },
    {
      "a stale socket nobody listens on: the daemon does not answer",
      function()
        local dir = H.tmpdir("odst")
        -- Python leaves the socket file behind when it exits (libuv would remove it).
        local code = "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])"
        H.eq(vim.system({ H.python(), "-c", code, dir .. "/stale.sock" }):wait(30000).code, 0, "bind")
        omegad.setup({ socket = dir .. "/stale.sock" })
        local report = checkhealth()
        H.contains(report, "OK socket found")
        H.contains(report, "ERROR the daemon does not answer")
        vim.fn.delete(dir, "rf")
      end,
    },
    {
      "a degraded daemon: each problem with its fix",
      function()
        local fake = fake_hello({
          protocol = 1,
          daemon_version = "9.9",
          status = "degraded",
          problems = {
            { code = "disk_full", message = "the data disk is full", fix = "free space on /data" },
            { code = "model_damaged", message = "the model files changed", fix = "omegad models fetch" },
          },
          reranker = { state = "ready", model = "tiny" },
        })
        omegad.setup({ socket = fake.socket })
        local report = checkhealth()
        fake:close()
        H.contains(report, "ERROR status: degraded")
        H.contains(report, "ERROR problem disk_full: the data disk is full")
        H.contains(report, "free space on /data")
        H.contains(report, "WARNING problem model_damaged: the model files changed")
        H.contains(report, "OK reranker: ready (tiny)")
      end,
    },
    {
      "a daemon of another protocol version",
      function()
        local fake = fake_hello({ protocol = 2, daemon_version = "2.0", status = "ok", problems = {}, reranker = { state = "disabled" } })
        omegad.setup({ socket = fake.socket })
        local report = checkhealth()
        fake:close()
        H.contains(report, "ERROR protocol version 2; this plugin speaks 1")
        H.contains(report, "reranker: disabled")
      end,
    },
  }
end
