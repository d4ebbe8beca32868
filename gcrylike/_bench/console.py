"""Where the bench writes: whole lines on stdout (its ``#`` notes wrapped
to the terminal's width, or to :data:`PLAIN_WIDTH` columns when stdout is
not a terminal), and a progress line on stderr, only when stderr is a
terminal, rewritten in place and wiped before every stdout line (so the two
never share a line) and at the end."""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import TextIO

#: Carriage return, then erase to the end of the line (VT100 EL0).
_WIPE = "\r\x1b[K"
#: Width of the notes when stdout is a file or a pipe: no terminal to fit,
#: but a note of 600 characters on one line reads no better in a file.
PLAIN_WIDTH = 100
#: Indent of a note's continuation lines past its "# ": they read as one note.
_MORE = "  "


class Console:
    def __init__(self, out: TextIO | None = None, err: TextIO | None = None,
                 progress: bool | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        if progress is None:
            isatty = getattr(self.err, "isatty", None)
            progress = bool(isatty and isatty())
        self.progress_enabled = progress
        self._showing = False

    def line(self, text: str) -> None:
        """One whole line on stdout (built in full by the caller first)."""
        self.clear()
        print(text, file=self.out, flush=True)

    def note(self, text: str, indent: str = "") -> None:
        """``text`` as a ``# `` comment on stdout, wrapped to
        :meth:`width` (every line a comment, continuations indented)."""
        head = f"{indent}# "
        # names with hyphens (drivers, algorithms) are never split
        lines = textwrap.wrap(text, self.width(), initial_indent=head,
                              subsequent_indent=head + _MORE, break_long_words=False,
                              break_on_hyphens=False)
        self.line("\n".join(lines) or head.rstrip())

    def width(self) -> int:
        """The terminal's width when stdout is one, else :data:`PLAIN_WIDTH`."""
        isatty = getattr(self.out, "isatty", None)
        if isatty and isatty():
            return max(40, shutil.get_terminal_size().columns)
        return PLAIN_WIDTH

    def progress(self, text: str) -> None:
        """Show ``text`` as the progress line (cut to the terminal's width)."""
        if not self.progress_enabled:
            return
        width = max(20, shutil.get_terminal_size().columns - 1)
        if len(text) > width:
            text = text[:width - 3] + "..."
        self.err.write(_WIPE + text)
        self.err.flush()
        self._showing = True

    def clear(self) -> None:
        """Wipe the progress line, if one is showing."""
        if self._showing:
            self.err.write(_WIPE)
            self.err.flush()
            self._showing = False
