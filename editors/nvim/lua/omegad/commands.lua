--- The user commands. Each starts a request and returns at once; the reply continues the work
--- through `vim.schedule` (the client guarantees it). The optional `done(err, value)` of each
--- function is called once, when the command has finished (tests wait on it).
local omegad = require("omegad")
local paths = require("omegad.paths")

local M = {}

--- Types offered by :OmegadRemember (the daemon's, minus `session`, which agents write).
M.TYPES = { "decision", "lesson", "preference", "fact", "error", "todo", "note", "memory" }

M.RESOLUTIONS = { "keep_new", "keep_old", "both_valid" }

local RESOLUTION_TEXT = {
  keep_new = "keep new: the newer memory is right",
  keep_old = "keep old: the older memory is right",
  both_valid = "both valid: they do not really contradict",
}

local levels = vim.log.levels

local function finish(done, err, value)
  if done then
    done(err, value)
  end
end

local function isnil(v)
  return v == nil or v == vim.NIL
end

local function describe(err)
  return ("%s (%s)"):format(err.message or "?", err.code or "?")
end

-- Where the current buffer is, for `store` metadata and `query` context.
local function here(buf)
  buf = buf or vim.api.nvim_get_current_buf()
  local root = omegad.project_root()
  local where = { project = vim.fs.basename(root), root = root }
  local name = vim.api.nvim_buf_get_name(buf)
  if name ~= "" and vim.bo[buf].buftype == "" and not name:match("^%a[%w+.-]*://") then
    where.file = paths.relative(name, root)
  end
  local ft = vim.bo[buf].filetype
  if ft ~= "" then
    where.language = ft
  end
  return where
end
M._here = here

-- The text a command's range covers: the exact visual selection when the range is the last
-- one (charwise or blockwise), else whole lines. Returns text and its first line (1-based).
local function selection(opts)
  local buf = vim.api.nvim_get_current_buf()
  if opts.range == 2 then
    local vstart, vend = vim.fn.getpos("'<"), vim.fn.getpos("'>")
    local mode = vim.fn.visualmode()
    if (mode == "v" or mode == "\22") and vstart[2] == opts.line1 and vend[2] == opts.line2 then
      local ok, lines = pcall(vim.fn.getregion, vstart, vend, { type = mode })
      if ok then
        return table.concat(lines, "\n"), opts.line1
      end
    end
  end
  local first, last = opts.line1, opts.line2
  if opts.range == 0 then
    first = vim.api.nvim_win_get_cursor(0)[1]
    last = first
  end
  return table.concat(vim.api.nvim_buf_get_lines(buf, first - 1, last, false), "\n"), first
end

--- :[range]OmegadRemember [type] — store the range with where it came from.
function M.remember(opts, done)
  local text, line = selection(opts)
  if not text:find("%S") then
    omegad.notify("nothing to remember: the selection is blank", levels.WARN)
    return finish(done, { code = "empty", message = "blank selection" })
  end
  local where = here()
  local metadata = { project = where.project, file = where.file, line = line, language = where.language }
  if where.file == nil then
    metadata.line = nil
  end
  local namespace = omegad.namespace()
  local function store(kind)
    if kind == nil then
      return finish(done, { code = "cancelled", message = "no type chosen" })
    end
    omegad.client():request(
      "store",
      { text = text, type = kind, namespace = namespace, metadata = metadata },
      function(err, result)
        if err then
          omegad.notify("could not remember: " .. describe(err), levels.ERROR)
          return finish(done, err)
        end
        omegad.notify(("remembered as %s in %s (%s)"):format(kind, namespace, result.id))
        finish(done, nil, result)
      end
    )
  end
  local kind = vim.trim(opts.args or "")
  if kind ~= "" then
    if not vim.tbl_contains(M.TYPES, kind) and kind ~= "session" then
      omegad.notify(("unknown type %q; one of %s"):format(kind, table.concat(M.TYPES, ", ")), levels.ERROR)
      return finish(done, { code = "invalid_params", message = "unknown type " .. kind })
    end
    return store(kind)
  end
  vim.ui.select(M.TYPES, { prompt = "Remember as", kind = "omegad.type" }, store)
end

local function location(memory)
  local meta = memory.metadata
  if type(meta) ~= "table" or type(meta.file) ~= "string" or meta.file == "" then
    return nil
  end
  local line = tonumber(meta.line)
  return meta.file, (line and line >= 1) and math.floor(line) or nil
end

local function date(memory)
  return type(memory.created_at) == "string" and memory.created_at:sub(1, 10) or "?"
end

--- How a memory reads in a picker: text, type, date (and file:line when known).
function M.format_memory(memory)
  local parts = { omegad._first_line(memory.text or "", 80), memory.type or "memory", date(memory) }
  local file, line = location(memory)
  if file then
    parts[#parts + 1] = line and (file .. ":" .. line) or file
  end
  return table.concat(parts, " · ")
end

--- Opens a memory's file at its line (when it has a file); returns true when it jumped.
function M.jump(memory, root)
  local file, line = location(memory)
  if not file then
    return false
  end
  local path = paths.absolute(file, root or omegad.project_root())
  vim.cmd("normal! m'")
  local ok, err = pcall(vim.cmd.edit, vim.fn.fnameescape(path))
  if not ok then
    omegad.notify("cannot open " .. path .. ": " .. tostring(err), levels.ERROR)
    return false
  end
  local last = vim.api.nvim_buf_line_count(0)
  vim.api.nvim_win_set_cursor(0, { math.min(line or 1, last), 0 })
  vim.cmd("normal! zvzz")
  return true
end

local function context_rejected(err)
  -- Daemons from before `query.context` answer invalid_params naming it.
  if err.code ~= "invalid_params" or type(err.data) ~= "table" then
    return false
  end
  return err.data.param == "context" or (type(err.data.unknown) == "table" and vim.tbl_contains(err.data.unknown, "context"))
end

--- :OmegadRecall [question] — query with the current buffer as context (asking for the
--- question when none is given); pick a result to jump to it; results with a file also go to
--- the quickfix list.
function M.recall(question, done)
  question = vim.trim(question or "")
  if question == "" then
    return vim.ui.input({ prompt = "Recall: " }, function(input)
      if input == nil or vim.trim(input) == "" then
        return finish(done, { code = "cancelled", message = "no question" })
      end
      M.recall(input, done)
    end)
  end
  local where = here()
  local root = where.root
  local namespace = omegad.namespace()
  local params = {
    text = question,
    namespace = namespace,
    limit = omegad.config.recall_limit,
    context = { project = where.project, file = where.file, language = where.language },
  }
  local function show(result)
    local results = type(result) == "table" and result.results or {}
    if #results == 0 then
      omegad.notify(("nothing recalled for %q in %s"):format(question, namespace))
      return finish(done, nil, results)
    end
    local items = {}
    for _, memory in ipairs(results) do
      local file, line = location(memory)
      if file then
        items[#items + 1] = {
          filename = paths.absolute(file, root),
          lnum = line or 1,
          col = 1,
          text = ("[%s] %s"):format(memory.type or "memory", omegad._first_line(memory.text or "", 200)),
          user_data = { id = memory.id },
        }
      end
    end
    if #items > 0 then
      vim.fn.setqflist({}, " ", { title = "omegad: " .. question, items = items })
    end
    vim.ui.select(results, {
      prompt = ("Recalled for %q"):format(question),
      kind = "omegad.memory",
      format_item = M.format_memory,
    }, function(memory)
      if memory == nil then
        return finish(done, nil, results)
      end
      if not M.jump(memory, root) then
        omegad.notify(("%s [%s, %s]\n%s"):format(memory.id, memory.type or "memory", date(memory), memory.text or ""))
      end
      finish(done, nil, results, memory)
    end)
  end
  local client = omegad.client()
  client:request("query", params, function(err, result)
    if err and context_rejected(err) then
      params.context = nil
      return client:request("query", params, function(err2, result2)
        if err2 then
          omegad.notify("recall failed: " .. describe(err2), levels.ERROR)
          return finish(done, err2)
        end
        show(result2)
      end)
    end
    if err then
      omegad.notify("recall failed: " .. describe(err), levels.ERROR)
      return finish(done, err)
    end
    show(result)
  end)
end

--- :OmegadContradictions — pick an unresolved contradiction of the namespace, then a resolution.
function M.contradictions(done)
  local namespace = omegad.namespace()
  local client = omegad.client()
  client:request("contradictions", { namespace = namespace, limit = 1000 }, function(err, result)
    if err then
      omegad.notify("cannot list contradictions: " .. describe(err), levels.ERROR)
      return finish(done, err)
    end
    local open = {}
    for _, edge in ipairs(result.contradictions or {}) do
      if isnil(edge.resolution) then
        open[#open + 1] = edge
      end
    end
    if #open == 0 then
      omegad.notify("no unresolved contradictions in " .. namespace)
      return finish(done, nil, nil)
    end
    vim.ui.select(open, {
      prompt = ("Contradictions in %s"):format(namespace),
      kind = "omegad.contradiction",
      format_item = function(edge)
        return ("new: %s  ⟷  old: %s  (%.2f)"):format(
          omegad._first_line(type(edge.new) == "table" and edge.new.text or edge.source, 60),
          omegad._first_line(type(edge.old) == "table" and edge.old.text or edge.target, 60),
          tonumber(edge.confidence) or 0
        )
      end,
    }, function(edge)
      if edge == nil then
        return finish(done, nil, nil)
      end
      vim.ui.select(M.RESOLUTIONS, {
        prompt = "Resolve",
        kind = "omegad.resolution",
        format_item = function(r)
          return RESOLUTION_TEXT[r]
        end,
      }, function(resolution)
        if resolution == nil then
          return finish(done, nil, nil)
        end
        client:request(
          "resolve",
          { source = edge.source, target = edge.target, resolution = resolution },
          function(rerr, resolved)
            if rerr then
              omegad.notify("could not resolve: " .. describe(rerr), levels.ERROR)
              return finish(done, rerr)
            end
            omegad.notify(("resolved %s ⟷ %s: %s"):format(edge.source, edge.target, resolution))
            finish(done, nil, resolved)
          end
        )
      end)
    end)
  end)
end

local function reranker_line(r)
  if type(r) ~= "table" then
    return "reranker: unknown"
  end
  local line = "reranker: " .. tostring(r.state)
  if r.state == "ready" and type(r.model) == "string" then
    line = line .. " (" .. r.model .. ")"
  end
  if type(r.fix) == "string" then
    line = line .. "\n  fix: " .. r.fix
  elseif type(r.detail) == "string" and r.state ~= "ready" then
    line = line .. " — " .. r.detail
  end
  return line
end
M._reranker_line = reranker_line

--- The lines of :OmegadStatus from `hello` and `stats` replies (stats may be an error).
function M.status_lines(path, hello, stats, stats_err, namespace)
  local lines = {
    ("connected to %s (daemon %s, protocol %s)"):format(path, tostring(hello.daemon_version), tostring(hello.protocol)),
  }
  if hello.protocol ~= require("omegad.client").PROTOCOL_VERSION then
    lines[#lines + 1] = ("protocol mismatch: the daemon speaks %s, this plugin %d"):format(
      tostring(hello.protocol),
      require("omegad.client").PROTOCOL_VERSION
    )
  end
  lines[#lines + 1] = "status: " .. tostring(hello.status)
  for _, problem in ipairs(type(hello.problems) == "table" and hello.problems or {}) do
    lines[#lines + 1] = ("problem %s: %s"):format(tostring(problem.code), tostring(problem.message))
    if type(problem.fix) == "string" then
      lines[#lines + 1] = "  fix: " .. problem.fix
    end
  end
  lines[#lines + 1] = reranker_line(hello.reranker)
  if type(hello.embedding) == "table" then
    lines[#lines + 1] = ("embedding: %s (%s, %s dims)"):format(
      tostring(hello.embedding.model),
      tostring(hello.embedding.variant),
      tostring(hello.embedding.dim)
    )
  end
  if stats then
    local ns = type(stats.namespaces) == "table" and stats.namespaces[namespace]
    lines[#lines + 1] = ("namespace %s: %d memories (%s in all)"):format(
      namespace,
      type(ns) == "table" and tonumber(ns.total) or 0,
      tostring(stats.memories)
    )
  else
    lines[#lines + 1] = ("namespace %s; stats unavailable: %s"):format(namespace, describe(stats_err))
  end
  return lines
end

--- :OmegadStatus — hello and stats (asked at once) in one notification.
function M.status(done)
  local client = omegad.client()
  local namespace = omegad.namespace()
  local replies = {}
  local function both()
    if replies.hello == nil or replies.stats == nil then
      return
    end
    local path = client.socket_path or omegad.socket_path()
    local herr, hello = unpack(replies.hello)
    if herr then
      local message = ("not connected (%s)\nsocket: %s"):format(describe(herr), path)
      omegad.notify(message, levels.WARN)
      return finish(done, herr, message)
    end
    local serr, stats = unpack(replies.stats)
    local lines = M.status_lines(path, hello, stats, serr, namespace)
    local message = table.concat(lines, "\n")
    omegad.notify(message, hello.status == "ok" and levels.INFO or levels.WARN)
    finish(done, nil, message)
  end
  client:request("hello", nil, function(err, result)
    replies.hello = { err, result }
    both()
  end)
  client:request("stats", nil, function(err, result)
    replies.stats = { err, result }
    both()
  end)
end

return M
