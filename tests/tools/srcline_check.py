#!/usr/bin/env python3
"""srcline_check.py - check trace-report's source lines against the DWARF.

Reads `trace-report -F ip,sym,dso,srcline` stack output (stdin) and, for
every user frame of the DSOs named on the command line, asks elfutils'
eu-addr2line (-i, basenames) what the DWARF says at that address: the
frames perf lists for one address (the inlined functions, then the real
one) must carry eu-addr2line's lines in order, an unknown line as "??:0"
(or perf's other stand-in, "DSO[ADDR]").
Prints one line per mismatch and a count; exits 1 on any mismatch or when
nothing was checked.
    srcline_check.py DSO_PATH... < report.txt
"""
import re
import subprocess
import sys

FRAME = re.compile(r"^\t\s*([0-9a-f]+) (.*?)(?: \((/[^)]*)\))?$")


def groups(lines, dsos):
    """(dso, addr, [srcline, ...]) per address: consecutive frames with the
    same address (an inline chain and its real function)."""
    out, cur = [], None
    i = 0
    while i < len(lines):
        m = FRAME.match(lines[i])
        if not m:
            cur = None
            i += 1
            continue
        addr, rest, dso = m.group(1), m.group(2), m.group(3)
        src = None
        if i + 1 < len(lines) and lines[i + 1].startswith("  ") and not lines[i + 1].startswith("\t"):
            src = lines[i + 1].strip()
            if src.endswith(" (inlined)"):
                src = src[: -len(" (inlined)")]
            i += 1
        inlined = rest.endswith("(inlined)") or (src is not None and lines[i].endswith(" (inlined)"))
        if cur and cur[1] == addr and cur[3]:
            cur[2].append(src)
            cur[3] = inlined
            if dso:
                cur[0] = dso
        else:
            cur = [dso, addr, [src], inlined]
            out.append(cur)
        i += 1
    return [(d, a, s) for d, a, s, _ in out if d in dsos]


def dwarf_lines(dso, addrs):
    """eu-addr2line's lines per address: {addr: [basename:line, ...]}"""
    res = subprocess.run(["eu-addr2line", "-a", "-i", "-s", "-e", dso] + ["0x" + a for a in addrs],
                         capture_output=True, text=True, check=False)
    table, cur = {}, None
    for line in res.stdout.splitlines():
        if line.startswith("0x"):
            cur = table.setdefault("%x" % int(line, 16), [])
            continue
        if cur is not None:
            # FILE:LINE[:COL] -> FILE:LINE; "??:0" stays
            parts = line.split(":")
            cur.append(parts[0] + ":" + (parts[1] if len(parts) > 1 else "0"))
    return table


def main():
    dsos = set(sys.argv[1:])
    frames = groups(sys.stdin.read().splitlines(), dsos)
    by_dso = {}
    for dso, addr, _ in frames:
        by_dso.setdefault(dso, set()).add(addr)
    truth = {d: dwarf_lines(d, sorted(a)) for d, a in by_dso.items()}
    bad = checked = 0
    seen = set()
    for dso, addr, ours in frames:
        if (dso, addr) in seen:
            continue
        seen.add((dso, addr))
        want = truth[dso].get(addr, [])
        # perf's stand-ins for an unknown line: nothing, "??:0", "DSO[ADDR]"
        got = [s if s is not None and not re.match(r"^[^:]*\[[0-9a-f]+\]$", s) else "??:0"
               for s in ours]
        checked += 1
        if got != want[: len(got)] or len(got) != max(len(want), 1):
            bad += 1
            print("%s 0x%s: ours %s, eu-addr2line %s" % (dso, addr, got, want))
    print("%d addresses checked, %d differ" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
