"""A real browser for the report's tests: Debian's headless Chromium, driven over the DevTools protocol
through a pipe (``--remote-debugging-pipe``: JSON messages ended by NUL on file descriptors 3 and 4),
so that a test reads the laid-out page (the DOM, each element's box, computed styles) and takes
screenshots at a chosen viewport width. No network, no extra Python package.

``require_browser()`` skips a test when no Chromium is installed, unless ``NACVERIFY_REQUIRE_BROWSER``
is set (CI sets it: `.ci/run` installs Chromium, and a missing browser then fails the run instead of
skipping the test). ``NACVERIFY_BROWSER_SHOTS`` names a folder that keeps every screenshot taken.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
#: The browser reads the protocol on descriptor 3 and writes on 4: put the pipes there, then exec it (both are first copied
#: above 9, so that placing one cannot overwrite the other; Debian's chromium is a shell script, whose dash redirects only 0-9).
_ONTO_3_AND_4 = ("import fcntl, os, sys; r, w = (fcntl.fcntl(int(fd), fcntl.F_DUPFD, 10) for fd in sys.argv[1:3]); "
                 "os.dup2(r, 3); os.dup2(w, 4); os.execv(sys.argv[3], sys.argv[3:])")


def chromium() -> str | None:
    for name in CANDIDATES:
        exe = shutil.which(name)
        if exe:
            return exe
    return None


def require_browser() -> str:
    exe = chromium()
    if exe is None:
        if os.environ.get("NACVERIFY_REQUIRE_BROWSER"):
            pytest.fail("NACVERIFY_REQUIRE_BROWSER is set but no Chromium is installed (Debian: apt-get install chromium)")
        pytest.skip("chromium is not installed (Debian: apt-get install chromium); CI installs it and runs this test")
    return exe


class Browser:
    """One headless Chromium with one page; `open(url, width)` loads a page at that viewport width."""

    def __init__(self, exe: str, timeout: float = 60.0):
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="nacverify-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        args = ["--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--mute-audio", f"--user-data-dir={self._profile}", "about:blank"]
        self._proc = subprocess.Popen([sys.executable, "-c", _ONTO_3_AND_4, str(to_browser_r), str(from_browser_w), exe, *args],
                                      pass_fds=(to_browser_r, from_browser_w), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self._events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)

    def _read(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError("chromium did not answer over the DevTools pipe")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe: " + self._proc.stderr.read().decode(errors="replace")[-2000:])
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: bool = False, **params: Any) -> dict:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._events.append(answer)

    def _wait_for(self, event: str) -> None:
        while True:
            for i, seen in enumerate(self._events):
                if seen.get("method") == event:
                    del self._events[: i + 1]
                    return
            self._events.append(self._read())

    def open(self, url: str, width: int, height: int = 900) -> None:
        """Load `url` in a viewport `width` CSS pixels wide, and wait for its load event."""
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height, deviceScaleFactor=1, mobile=False)
        for target in ("about:blank", url):  # through a blank page: a new #fragment alone would not load the page again
            self._events.clear()
            self.call("Page.navigate", session=True, url=target)
            self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (the test's probe; the page has no scripts)."""
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, x: float, y: float) -> None:
        """A left click at viewport point (x, y), through the browser's input pipeline (DevTools'
        ``Input.dispatchMouseEvent``: press and release, as a mouse does), not a script's ``.click()``."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            extra = {} if kind == "mouseMoved" else {"button": "left", "clickCount": 1}
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y, **extra)

    def screenshot(self, path: Path, *, full_height: int | None = None, clip: dict | None = None) -> Path:
        """A PNG of the viewport (or of `clip`, in page coordinates), kept in NACVERIFY_BROWSER_SHOTS when set."""
        params: dict[str, Any] = {"format": "png"}
        if clip is not None:
            params.update(clip={**clip, "scale": 1}, captureBeyondViewport=True)
        elif full_height:
            width = self.evaluate("document.documentElement.clientWidth")
            params.update(clip={"x": 0, "y": 0, "width": width, "height": full_height, "scale": 1}, captureBeyondViewport=True)
        data = base64.b64decode(self.call("Page.captureScreenshot", session=True, **params)["data"])
        path.write_bytes(data)
        keep = os.environ.get("NACVERIFY_BROWSER_SHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, Path(keep) / path.name)
        return path

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Every element whose painted box reaches past the viewport's left or right edge: its box clipped by
#: each ancestor that clips overflow (a scrolling formula keeps its width inside its box), then
#: compared with the viewport. Returns [tag.class#id, left, right] for each, and the page's own
#: scroll width.
OVERFLOW_PROBE = r"""
(() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    let left = r.left + window.scrollX, right = r.right + window.scrollX;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible') {
        const b = a.getBoundingClientRect();
        left = Math.max(left, b.left + window.scrollX); right = Math.min(right, b.right + window.scrollX);
      }
    }
    if (right > left && (right > vw + 1 || left < -1)) {
      out.push([el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? '.' + el.className : '') + (el.id ? '#' + el.id : ''),
                Math.round(left), Math.round(right)]);
    }
  }
  return {viewport: vw, scrollWidth: document.documentElement.scrollWidth, overflowing: out.slice(0, 20), count: out.length};
})()
"""
