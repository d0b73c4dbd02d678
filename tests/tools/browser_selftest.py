#!/usr/bin/env python3
# browser_selftest.py - prove browser.py drives headless Chromium on small local pages.
"""Run: python3 tests/tools/browser_selftest.py

Prints a PASS: or FAIL: line per check and exits 1 if any check failed.
"""
import os
import pathlib
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

MAIN_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>start</title>
<style>
  body { margin: 0; }
  #box { position: absolute; left: 100px; top: 200px;
         width: 50px; height: 40px; background: #c33; }
</style></head>
<body>
<button id="go" onclick="document.title = 'clicked'">go</button>
<input id="field">
<div id="out"></div>
<div id="box" onclick="this.dataset.hit = 'yes'"></div>
<script>
  document.getElementById("field").addEventListener("keydown", e => {
    if (e.key === "Enter")
      document.getElementById("out").textContent = e.target.value;
  });
  console.log("hello", 42);
</script>
</body></html>
"""

CSP_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'">
</head><body>
<script>document.title = "script ran";</script>
</body></html>
"""

ALERT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"></head><body>
<script>alert('x'); document.title = "after alert";</script>
</body></html>
"""

failures = []


def check(what, ok, detail=""):
    print(("PASS: " if ok else "FAIL: ") + what
          + (f" ({detail})" if detail and not ok else ""))
    if not ok:
        failures.append(what)


def write(tmp, name, text):
    path = tmp / name
    path.write_text(text)
    return path


def main_page_checks(b, tmp):
    b.open(write(tmp, "main.html", MAIN_PAGE))
    check("open waits for readyState complete",
          b.eval("document.readyState") == "complete")
    check("viewport is 1400x900",
          b.eval("[innerWidth, innerHeight]") == [1400, 900],
          b.eval("[innerWidth, innerHeight]"))
    check("console.log recorded",
          {"type": "log", "text": "hello 42"} in b.console, b.console)

    b.click_selector("#go")
    title = b.eval("document.title")
    check("click_selector runs the click handler", title == "clicked", title)

    b.click(125, 220)
    hit = b.eval("document.getElementById('box').dataset.hit")
    check("click at a known position hits the element", hit == "yes", hit)

    b.hover(125, 220)
    hovered = b.eval("document.querySelector('#box:hover') !== null")
    check("hover moves the mouse onto the element", hovered)

    b.type("#field", "typed text")
    out = b.eval("document.getElementById('out').textContent")
    check("type inserts text and Enter reaches keydown",
          out == "typed text", repr(out))

    check("eval awaits promises",
          b.eval("new Promise(r => setTimeout(() => r(7), 10))") == 7)
    try:
        b.eval("throw new Error('boom')")
        check("eval raises on a JS exception", False, "no exception")
    except browser.BrowserError as e:
        check("eval raises on a JS exception", "boom" in str(e), e)

    png = tmp / "shot.png"
    b.screenshot(png)
    data = png.read_bytes()
    check("screenshot is a PNG",
          data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000,
          f"{len(data)} bytes, starts {data[:8]!r}")
    check("no page exceptions", not b.exceptions, b.exceptions)


def csp_checks(b, tmp):
    b.open(write(tmp, "csp.html", CSP_PAGE))
    check("CSP blocks the inline script",
          b.eval("document.title") != "script ran")
    check("CSP violation recorded", len(b.csp_violations) > 0,
          b.log_entries)


def dialog_checks(b, tmp):
    b.open(write(tmp, "alert.html", ALERT_PAGE), timeout=10)
    check("alert recorded in dialogs", b.dialogs == ["x"], b.dialogs)
    check("page goes on after the dismissed alert",
          b.eval("document.title") == "after alert")


def main():
    ok, reason = browser.available()
    check("available() finds a working browser", ok, reason)
    if not ok:
        return 1
    with tempfile.TemporaryDirectory() as tmp, browser.Browser() as b:
        tmp = pathlib.Path(tmp)
        for checks in (main_page_checks, csp_checks, dialog_checks):
            try:
                checks(b, tmp)
            except browser.BrowserError as e:
                check(checks.__name__, False, e)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
