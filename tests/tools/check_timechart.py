#!/usr/bin/env python3
# check_timechart.py - a trace-report timechart page checked in headless Chromium.
# SPDX-License-Identifier: GPL-2.0-only
"""Open a timechart page (tests/tools/browser.py) and check what it shows.

    check_timechart.py PAGE --comm COMM [--blocked-ms MS] [--busy-ms MS]
        the lanes (one per CPU of the data, a bar per task labelled
        "comm (pid)"), COMM's states as drawn (blocked about MS, running about
        MS), every rect's data-state and tooltip, zoom
        (setView and the axis labels, the wheel, the buttons), pan (drag,
        buttons), the wake-up checkbox, no console errors or exceptions;
        a screenshot, timechart.png, in the current directory
    check_timechart.py PAGE --hostile COMM... [--title TITLE]
        each COMM shown literally as a lane's label, nothing injected, no
        dialog, no script of the recording's run (window.__pwned unset)

Prints "PASS: what" or "FAIL: what: why" per check; exits 1 if any failed.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError  # noqa: E402

failed = []


def check(what, ok, why=""):
    if ok:
        print(f"PASS: {what}")
    else:
        print(f"FAIL: {what}: {why}")
        failed.append(what)
    return ok


def frame(b):
    """Wait for the page's next animation frame (its deferred redraw)."""
    b.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))")


LANE_STATES = """(pid => {
  const lane = document.querySelector('g.lane.task[data-pid="' + pid + '"]');
  if (!lane) return null;
  const tc = window.tbTimechart, v = tc.view(), per = (v[1] - v[0]) / tc.width;
  const out = {running: 0, runnable: 0, blocked: 0, other: 0, rects: 0};
  lane.querySelectorAll('rect').forEach(r => {
    const s = r.getAttribute('data-state');
    out[s in out ? s : 'other'] += r.width.baseVal.value * per;
    out.rects++;
  });
  return out;
})"""


def page_basics(b, d):
    """Lanes, labels, rect attributes, no errors at load."""
    cpus = b.eval("Array.from(document.querySelectorAll('g.lane.cpu'), g => +g.dataset.cpu)")
    check("a lane per CPU", cpus == [c["cpu"] for c in d["cpus"]] and len(cpus) > 0,
          f"lanes {cpus}, data {[c['cpu'] for c in d['cpus']]}")
    labels = b.eval("Array.from(document.querySelectorAll('g.lane.task'), "
                    "g => [+g.dataset.pid, g.querySelector('text.label').textContent])")
    want = [[t["pid"], f"{t['comm']} ({t['pid']})"] for t in d["tasks"]]
    check("a bar per task labelled comm (pid)", labels == want,
          f"{len(labels)} lanes, {len(want)} tasks; first differences "
          f"{[x for x in zip(labels, want) if x[0] != x[1]][:3]}")
    bad = b.eval("""Array.from(document.querySelectorAll('g.lane rect')).filter(r =>
        !['running', 'runnable', 'blocked'].includes(r.getAttribute('data-state')) ||
        !r.querySelector('title') || !r.querySelector('title').textContent).length""")
    n = b.eval("document.querySelectorAll('g.lane rect').length")
    check("every rect has a data-state and a tooltip", n > 0 and bad == 0,
          f"{bad} of {n} rects without")
    lanes = len(d["cpus"]) + len(d["tasks"])
    check("at most a rect per lane and pixel", n <= lanes * b.eval("window.tbTimechart.width"),
          f"{n} rects for {lanes} lanes")


def task_states(b, d, comm, blocked_ms, busy_ms):
    """COMM's bar as drawn: its blocked and its running (or runnable) time."""
    tasks = [t for t in d["tasks"] if t["comm"] == comm]
    if not check(f"a task {comm} in the data", len(tasks) == 1, f"{len(tasks)} tasks"):
        return
    pid = tasks[0]["pid"]
    b.eval("window.tbTimechart.setView(0, window.tbTimechart.data.duration)")
    s = b.eval(f"{LANE_STATES}({pid})")
    ms = {k: v / 1e6 for k, v in s.items() if k != "rects"}
    check(f"{comm} drawn blocked {blocked_ms} ms (+-15%)",
          abs(ms["blocked"] - blocked_ms) <= 0.15 * blocked_ms, f"drawn {ms}")
    check(f"{comm} drawn running {busy_ms} ms (+-25%)",
          abs(ms["running"] - busy_ms) <= 0.25 * busy_ms, f"drawn {ms}")
    # zoomed in on the middle of its longest blocked interval: blocked there
    sp = tasks[0]["spans"]
    blocked = [(sp[i + 1], sp[i]) for i in range(0, len(sp), 4) if sp[i + 2] == 2]
    if not check(f"{comm} blocked in the data", blocked, "no blocked interval"):
        return
    dur, start = max(blocked)
    mid = start + dur / 2
    b.eval(f"window.tbTimechart.setView({mid - 1e6}, {mid + 1e6})")
    s = b.eval(f"{LANE_STATES}({pid})")
    check(f"{comm} zoomed into its sleep: only blocked",
          s["blocked"] > 1.9e6 and s["running"] == 0 and s["rects"] == 1, f"{s}")
    tip = b.eval(f"""document.querySelector('g.lane.task[data-pid="{pid}"] rect title')
                 .textContent""")
    check("the tooltip names the state, the task, its start and duration",
          f"{comm} ({pid}): blocked" in tip and "start" in tip and "duration" in tip, tip)


def zoom_and_pan(b, d):
    tc = "window.tbTimechart"
    total = d["duration"]
    b.eval(f"{tc}.setView(0, {total})")
    ticks0 = b.eval(f"{tc}.ticks()")
    v = b.eval(f"{tc}.setView({total * 0.4}, {total * 0.45})")
    ticks1 = b.eval(f"{tc}.ticks()")
    check("setView narrows the view", abs(v[0] - total * 0.4) < 1 and abs(v[1] - total * 0.45) < 1,
          f"view {v}")
    check("the axis labels follow the view", ticks0 != ticks1 and len(ticks1) >= 2,
          f"{ticks0} then {ticks1}")
    # the wheel over the middle of the chart zooms in there
    before = b.eval(f"{tc}.view()")
    x, y = b.eval("""(() => { const r = document.getElementById('tc-svg').getBoundingClientRect();
        return [r.left + window.tbTimechart.label + window.tbTimechart.width / 2, r.top + 40]; })()""")
    b.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y,
                                        "deltaX": 0, "deltaY": -120})
    frame(b)
    after = b.eval(f"{tc}.view()")
    check("the wheel zooms in", after[1] - after[0] < 0.9 * (before[1] - before[0]),
          f"{before} then {after}")
    before = after
    b.click_selector("#tc-zoom-out")
    after = b.eval(f"{tc}.view()")
    check("the zoom-out button widens the view",
          after[1] - after[0] > 1.5 * (before[1] - before[0]), f"{before} then {after}")
    before = after
    b.click_selector("#tc-zoom-in")
    after = b.eval(f"{tc}.view()")
    check("the zoom-in button narrows the view",
          after[1] - after[0] < 0.6 * (before[1] - before[0]), f"{before} then {after}")
    # drag 200 pixels left: later times come into view, the span stays
    before = after
    b.hover(x, y)
    b.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y,
                                        "button": "left", "clickCount": 1})
    for k in range(1, 5):
        b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x - 50 * k, "y": y,
                                            "button": "left", "buttons": 1})
    b.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x - 200, "y": y,
                                        "button": "left", "clickCount": 1})
    frame(b)
    after = b.eval(f"{tc}.view()")
    span = before[1] - before[0]
    check("dragging pans the view", after[0] > before[0] + 0.1 * span and
          abs((after[1] - after[0]) - span) < 1, f"{before} then {after}")
    before = after
    b.click_selector("#tc-left")
    after = b.eval(f"{tc}.view()")
    check("the pan button moves the view", after[0] < before[0] and
          abs((after[1] - after[0]) - span) < 1, f"{before} then {after}")
    ticks2 = b.eval(f"{tc}.ticks()")
    check("the axis labels follow a pan", ticks2 != ticks1, f"{ticks2}")


def arrows(b, d, initially):
    tc = "window.tbTimechart"
    b.click_selector("#tc-reset")
    check("the wake-ups checkbox starts as --arrows says",
          b.eval("document.getElementById('tc-arrows').checked") == initially and
          (b.eval(f"{tc}.arrowCount()") > 0) == initially, f"--arrows {initially}")
    for want in (not initially, initially):
        b.click_selector("#tc-arrows")
        n = b.eval(f"{tc}.arrowCount()")
        check(f"wake-up arrows {'shown' if want else 'hidden'} by the checkbox",
              (n > 0) == want and b.eval("document.getElementById('tc-arrows').checked") == want,
              f"{n} arrows")
    if d["wakeups"]:
        if not initially:
            b.click_selector("#tc-arrows")
        t = d["wakeups"][0]
        b.eval(f"{tc}.setView({t + 1e3}, {t + 2e3})")
        n = b.eval(f"{tc}.arrowCount()")
        m = sum(1 for i in range(0, len(d["wakeups"]), 5) if t + 1e3 <= d["wakeups"][i] <= t + 2e3)
        check("only the wake-ups in view are drawn", n <= m, f"{n} drawn, {m} in view")
        b.click_selector("#tc-reset")


def no_errors(b):
    errors = [c for c in b.console if c.get("type") in ("error", "assert")]
    check("no console errors, exceptions or CSP violations",
          not errors and not b.exceptions and not b.csp_violations,
          f"console {errors[:3]}, exceptions {b.exceptions[:3]}, CSP {b.csp_violations[:3]}")
    check("no dialogs", not b.dialogs, f"{b.dialogs}")


def hostile(b, d, comms, title):
    labels = b.eval("Array.from(document.querySelectorAll('g.lane.task text.label'), "
                    "e => e.textContent)")
    for c in comms:
        found = [t for t in d["tasks"] if t["comm"] == c]
        check(f"comm {c!r} in the data as it was", len(found) >= 1,
              f"comms {[t['comm'] for t in d['tasks']][:40]}")
        check(f"comm {c!r} shown literally", any(l.startswith(c + " (") for l in labels),
              "no such label")
    check("nothing of a comm became markup",
          b.eval("document.querySelectorAll('img, b, iframe, foreignObject').length") == 0 and
          b.eval("document.scripts.length") == 2, "extra elements")
    check("no script of the recording's ran", b.eval("typeof window.__pwned") == "undefined")
    if title is not None:
        check("the title shown as text", b.eval("document.title") == title and
              b.eval("document.getElementById('tc-title').textContent") == title,
              b.eval("document.title"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--comm")
    ap.add_argument("--blocked-ms", type=float, default=200)
    ap.add_argument("--busy-ms", type=float, default=300)
    ap.add_argument("--arrows", action="store_true", help="the page was made with --arrows")
    ap.add_argument("--hostile", nargs="+")
    ap.add_argument("--title")
    ap.add_argument("--screenshot", default="timechart.png")
    a = ap.parse_args()
    try:
        with Browser() as b:
            b.open(a.page)
            d = json.loads(b.eval("document.getElementById('tb-data').textContent"))
            check("the page draws", b.eval("typeof window.tbTimechart") == "object",
                  f"exceptions {b.exceptions[:3]}")
            page_basics(b, d)
            if a.hostile:
                hostile(b, d, a.hostile, a.title)
            else:
                task_states(b, d, a.comm, a.blocked_ms, a.busy_ms)
                zoom_and_pan(b, d)
                arrows(b, d, a.arrows)
                b.click_selector("#tc-reset")
                b.screenshot(a.screenshot)
            no_errors(b)
    except BrowserError as e:
        check("the browser ran the page", False, " ".join(str(e).split())[:500])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
