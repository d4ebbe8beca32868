"""A headless Chromium driven through the DevTools protocol over a pipe.

``--remote-debugging-pipe`` makes Chromium read commands from its fd 3 and
write replies and events to its fd 4, each a JSON message ended by a NUL
byte: the whole protocol with no port to pick, no websocket framing to
write and no package beyond the standard library.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from typing import Any

#: Free fds in the child where the pipe ends wait before they move to 3 and 4.
_PARK = 900

#: Where to look for the browser; CHROMIUM names another binary.
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


class BrowserError(RuntimeError):
    """The browser could not start, died, or answered a command with an error."""


def find_chromium() -> str | None:
    given = os.environ.get("CHROMIUM")
    if given:
        return shutil.which(given) or (given if os.access(given, os.X_OK) else None)
    return next((p for c in CANDIDATES if (p := shutil.which(c))), None)


class Browser:
    """One headless Chromium with one page (the first tab), used as a context manager."""

    def __init__(self, binary: str, timeout: float = 30.0) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="docs-browser-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds() -> None:
            # Put the pipe ends at 3 and 4 by way of two high fds, so that
            # one dup2 cannot close the other end first (either may be 3 or 4).
            os.dup2(to_chrome_r, _PARK)
            os.dup2(from_chrome_w, _PARK + 1)
            os.dup2(_PARK, 3)
            os.dup2(_PARK + 1, 4)

        args = [binary, "--headless", "--remote-debugging-pipe",
                # root (CI, containers) cannot use the setuid sandbox
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--hide-scrollbars", "--mute-audio",
                f"--user-data-dir={self._profile.name}", "about:blank"]
        # stderr goes to a file: a pipe nobody reads would fill and stop the browser
        self._log = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=self._log,
                                      pass_fds=(3, 4), preexec_fn=child_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._next_id = 0
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self.session = self._attach()

    # -- the wire ---------------------------------------------------------------
    def _read_message(self) -> dict[str, Any]:
        while b"\0" not in self._buf:
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                self._log.seek(0)
                err = self._log.read().decode(errors="replace").strip()
                raise BrowserError(f"chromium closed the pipe: {err[-2000:]}")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        """Run one command and return its result; events read meanwhile are kept."""
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str) -> dict[str, Any]:
        """The first event ``method`` not yet seen (waits for it)."""
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read_message())

    # -- the page ---------------------------------------------------------------
    def _attach(self) -> str:
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        return self.send("Target.attachToTarget",
                         {"targetId": page["targetId"], "flatten": True})["sessionId"]

    def page(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.send(method, params, self.session)

    def set_viewport(self, width: int, height: int) -> None:
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def open(self, url: str) -> None:
        """Load ``url`` and wait for its load event."""
        self.page("Page.enable")
        self.events.clear()
        reply = self.page("Page.navigate", {"url": url})
        if reply.get("errorText"):
            raise BrowserError(f"{url}: {reply['errorText']}")
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JS expression (a promise is awaited)."""
        res = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True})
        if "exceptionDetails" in res:
            raise BrowserError(f"script failed: {res['exceptionDetails']}")
        return res["result"].get("value")

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)
        self._log.close()
        self._profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
