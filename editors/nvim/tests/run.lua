-- Headless tests of the omegad plugin against a real daemon:
--   OMEGAD_PYTHON=.venv/bin/python nvim --headless -l editors/nvim/tests/run.lua [file-or-name-filter ...]
-- Prints one line per test and a closing "N passed, N failed"; exits 1 on any failure.
-- Absolute: tests change directory.
local tests_dir = vim.fs.dirname(vim.fs.normalize(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p")))
local plugin_dir = vim.fs.dirname(tests_dir)
vim.opt.runtimepath:prepend(plugin_dir)
package.path = tests_dir .. "/?.lua;" .. package.path
vim.cmd.runtime("plugin/omegad.lua")
vim.cmd("filetype on") -- as in a user's editor: -l starts without it

local uv = vim.uv or vim.loop
local H = require("harness")

-- Straight to stdout, one whole line each (print() in -l mode defers its newline).
local function say(line)
  io.stdout:write(line, "\n")
  io.stdout:flush()
end

local FILES = {
  "test_codec",
  "test_paths",
  "test_fake",
  "test_client",
  "test_commands",
  "test_health",
  "test_events",
  "test_restart", -- last: it restarts the daemon
}

local filters = {}
for _, a in ipairs(_G.arg or {}) do
  filters[#filters + 1] = a
end
local function selected(file, name)
  if #filters == 0 then
    return true
  end
  for _, f in ipairs(filters) do
    if file == f or (file .. ": " .. name):find(f, 1, true) then
      return true
    end
  end
  return false
end

-- What tests may stub, restored after each.
local saved = { select = vim.ui.select, input = vim.ui.input, notify = vim.notify }
local start_cwd = uv.cwd()

local function reset()
  vim.ui.select, vim.ui.input, vim.notify = saved.select, saved.input, saved.notify
  pcall(vim.cmd, "silent! tabonly!")
  pcall(vim.cmd, "silent! only!")
  pcall(vim.cmd, "silent! %bwipeout!")
  vim.fn.setqflist({}, "f")
  vim.cmd.cd(vim.fn.fnameescape(start_cwd))
  require("omegad").setup({})
end

local passed, failed, number = 0, 0, 0
local daemon = H.daemon()
local env = { daemon = daemon }

local function file_selected(file)
  for _, f in ipairs(filters) do
    if f == file or not vim.tbl_contains(FILES, f) then
      return true
    end
  end
  return #filters == 0
end

local function run_file(file)
  local loaded, cases = pcall(function()
    return require(file)(env)
  end)
  if not loaded then
    number, failed = number + 1, failed + 1
    say(("not ok %d - %s: cannot load: %s"):format(number, file, tostring(cases)))
    return
  end
  for _, case in ipairs(cases) do
    local name, fn = case[1], case[2]
    if selected(file, name) then
      number = number + 1
      local t0 = uv.hrtime()
      local ok, err = xpcall(fn, function(e)
        return debug.traceback(type(e) == "string" and e or vim.inspect(e), 2)
      end)
      local ms = (uv.hrtime() - t0) / 1e6
      if ok then
        passed = passed + 1
        say(("ok %d - %s: %s (%.0f ms)"):format(number, file, name, ms))
      else
        failed = failed + 1
        say(("not ok %d - %s: %s (%.0f ms)\n    %s"):format(number, file, name, ms, tostring(err):gsub("\n", "\n    ")))
      end
      reset()
    end
  end
end

-- Whatever happens, the daemon is stopped and the temporary directories go.
local ok, err = xpcall(function()
  daemon:start()
  for _, file in ipairs(vim.tbl_filter(file_selected, FILES)) do
    run_file(file)
  end
  local code, signal = daemon:stop()
  if code ~= 0 then
    failed = failed + 1
    say(("not ok - the daemon exited with %s (signal %s) on SIGTERM"):format(tostring(code), tostring(signal)))
  end
end, debug.traceback)
if not ok then
  failed = failed + 1
  say("not ok - the runner failed: " .. tostring(err))
end
if failed > 0 and os.getenv("OMEGAD_TEST_LOG") then
  say(daemon:output())
end
pcall(require("omegad").setup, {})
daemon:cleanup()
H.remove_tmpdirs()
say(("%d passed, %d failed"):format(passed, failed))
os.exit(failed > 0 and 1 or 0)
