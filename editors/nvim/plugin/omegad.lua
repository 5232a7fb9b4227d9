-- omegad commands; they work without setup() (see editors/nvim/README.md).
if vim.g.loaded_omegad then
  return
end
vim.g.loaded_omegad = true

if vim.fn.has("nvim-0.10") == 0 then
  vim.notify("omegad: needs Neovim 0.10 or later", vim.log.levels.WARN)
  return
end

local command = vim.api.nvim_create_user_command

command("OmegadRemember", function(opts)
  require("omegad.commands").remember(opts)
end, {
  range = true,
  nargs = "?",
  complete = function(lead)
    return vim.tbl_filter(function(t)
      return vim.startswith(t, lead)
    end, require("omegad.commands").TYPES)
  end,
  desc = "omegad: remember the selection (type: pick one, or give it)",
})

command("OmegadRecall", function(opts)
  require("omegad.commands").recall(opts.args)
end, { nargs = "*", desc = "omegad: recall memories about [question] (asked for when not given)" })

command("OmegadContradictions", function()
  require("omegad.commands").contradictions()
end, { nargs = 0, desc = "omegad: review and resolve contradictions" })

command("OmegadStatus", function()
  require("omegad.commands").status()
end, { nargs = 0, desc = "omegad: daemon status" })
