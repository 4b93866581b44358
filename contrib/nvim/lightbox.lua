-- :LightboxPick [FOLDER] — pick photos in Lightbox's thumbnail grid, in a tab of its own;
-- the picked paths are put at the cursor, one a line. Add to init.lua:
--   dofile("/path/to/contrib/nvim/lightbox.lua")
-- or copy it to ~/.config/nvim/plugin/lightbox.lua.
local function pick(folder)
  local out = vim.fn.tempname()
  local from = vim.api.nvim_get_current_win()
  vim.cmd("tabnew")
  local tab_buffer = vim.api.nvim_get_current_buf()
  vim.fn.termopen({ "sh", "-c", 'lightbox -- "$1" > "$2"', "sh", folder, out }, {
    on_exit = function()
      vim.schedule(function()
        if vim.api.nvim_buf_is_valid(tab_buffer) then vim.api.nvim_buf_delete(tab_buffer, { force = true }) end
        local lines = vim.fn.filereadable(out) == 1 and vim.fn.readfile(out) or {}
        vim.fn.delete(out)
        if #lines > 0 and vim.api.nvim_win_is_valid(from) then
          vim.api.nvim_set_current_win(from)
          vim.api.nvim_put(lines, "l", true, true)
        end
      end)
    end,
  })
  vim.cmd("startinsert")
end

vim.api.nvim_create_user_command("LightboxPick", function(command)
  pick(command.args ~= "" and vim.fn.expand(command.args) or vim.fn.getcwd())
end, { nargs = "?", complete = "dir", desc = "pick photos in Lightbox and put their paths at the cursor" })
