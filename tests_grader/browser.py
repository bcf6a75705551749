"""A real headless Chromium (Debian's `chromium`) driven over the DevTools protocol on a pipe
(`--remote-debugging-pipe`: JSON messages separated by NUL, commands on fd 3, answers on fd 4), with no
dependency beyond the standard library. Used by test_report.py and by scripts/screenshot_report.py.

`open_page(path)` loads a local file and returns what the page did: the values of JavaScript expressions,
console errors, uncaught exceptions, dialogs (alert/confirm/prompt), every URL requested, and a PNG
screenshot of the whole page.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Headless on this machine: without the background-networking flags Chromium's own connections are refused
# by the closed network and logged; the profile is a new empty folder each time.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe")


def chromium_path() -> str | None:
    """Debian's chromium binary, or None when it is not installed."""
    return shutil.which("chromium") or (os.path.exists("/usr/bin/chromium") and "/usr/bin/chromium") or None


@dataclass
class PageResult:
    values: dict[str, Any]
    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    requested_urls: list[str] = field(default_factory=list)
    screenshot_png: bytes = b""


class _Pipe:
    def __init__(self, write_fd: int, read_fd: int, timeout: float) -> None:
        self.write_fd, self.read_fd, self.timeout = write_fd, read_fd, timeout
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict] = []

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise ConnectionError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.write_fd, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method: str, session: str | None = None) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method and (session is None or m.get("sessionId") == session):
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))


def _high_fd(fd: int) -> int:
    # Chromium's pipe ends move to fds >= 10, so that bash can put them on 3 and 4 (what Chromium expects)
    # and close the originals without closing a 3 or 4 it has just made.
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


def open_page(path: Path, expressions: dict[str, str] | None = None, width: int = 1280, height: int = 900,
              settle_s: float = 0.3, timeout: float = 60.0, full_page: bool = True) -> PageResult:
    """Load `path` (a local file) in a fresh headless Chromium, evaluate `expressions` (name -> JS
    expression, values returned by value), capture a PNG (the whole page, or the first `width` x `height`
    pixels), and report console errors, exceptions, dialogs and requested URLs."""
    binary = chromium_path()
    if binary is None:
        raise FileNotFoundError("chromium is not installed (scripts/setup.sh installs it with apt-get)")
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()
    to_chrome_r, from_chrome_w = _high_fd(to_chrome_r), _high_fd(from_chrome_w)
    profile = tempfile.mkdtemp(prefix="tooluse1-chromium-")
    cmd = ["bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w} {to_chrome_r}<&- {from_chrome_w}>&-',
           binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
    proc = subprocess.Popen(cmd, pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    pipe = _Pipe(to_chrome_w, from_chrome_r, timeout)
    try:
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            pipe.call(f"{domain}.enable", session=session)
        pipe.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                          "mobile": False}, session=session)
        pipe.call("Page.navigate", {"url": Path(path).resolve().as_uri()}, session=session)
        pipe.wait_event("Page.loadEventFired", session)
        time.sleep(settle_s)   # let the page's own script run and late console messages arrive
        values = {}
        for name, expr in (expressions or {}).items():
            r = pipe.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
            if "exceptionDetails" in r:
                raise RuntimeError(f"evaluating {name}: {r['exceptionDetails'].get('text')}")
            values[name] = r["result"].get("value")
        shot = pipe.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full_page},
                         session=session)
        result = PageResult(values=values, screenshot_png=base64.b64decode(shot["data"]))
        for m in pipe.events:
            p = m.get("params", {})
            if m.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                args = p.get("args", [])
                result.console_errors.append(" ".join(str(a.get("value", a.get("description"))) for a in args))
            elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                result.console_errors.append(p["entry"].get("text", ""))
            elif m.get("method") == "Runtime.exceptionThrown":
                result.exceptions.append(json.dumps(p.get("exceptionDetails", {}))[:500])
            elif m.get("method") == "Page.javascriptDialogOpening":
                result.dialogs.append(p.get("message", ""))
            elif m.get("method") == "Network.requestWillBeSent":
                result.requested_urls.append(p.get("request", {}).get("url", ""))
        return result
    finally:
        try:
            pipe.call("Browser.close")
        except Exception:
            pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(to_chrome_w)
        os.close(from_chrome_r)
        shutil.rmtree(profile, ignore_errors=True)


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
