"""Where the bench writes: whole lines on stdout, and a progress line on
stderr, only when stderr is a terminal, rewritten in place and wiped before
every stdout line (so the two never share a line) and at the end."""

from __future__ import annotations

import shutil
import sys
from typing import TextIO

#: Carriage return, then erase to the end of the line (VT100 EL0).
_WIPE = "\r\x1b[K"


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
