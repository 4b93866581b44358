-- :LightboxPick [FOLDER] — pick photos in Lightbox's thumbnail grid, in a tab of its own;
-- the picked paths are put at the cursor, one a line. Add to init.lua:
--   dofile("/path/to/contrib/nvim/lightbox.lua")
-- or copy it to ~/.config/nvim/plugin/lightbox.lua.
-- Names come NUL-separated (lightbox -0) and go into the buffer byte for byte; a name holding a
-- newline cannot be one line, so it is left out and said. Lightbox's own message, when it
-- ends with one, is shown.
local function read_all(path)
  local file = io.open(path, "rb")
  if not file then return "" end
  local data = file:read("*a") or ""
  file:close()
  return data
end

-- Said once the tab has closed and the screen is drawn again, so it stays on the message line.
local function say(text, level)
  vim.defer_fn(function() vim.notify(text, level) end, 100)
end

local function pick(folder)
  local out, err = vim.fn.tempname(), vim.fn.tempname()
  local from = vim.api.nvim_get_current_win()
  vim.cmd("tabnew")
  local tab_buffer = vim.api.nvim_get_current_buf()
  vim.fn.termopen({ "sh", "-c", 'lightbox -0 -- "$1" > "$2" 2> "$3"', "sh", folder, out, err }, {
    on_exit = function(_, code)
      vim.schedule(function()
        if vim.api.nvim_buf_is_valid(tab_buffer) then vim.api.nvim_buf_delete(tab_buffer, { force = true }) end
        local data, message = read_all(out), read_all(err)
        vim.fn.delete(out)
        vim.fn.delete(err)
        -- 130: the user quit without picking; anything else but 0 has Lightbox's reason.
        if code ~= 0 and code ~= 130 then
          say(message ~= "" and vim.trim(message) or ("lightbox ended with " .. code), vim.log.levels.ERROR)
          return
        end
        local lines, refused = {}, {}
        for name in data:gmatch("([^%z]+)%z") do
          if name:find("\n", 1, true) then
            table.insert(refused, (name:gsub("\n", "?")))
          else
            table.insert(lines, name)
          end
        end
        if #lines > 0 and vim.api.nvim_win_is_valid(from) then
          vim.api.nvim_set_current_win(from)
          vim.api.nvim_put(lines, "l", true, true)
        end
        if #refused > 0 then
          say("lightbox: a name holding a newline cannot be a line, left out: " .. table.concat(refused, ", "), vim.log.levels.ERROR)
        end
      end)
    end,
  })
  vim.cmd("startinsert")
end

vim.api.nvim_create_user_command("LightboxPick", function(command)
  pick(command.args ~= "" and vim.fn.expand(command.args) or vim.fn.getcwd())
end, { nargs = "?", complete = "dir", desc = "pick photos in Lightbox and put their paths at the cursor" })
