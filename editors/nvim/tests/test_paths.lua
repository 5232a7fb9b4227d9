-- Socket path, project root and namespace.
local paths = require("omegad.paths")
local omegad = require("omegad")
local H = require("harness")

local VARS = { "OMEGAD_SOCKET", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "HOME" }

local function with_env(env, fn)
  local old = {}
  for _, k in ipairs(VARS) do
    old[k] = vim.env[k]
    vim.env[k] = env[k]
  end
  local ok, result = pcall(fn)
  for _, k in ipairs(VARS) do
    vim.env[k] = old[k]
  end
  assert(ok, result)
  return result
end

return function(env)
  return {
    {
      "socket path: same order and spelling as the Python client",
      function()
        local cases = {
          { OMEGAD_SOCKET = "/a/s.sock", XDG_RUNTIME_DIR = "/r", XDG_STATE_HOME = "/st", HOME = "/h" },
          { OMEGAD_SOCKET = "", XDG_RUNTIME_DIR = "/r/", HOME = "/h" },
          { XDG_RUNTIME_DIR = "", XDG_STATE_HOME = "/st", HOME = "/h" },
          { XDG_STATE_HOME = "", HOME = "/h/" },
          { HOME = "/h" },
          { OMEGAD_SOCKET = "~/o.sock", XDG_RUNTIME_DIR = "/r", HOME = "/h" },
          { OMEGAD_SOCKET = "~", HOME = "/h" },
          { OMEGAD_SOCKET = "//x//y/./z.sock", HOME = "/h" },
          { OMEGAD_SOCKET = "rel/./s.sock", HOME = "/h" },
          { XDG_RUNTIME_DIR = "/run/user/1000", XDG_STATE_HOME = "/st", HOME = "/h" },
        }
        local lua = {}
        for i, case in ipairs(cases) do
          lua[i] = with_env(case, function()
            return (paths.socket(nil))
          end)
        end
        local code = [[
import json, os, sys
from omegad_client.protocol import default_socket_path
out = []
for env in json.load(sys.stdin):
    for k in ("OMEGAD_SOCKET", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "HOME"):
        os.environ.pop(k, None)
    os.environ.update(env)
    out.append(str(default_socket_path()))
print(json.dumps(out))
]]
        local python = H.python()
        local result = vim.system({ python, "-c", code }, { stdin = vim.json.encode(cases) }):wait(30000)
        H.eq(result.code, 0, "python exit (" .. tostring(result.stderr) .. ")")
        H.eq(lua, vim.json.decode(result.stdout), "paths (Lua vs Python)")
      end,
    },
    {
      "socket path: the setup option wins, and says where it came from",
      function()
        with_env({ OMEGAD_SOCKET = "/env.sock", HOME = "/h" }, function()
          H.eq({ paths.socket(nil) }, { "/env.sock", "$OMEGAD_SOCKET" }, "env")
          H.eq({ paths.socket("~/mine.sock") }, { "/h/mine.sock", "setup{socket}" }, "setup")
          omegad.setup({ socket = "/opt/x.sock" })
          H.eq({ omegad.socket_path() }, { "/opt/x.sock", "setup{socket}" }, "via setup")
        end)
      end,
    },
    {
      "namespace: sanitized to the daemon's rules, which the daemon accepts",
      function()
        local cases = {
          ["my-project"] = "my-project",
          ["My Project!"] = "My-Project",
          [".dotfiles"] = "dotfiles",
          ["__init__"] = "init__",
          ["日本語"] = "default",
          ["café app"] = "caf-app",
          ["a:b@c/d.e_f"] = "a:b@c/d.e_f",
          [""] = "default",
          [("x"):rep(200)] = ("x"):rep(128),
        }
        local client = require("omegad.client").new({ socket = env.daemon.socket })
        for name, want in pairs(cases) do
          local got = paths.sanitize_namespace(name)
          H.eq(got, want, "sanitize " .. vim.inspect(name))
          H.truthy(paths.valid_namespace(got), got .. " is valid")
          H.call(client, "query", { text = "anything", namespace = got, limit = 1 }) -- accepted
        end
        client:close()
        H.truthy(not paths.valid_namespace("-x") and not paths.valid_namespace("") and not paths.valid_namespace("a b"), "invalid ones")
      end,
    },
    {
      "project root: the git top-level, else the current directory; the namespace is its name",
      function()
        local base = H.tmpdir("odpr")
        local repo = base .. "/My Repo!"
        vim.fn.mkdir(repo .. "/.git", "p")
        vim.fn.mkdir(repo .. "/src/deep", "p")
        vim.fn.mkdir(base .. "/plain dir/sub", "p")
        vim.fn.mkdir(base .. "/worktree/a", "p")
        H.write_file(base .. "/worktree/.git", { "gitdir: /elsewhere" })
        vim.cmd.cd(vim.fn.fnameescape(repo .. "/src/deep"))
        H.eq(omegad.project_root(), repo, "root from a subdirectory")
        H.eq(omegad.namespace(), "My-Repo", "namespace")
        vim.cmd.cd(vim.fn.fnameescape(base .. "/plain dir/sub"))
        H.eq(omegad.project_root(), base .. "/plain dir/sub", "no git: the cwd")
        H.eq(omegad.namespace(), "sub", "namespace of a plain dir")
        vim.cmd.cd(vim.fn.fnameescape(base .. "/worktree/a"))
        H.eq(omegad.project_root(), base .. "/worktree", "a .git file counts")
        omegad.setup({ namespace = "chosen" })
        H.eq(omegad.namespace(), "chosen", "the option wins")
        vim.cmd.cd("/")
        vim.fn.delete(base, "rf")
      end,
    },
    {
      "file paths: relative to the root under it, absolute elsewhere",
      function()
        H.eq(paths.relative("/p/root/src/a.py", "/p/root"), "src/a.py", "under")
        H.eq(paths.relative("/p/rootx/a.py", "/p/root"), "/p/rootx/a.py", "sibling prefix")
        H.eq(paths.relative("/elsewhere/a.py", "/p/root/"), "/elsewhere/a.py", "outside")
        H.eq(paths.absolute("src/a.py", "/p/root"), "/p/root/src/a.py", "relative")
        H.eq(paths.absolute("/x/y.py", "/p/root"), "/x/y.py", "absolute")
      end,
    },
    {
      "setup refuses unknown options, wrong types and invalid namespaces",
      function()
        for _, bad in ipairs({ { sockett = "x" }, { timeout_ms = "5" }, { timeout_ms = 0 }, { recall_limit = 101 }, { recall_limit = 2.5 }, { namespace = "-bad" }, { namespace = "a b" } }) do
          local ok, err = pcall(omegad.setup, bad)
          H.truthy(not ok, "setup " .. vim.inspect(bad) .. " fails")
          H.contains(tostring(err), "omegad.setup")
        end
      end,
    },
  }
end
