#!/usr/bin/env python3
# browser.py - drive headless Chromium over the DevTools pipe (stdlib only) for the tests.
"""Drive Debian's headless Chromium through the Chrome DevTools Protocol.

Chromium runs with --remote-debugging-pipe: it reads NUL-terminated JSON
commands on its fd 3 and writes NUL-terminated JSON replies and events on
its fd 4.  One page target is attached as a flat session.

    with Browser() as b:
        b.open("page.html")
        b.click_selector("#go")
        assert b.eval("document.title") == "clicked"

Coordinates are CSS pixels relative to the viewport (1400x900, scale 1).
Every wait gives up after `timeout` seconds (default 30) with a
BrowserTimeout naming the CDP method it waited for.  Chromium's output goes
to browser.log in the current directory.

    python3 browser.py --check   prints "ok" and exits 0 when a browser
                                 works, else prints why and exits 1
"""
import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1400, 900
TIMEOUT = 30.0
LOG = "browser.log"
CHILD_CMD_FD, CHILD_REPLY_FD = 3, 4   # the fds --remote-debugging-pipe uses
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-extensions",
    "--remote-debugging-pipe", f"--window-size={WIDTH},{HEIGHT}",
]


class BrowserError(Exception):
    """Chromium failed, died, or a CDP command or page script failed."""


class BrowserTimeout(BrowserError):
    """A wait ran out of time."""


class Browser:
    """One headless Chromium with one page, stopped by close() or `with`."""

    def __init__(self, timeout=TIMEOUT, chromium=CHROMIUM, log=LOG):
        self.timeout = timeout
        self.console = []       # {"type": ..., "text": ...} per console call
        self.exceptions = []    # text of each uncaught page exception
        self.log_entries = []   # every Log.entryAdded entry (dicts)
        self.csp_violations = []  # texts of Log entries about the CSP
        self.dialogs = []       # message of each dialog, all dismissed
        self._log_path = os.path.abspath(log)
        self._proc = None
        self._fds = []
        self._buf = b""
        self._next_id = 0
        self._replies = {}
        self._seen = {}         # event method -> how many arrived
        self._session = None
        self._tmp = tempfile.mkdtemp(prefix="browser-")
        try:
            self._launch(chromium)
            self._attach()
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- lifetime -------------------------------------------------------

    def _launch(self, chromium):
        if not os.access(chromium, os.X_OK):
            raise BrowserError(f"{chromium} is not installed")
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        self._fds = [cmd_r, cmd_w, reply_r, reply_w]
        self._cmd_fd, self._reply_fd = cmd_w, reply_r
        # Copies above 9, so that dup2 onto 3 and 4 cannot clobber them.
        child_in = fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(reply_w, fcntl.F_DUPFD_CLOEXEC, 10)
        self._fds += [child_in, child_out]

        def onto_3_and_4():
            os.dup2(child_in, CHILD_CMD_FD)
            os.dup2(child_out, CHILD_REPLY_FD)

        # Four new pipe fds take the lowest free numbers, so 3 and 4 are
        # open here and pass_fds may keep them; subprocess closes the rest.
        # The profile and Chromium's own temp and crash files go in _tmp.
        env = {**os.environ, "TMPDIR": self._tmp, "XDG_CONFIG_HOME": self._tmp}
        with open(self._log_path, "ab") as log:
            self._proc = subprocess.Popen(
                [chromium, *FLAGS, f"--user-data-dir={self._tmp}/profile",
                 "about:blank"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                pass_fds=(CHILD_CMD_FD, CHILD_REPLY_FD),
                preexec_fn=onto_3_and_4, start_new_session=True)
        for fd in (cmd_r, reply_w, child_in, child_out):
            self._close_fd(fd)

    def _attach(self):
        target = self.send("Target.createTarget", {"url": "about:blank"})
        self._session = self.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT,
                   "deviceScaleFactor": 1, "mobile": False})

    def close(self):
        """Stop Chromium (its whole process group) and remove its files."""
        if self._proc is not None:
            self._stop()
            self._proc = None
        for fd in list(self._fds):
            self._close_fd(fd)
        shutil.rmtree(self._tmp, ignore_errors=True)

    def _stop(self):
        """Ask Chromium to quit, then SIGKILL whatever of its group is left."""
        try:
            self._write({"id": 0, "method": "Browser.close"})
            self._proc.wait(timeout=5)
        except (BrowserError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._proc.wait()

    def _gone(self, what):
        """The error for a pipe Chromium has closed, with how it ended."""
        try:
            status = f"exit status {self._proc.wait(timeout=2)}"
        except subprocess.TimeoutExpired:
            status = "still running"
        return BrowserError(f"{what}: chromium closed the pipe ({status}); "
                            f"see {self._log_path}")

    def _close_fd(self, fd):
        if fd in self._fds:
            self._fds.remove(fd)
            os.close(fd)

    # -- protocol -------------------------------------------------------

    def send(self, method, params=None, timeout=None):
        """Send one CDP command (to the page session once attached) and
        return its result."""
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if self._session:
            msg["sessionId"] = self._session
        self._write(msg)
        self._pump_until(lambda: msg["id"] in self._replies, method, timeout)
        reply = self._replies.pop(msg["id"])
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def _write(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self._cmd_fd, data):]
        except OSError as e:
            raise self._gone(msg["method"]) from e

    def _pump_until(self, done, what, timeout=None):
        """Handle incoming messages until done() is true."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserTimeout(f"{what}: timed out after {limit:g} s")
            if select.select([self._reply_fd], [], [], left)[0]:
                self._read(what)

    def _read(self, what):
        chunk = os.read(self._reply_fd, 1 << 16)
        if not chunk:
            raise self._gone(what)
        self._buf += chunk
        *messages, self._buf = self._buf.split(b"\0")
        for raw in messages:
            self._dispatch(json.loads(raw))

    def _dispatch(self, msg):
        if "id" in msg:
            self._replies[msg["id"]] = msg
            return
        method, params = msg.get("method"), msg.get("params", {})
        self._seen[method] = self._seen.get(method, 0) + 1
        handler = self._handlers.get(method)
        if handler:
            handler(self, params)

    def wait_event(self, method, since, timeout=None):
        """Wait until more than `since` events `method` have arrived."""
        self._pump_until(lambda: self._seen.get(method, 0) > since,
                         method, timeout)

    def events(self, method):
        """How many events `method` have arrived so far."""
        return self._seen.get(method, 0)

    # -- events ---------------------------------------------------------

    def _on_console(self, params):
        text = " ".join(_remote_text(arg) for arg in params.get("args", []))
        self.console.append({"type": params.get("type"), "text": text})

    def _on_exception(self, params):
        self.exceptions.append(_exception_text(params["exceptionDetails"]))

    def _on_log(self, params):
        entry = params["entry"]
        self.log_entries.append(entry)
        if "Content Security Policy" in entry.get("text", ""):
            self.csp_violations.append(entry["text"])

    def _on_dialog(self, params):
        self.dialogs.append(params.get("message", ""))
        # Dismiss it; a beforeunload one is accepted so navigation goes on.
        # Not waited for: the reply is simply stored when it comes.
        leave = params.get("type") == "beforeunload"
        self._next_id += 1
        self._write({"id": self._next_id, "sessionId": self._session,
                     "method": "Page.handleJavaScriptDialog",
                     "params": {"accept": leave}})

    _handlers = {
        "Runtime.consoleAPICalled": _on_console,
        "Runtime.exceptionThrown": _on_exception,
        "Log.entryAdded": _on_log,
        "Page.javascriptDialogOpening": _on_dialog,
    }

    # -- page actions ---------------------------------------------------

    def open(self, path, timeout=None):
        """Load a local file and wait for its load event and readyState."""
        url = pathlib.Path(path).resolve().as_uri()
        loads = self.events("Page.loadEventFired")
        nav = self.send("Page.navigate", {"url": url}, timeout)
        if nav.get("errorText"):
            raise BrowserError(f"Page.navigate {url}: {nav['errorText']}")
        self.wait_event("Page.loadEventFired", loads, timeout)
        self._poll("document.readyState == 'complete'", timeout)

    def _poll(self, js, timeout=None):
        """Evaluate js every 50 ms until it is true."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while not self.eval(js, timeout):
            if time.monotonic() > deadline:
                raise BrowserTimeout(f"Runtime.evaluate: {js} still false "
                                     f"after {limit:g} s")
            time.sleep(0.05)

    def eval(self, js, timeout=None):
        """Evaluate js in the page (awaiting a promise) and return its value."""
        res = self.send("Runtime.evaluate",
                        {"expression": js, "returnByValue": True,
                         "awaitPromise": True}, timeout)
        if "exceptionDetails" in res:
            raise BrowserError(
                f"Runtime.evaluate: {_exception_text(res['exceptionDetails'])}"
                f"\n  in: {js}")
        return res["result"].get("value")

    def _mouse(self, kind, x, y, **extra):
        self.send("Input.dispatchMouseEvent",
                  {"type": kind, "x": x, "y": y, **extra})

    def hover(self, x, y):
        """Move the mouse to viewport point (x, y)."""
        self._mouse("mouseMoved", x, y)

    def click(self, x, y):
        """Left-click once at viewport point (x, y)."""
        self.hover(x, y)
        for kind in ("mousePressed", "mouseReleased"):
            self._mouse(kind, x, y, button="left", clickCount=1)

    def click_selector(self, css):
        """Scroll the first element matching css into view; click its centre."""
        x, y = self.eval(f"""(() => {{
            const e = document.querySelector({json.dumps(css)});
            if (!e) throw new Error("no element matches " + {json.dumps(css)});
            e.scrollIntoView({{block: "center", inline: "center"}});
            const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        }})()""")
        self.click(x, y)

    def type(self, css, text):
        """Focus the element matching css, insert text, then press Enter."""
        self.eval(f"""(() => {{
            const e = document.querySelector({json.dumps(css)});
            if (!e) throw new Error("no element matches " + {json.dumps(css)});
            e.focus();
        }})()""")
        self.send("Input.insertText", {"text": text})
        enter = {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13}
        self.send("Input.dispatchKeyEvent", {"type": "keyDown", **enter})
        self.send("Input.dispatchKeyEvent",
                  {"type": "char", "text": "\r", **enter})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **enter})

    def screenshot(self, path):
        """Write a PNG of the viewport to path."""
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        pathlib.Path(path).write_bytes(base64.b64decode(data))


def _remote_text(obj):
    """Text of one CDP RemoteObject, as a console would show it."""
    if "value" in obj:
        value = obj["value"]
        return value if isinstance(value, str) else json.dumps(value)
    return str(obj.get("unserializableValue")
               or obj.get("description") or obj.get("type"))


def _exception_text(details):
    """Readable text of CDP ExceptionDetails."""
    exc = details.get("exception") or {}
    desc = exc.get("description") or exc.get("value")
    text = details.get("text", "exception")
    return f"{text} {desc}" if desc else text


def available():
    """(True, "") if a headless Chromium starts and evaluates 1+1, else
    (False, reason)."""
    try:
        with Browser() as b:
            result = b.eval("1+1")
    except (BrowserError, OSError) as e:
        return False, " ".join(str(e).split())
    if result != 2:
        return False, f"chromium evaluated 1+1 as {result!r}"
    return True, ""


def main(argv):
    if argv[1:] != ["--check"]:
        print(f"usage: {argv[0]} --check", file=sys.stderr)
        return 2
    ok, reason = available()
    print("ok" if ok else reason)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
