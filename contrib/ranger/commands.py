# :lightbox [FOLDER] — pick photos in Lightbox's thumbnail grid; ranger marks the picked files
# of the folder it shows (then `yy`, `dd`, `:shell ... %s` act on them).
# Install: append to ~/.config/ranger/commands.py (or copy it there), and bind a key in
# rc.conf:  map <C-l> lightbox
import os
import subprocess

from ranger.api.commands import Command


class lightbox(Command):
    """:lightbox [FOLDER]

    Opens Lightbox on FOLDER (default: the current folder) and marks what was picked."""

    def execute(self):
        folder = self.rest(1) or self.fm.thisdir.path
        # ranger steps aside while Lightbox has the terminal, as it does for fzf.
        process = self.fm.execute_command(["lightbox", "-0", "--", folder], stdout=subprocess.PIPE)
        output, _ = process.communicate()
        picked = {os.path.realpath(os.fsdecode(path)) for path in output.split(b"\0") if path}
        if not picked:
            return
        directory = self.fm.thisdir
        for item in directory.files or []:
            directory.mark_item(item, os.path.realpath(item.path) in picked)
        self.fm.ui.redraw_main_column()
        elsewhere = len(picked) - len(directory.marked_items)
        message = "lightbox: %d marked" % len(directory.marked_items)
        if elsewhere > 0:
            message += " (%d in other folders)" % elsewhere
        self.fm.notify(message)
