-- The commands, end to end: Ex command → picker stub → daemon → buffers, cursor, quickfix.
local omegad = require("omegad")
local commands = require("omegad.commands")
local H = require("harness")

local DARK = "The user prefers dark mode in every editor"
local LIGHT = "The user switched to light mode in every editor"

return function(env)
  -- A project, the plugin set up on the test daemon, a namespace of its own.
  local function start(opts)
    local root, base = H.project(opts and opts.name)
    local ns = H.namespace()
    omegad.setup(vim.tbl_extend("force", { socket = env.daemon.socket, namespace = ns }, opts and opts.setup or {}))
    return root, ns, base
  end

  local function spy_requests()
    local sent = {}
    local c = omegad.client()
    local request = c.request
    c.request = function(self, method, params, cb, o)
      sent[#sent + 1] = { method = method, params = vim.deepcopy(params) }
      return request(self, method, params, cb, o)
    end
    return sent
  end

  local function remembered_id(notification)
    return H.truthy(notification.message:match("%(([^)]+)%)$"), "an id in " .. notification.message)
  end

  return {
    {
      ":OmegadRemember stores the range with file, line, project and language",
      function()
        local root, ns = start()
        vim.cmd.edit("src/app.py")
        H.eq(vim.bo.filetype, "python", "filetype")
        local seen = H.stub_notify()
        local calls = H.stub_select(function(items)
          return items[1] -- decision
        end)
        vim.cmd("2,3OmegadRemember")
        local id = remembered_id(H.wait_notify(seen, "remembered as decision"))
        H.eq(calls[1].items, commands.TYPES, "types offered")
        H.eq(commands.TYPES, { "decision", "lesson", "preference", "fact", "error", "todo", "note", "memory" }, "types")
        local m = H.call(omegad.client(), "get", { id = id })
        H.eq(m.text, "def main():\n    return os.getcwd()", "text")
        H.eq(m.type, "decision", "type")
        H.eq(m.namespace, ns, "namespace")
        H.eq(m.metadata, { file = "src/app.py", line = 2, project = vim.fs.basename(root), language = "python" }, "metadata")
      end,
    },
    {
      ":'<,'>OmegadRemember {type} stores a charwise selection, no picker",
      function()
        start()
        vim.cmd.edit("src/app.py")
        local seen = H.stub_notify()
        local calls = H.stub_select(function()
          error("no picker expected")
        end)
        vim.cmd("normal! 2G5|v3G10|\27") -- "main():" .. "return"
        vim.cmd("'<,'>OmegadRemember lesson")
        local m = H.call(omegad.client(), "get", { id = remembered_id(H.wait_notify(seen, "remembered as lesson")) })
        H.eq(m.text, "main():\n    return", "the exact selection")
        H.eq(m.metadata.line, 2, "line")
        H.eq(#calls, 0, "no picker")
      end,
    },
    {
      ":OmegadRemember: cancelling the picker stores nothing; a blank range is refused",
      function()
        start()
        vim.cmd.edit("src/app.py")
        local seen = H.stub_notify()
        H.stub_select(function()
          return nil
        end)
        local result
        commands.remember({ line1 = 1, line2 = 1, range = 2, args = "" }, function(err)
          result = err
        end)
        H.wait(function()
          return result
        end, "the cancel")
        H.eq(result.code, "cancelled", "cancelled")
        vim.cmd("4OmegadRemember")
        H.wait_notify(seen, "nothing to remember")
        local list = H.call(omegad.client(), "query", { text = "main", namespace = omegad.namespace() })
        H.eq(#list.results, 0, "nothing stored")
      end,
    },
    {
      ":OmegadRecall sends the buffer as context, fills quickfix, jumps to the chosen memory",
      function()
        local root, ns = start()
        local c = omegad.client()
        local a = H.call(c, "store", { text = "We lint with ruff, never flake8", type = "decision", namespace = ns, metadata = { file = "src/app.py", line = 3 } }).id
        local b = H.call(c, "store", { text = "The linter config lives in other.py", type = "fact", namespace = ns, metadata = { file = "src/other.py", line = 4 } }).id
        H.call(c, "store", { text = "Linting runs in CI on every push", type = "note", namespace = ns })
        H.call(c, "flush")
        vim.cmd.edit("README.md")
        local sent = spy_requests()
        local calls = H.stub_select(function(items)
          for _, m in ipairs(items) do
            if m.id == b then
              return m
            end
          end
        end)
        vim.cmd("OmegadRecall which linter do we use")
        H.wait(function()
          return vim.api.nvim_buf_get_name(0) == root .. "/src/other.py"
        end, "the jump to src/other.py")
        H.eq(vim.api.nvim_win_get_cursor(0), { 4, 0 }, "cursor on the memory's line")
        local query = sent[1]
        H.eq(query.method, "query", "method")
        H.eq(query.params.text, "which linter do we use", "question")
        H.eq(query.params.namespace, ns, "namespace")
        H.eq(query.params.context, { project = vim.fs.basename(root), file = "README.md", language = "markdown" }, "context")
        H.eq(#calls[1].items, 3, "all results offered")
        local shown = table.concat(calls[1].formatted, "\n")
        H.contains(shown, "We lint with ruff, never flake8 · decision · " .. os.date("!%Y-"))
        H.contains(shown, "src/app.py:3")
        H.contains(shown, "Linting runs in CI on every push · note · ")
        local qf = vim.fn.getqflist({ title = true, items = true })
        H.eq(qf.title, "omegad: which linter do we use", "quickfix title")
        H.eq(#qf.items, 2, "only results with a file")
        local where = {}
        for _, item in ipairs(qf.items) do
          where[vim.api.nvim_buf_get_name(item.bufnr)] = item.lnum
          H.truthy(item.user_data.id == a or item.user_data.id == b, "user_data carries the id")
        end
        H.eq(where, { [root .. "/src/app.py"] = 3, [root .. "/src/other.py"] = 4 }, "quickfix entries")
      end,
    },
    {
      ":OmegadRecall: a memory without a file is shown, not jumped to; the question is asked for; no results says so",
      function()
        local _, ns = start()
        local c = omegad.client()
        H.call(c, "store", { text = "Releases are cut on Thursdays", type = "fact", namespace = ns })
        H.call(c, "flush")
        vim.cmd.edit("src/app.py")
        local seen = H.stub_notify()
        H.stub_select(function(items)
          return items[1]
        end)
        vim.cmd("OmegadRecall when do we release")
        H.wait_notify(seen, "Releases are cut on Thursdays")
        H.eq(vim.fn.expand("%:t"), "app.py", "still in the same buffer")
        H.eq(#vim.fn.getqflist(), 0, "quickfix untouched")
        omegad.setup({ socket = env.daemon.socket, namespace = H.namespace() })
        local prompts = {}
        vim.ui.input = function(opts, on_confirm)
          prompts[#prompts + 1] = opts.prompt
          vim.schedule(function()
            on_confirm("anything at all")
          end)
        end
        vim.cmd("OmegadRecall") -- no question: asked for
        H.wait_notify(seen, 'nothing recalled for "anything at all"')
        H.eq(prompts, { "Recall: " }, "asked once")
      end,
    },
    {
      ":OmegadRecall on a daemon without query context asks again without it",
      function()
        local fake = H.fake(function(conn, req)
          if req.params.context ~= nil then
            conn:send({ id = req.id, ok = false, error = { code = "invalid_params", message = "params: unknown parameter(s) 'context'", data = { unknown = { "context" } } } })
          else
            conn:send(H.ok(req.id, { results = { { id = "m1", text = "an old daemon's answer", type = "fact", created_at = "2026-01-02T03:04:05Z", metadata = vim.empty_dict() } } }))
          end
        end)
        start()
        omegad.setup({ socket = fake.socket, namespace = "x" })
        local calls = H.stub_select(function()
          return nil
        end)
        vim.cmd("OmegadRecall old daemons")
        H.wait(function()
          return #calls == 1
        end, "the picker")
        fake:close()
        H.eq(calls[1].formatted, { "an old daemon's answer · fact · 2026-01-02" }, "results")
        H.eq(#fake:requests_of("query"), 2, "asked twice")
      end,
    },
    {
      ":OmegadContradictions lists the unresolved ones and resolves the chosen one",
      function()
        local _, ns = start()
        local c = omegad.client()
        local old = H.call(c, "store", { text = DARK, type = "preference", namespace = ns }).id
        local new = H.call(c, "store", { text = LIGHT, type = "preference", namespace = ns }).id
        H.call(c, "flush")
        local seen = H.stub_notify()
        local calls = H.stub_select(function(items, opts)
          if opts.kind == "omegad.contradiction" then
            return items[1]
          end
          return "both_valid"
        end)
        vim.cmd("OmegadContradictions")
        H.wait_notify(seen, "resolved")
        H.eq(#calls, 2, "two pickers")
        H.eq(#calls[1].items, 1, "one contradiction")
        H.contains(calls[1].formatted[1], "new: " .. LIGHT)
        H.contains(calls[1].formatted[1], "old: " .. DARK)
        H.eq(calls[2].items, { "keep_new", "keep_old", "both_valid" }, "resolutions")
        local edges = H.call(c, "contradictions", { namespace = ns }).contradictions
        H.eq({ edges[1].source, edges[1].target, edges[1].resolution }, { new, old, "both_valid" }, "edge")
        vim.cmd("OmegadContradictions")
        H.wait_notify(seen, "no unresolved contradictions in " .. ns)
        H.eq(#calls, 2, "no picker when nothing is open")
      end,
    },
    {
      ":OmegadStatus: connected, protocol, status, reranker with its fix, namespace count",
      function()
        local _, ns = start()
        H.call(omegad.client(), "store", { text = "counted", namespace = ns })
        local seen = H.stub_notify()
        vim.cmd("OmegadStatus")
        local n = H.wait_notify(seen, "connected to")
        H.contains(n.message, "connected to " .. env.daemon.socket)
        H.contains(n.message, "protocol 1")
        H.contains(n.message, "status: ok")
        H.contains(n.message, "reranker: missing\n  fix: ")
        H.contains(n.message, ("namespace %s: 1 memories"):format(ns))
      end,
    },
    {
      ":OmegadStatus: degraded problems with their fixes; stats refused is not fatal",
      function()
        local fake = H.fake(function(conn, req)
          if req.method == "hello" then
            conn:send(H.ok(req.id, {
              protocol = 1,
              daemon_version = "9.9",
              status = "degraded",
              problems = { { code = "disk_full", message = "the data disk is full", fix = "free space on /data" } },
              reranker = { state = "ready", model = "tiny" },
              embedding = { model = "m", variant = "v", dim = 3 },
            }))
          else
            conn:send({ id = req.id, ok = false, error = { code = "forbidden", message = "owner only" } })
          end
        end)
        omegad.setup({ socket = fake.socket, namespace = "x" })
        local seen = H.stub_notify()
        vim.cmd("OmegadStatus")
        local n = H.wait_notify(seen, "status: degraded")
        fake:close()
        H.contains(n.message, "problem disk_full: the data disk is full\n  fix: free space on /data")
        H.contains(n.message, "reranker: ready (tiny)")
        H.contains(n.message, "stats unavailable: owner only (forbidden)")
        H.eq(n.level, vim.log.levels.WARN, "a warning")
      end,
    },
    {
      ":OmegadStatus with no daemon says so",
      function()
        local dir = H.tmpdir("odno")
        omegad.setup({ socket = dir .. "/none.sock" })
        local seen = H.stub_notify()
        vim.cmd("OmegadStatus")
        local n = H.wait_notify(seen, "not connected")
        H.contains(n.message, dir .. "/none.sock")
        vim.fn.delete(dir, "rf")
      end,
    },
    {
      "without a namespace option, commands use the project root's name",
      function()
        H.project("My Proj!")
        omegad.setup({ socket = env.daemon.socket })
        H.eq(omegad.namespace(), "My-Proj", "namespace")
        vim.cmd.edit("src/other.py")
        local seen = H.stub_notify()
        vim.cmd("1OmegadRemember todo")
        local id = remembered_id(H.wait_notify(seen, "remembered as todo in My-Proj"))
        local m = H.call(omegad.client(), "get", { id = id })
        H.eq(m.namespace, "My-Proj", "stored there")
        H.eq(m.metadata.project, "My Proj!", "project metadata keeps the real name")
        H.call(omegad.client(), "delete", { id = id })
      end,
    },
  }
end
