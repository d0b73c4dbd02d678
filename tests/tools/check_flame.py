#!/usr/bin/env python3
# check_flame.py - a flame graph page checked in headless Chromium against
# the folded stacks it was drawn from: frames, values, zoom, search, reset.
"""check_flame.py PAGE FOLDED [--search NAME] [--shot PNG] [--grown NAME]
                  [--shrunk NAME] [--hostile NAME...] [--title TEXT]
                  [--inverted] [--hot | --kinds]

FOLDED: the `trace-report flamegraph --folded` lines of the same recording
(drawn with --minwidth 0, so every frame is drawn). Prints one line per
check, "PASS: what" or "FAIL: what: why"; exits 1 when a check failed.
--hostile NAME: a name that must be drawn as that very text, and nothing
from the recording may have run (window.__pwned, dialogs, CSP reports).
--title TEXT: the page's and the picture's title; --inverted: the root at
the top, callees below (else at the bottom); --hot: every frame in
FlameGraph's warm colours; --kinds: a page drawn with --kernel, its frames
coloured by kind (kernel frames are the "_[k]" ones)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402

failed = False


def check(what, ok, why=''):
    global failed
    print(('PASS: %s' % what) if ok else ('FAIL: %s: %s' % (what, why)))
    failed |= not ok


def trie(folded):
    """The folded lines as a tree: {name: [value, children]} below 'all'."""
    root = [0, {}]
    for line in open(folded, encoding='utf-8', errors='replace'):
        path, _, count = line.rstrip('\n').rpartition(' ')
        n = int(count)
        node = root
        node[0] += n
        for name in path.split(';'):
            node = node[1].setdefault(name, [0, {}])
            node[0] += n
    return root


def flatten(node, name, depth, out):
    out.append((depth, name, node[0]))
    for k, v in node[1].items():
        flatten(v, k, depth + 1, out)
    return out


FRAMES = """Array.from(document.querySelectorAll('#tb-svg g.frame')).map(function (g) {
  var r = g.querySelector('rect');
  return [g.getAttribute('data-id'), g.getAttribute('data-name'), +g.getAttribute('data-value'),
          +r.getAttribute('x'), +r.getAttribute('width'), r.getAttribute('fill'),
          g.getAttribute('class'), (g.querySelector('text') || {}).textContent || ''];
})"""


def frames(b):
    return b.eval(FRAMES)


def check_frames(b, t):
    want = sorted((n, v) for _, n, v in flatten(t, 'all', 0, []))
    got = sorted((f[1], f[2]) for f in frames(b))
    check('frames drawn: %d, as many as the folded stacks make' % len(want), len(got) == len(want),
          'drawn %d, folded %d' % (len(got), len(want)))
    check('every frame: the name and value of the folded stacks', got == want,
          'first difference: %s' % next(((g, w) for g, w in zip(got, want) if g != w), None))


def check_zoom(b, t):
    width = b.eval('window.tbFlame.width')
    best = None
    for f in b.eval("window.tbFlame.nodes.map(function (n) { return [n.id, n.depth, n.kids.length,"
                    " n.v, n.kids.map(function (k) { return [k.id, k.v]; })]; })"):
        if f[1] >= 2 and f[2] >= 2 and (best is None or f[3] > best[3]):
            best = f
    if best is None:
        check('zoom', False, 'no frame with two children below the comm')
        return
    b.click_selector('#tb-svg g.frame[data-id="%d"] rect' % best[0])
    drawn = {int(f[0]): f for f in frames(b)}
    me = drawn.get(best[0])
    check('click zooms: the frame spans the width', me and abs(me[4] - width) < 0.5,
          'width %s of %s' % (me and me[4], width))
    bad = [(k, v, drawn.get(k)) for k, v in best[4]
           if not drawn.get(k) or abs(drawn[k][4] - v / best[3] * width) > 0.5]
    check('click zooms: each child as wide as its share of the frame', not bad, str(bad[:3]))
    b.click_selector('#tb-reset')
    check('reset draws every frame again', len(frames(b)) == b.eval('window.tbFlame.nodes.length'),
          '%d drawn' % len(frames(b)))


def check_search(b, t, name):
    total = t[0]
    share = [0]

    def walk(node, under):
        for k, v in node[1].items():
            hit = name in k
            if hit and not under:
                share[0] += v[0]
            walk(v, under or hit)
    walk(t, False)
    b.type('#tb-search', name)
    fs = frames(b)
    hits = [f for f in fs if name in f[1] and f[1] != 'all']
    check('search "%s" highlights the %d matching frames' % (name, len(hits)),
          hits and all(f[5] == 'rgb(230,0,230)' for f in hits) and
          all(f[5] != 'rgb(230,0,230)' for f in fs if f not in hits), str(hits[:2]))
    want = 'Matched: %.2f%%' % (100.0 * share[0] / total)
    got = b.eval("document.getElementById('tb-matched').textContent")
    check('search shows the matched share (%s)' % want, got == want, got)
    b.click_selector('#tb-reset')
    check('reset clears the search', not any(f[5] == 'rgb(230,0,230)' for f in frames(b)), '')


def check_hostile(b, names):
    drawn = [f[1] for f in frames(b)]
    for n in names:
        check('the name %r is drawn as text' % n, n in drawn, 'not among the frames')
        tip = b.eval("Array.from(document.querySelectorAll('#tb-svg g.frame')).some(function (g) {"
                     " return g.querySelector('title').textContent.indexOf(%s) === 0; })"
                     % __import__('json').dumps(n))
        check('the tooltip of %r begins with it, as text' % n, tip, '')
    check('no script from the recording ran', b.eval('typeof window.__pwned') == 'undefined' and
          not b.dialogs, 'pwned=%s dialogs=%s' % (b.eval('typeof window.__pwned'), b.dialogs))
    check('no element the recording made: one svg, no img or script but the page\'s',
          b.eval("document.querySelectorAll('svg').length == 1 && "
                 "document.querySelectorAll('img,iframe,object').length == 0 && "
                 "document.querySelectorAll('script').length == 2"), '')
    check('the page\'s policy was never violated', not b.csp_violations, str(b.csp_violations))


LOOK = """Array.from(document.querySelectorAll('#tb-svg g.frame')).map(function (g) {
  var r = g.querySelector('rect');
  return [g.getAttribute('data-name'), g.getAttribute('data-kind'), +r.getAttribute('y'),
          r.getAttribute('fill').match(/\\d+/g).map(Number)];
})"""
# flame.js's palettes: a kind's colour is base + spread * v, v in [0, 1)
PALETTES = {'root': (200, 200, 200, 0, 0, 0), 'comm': (120, 140, 200, 40, 40, 40),
            'user': (200, 50, 50, 55, 60, 40), 'kernel': (205, 115, 0, 50, 60, 20),
            'inline': (50, 180, 180, 50, 50, 50), 'jit': (50, 200, 50, 50, 50, 50)}
HOT = (205, 0, 0, 50, 230, 55)


def in_palette(rgb, p):
    return all(p[i] <= rgb[i] <= p[i] + p[i + 3] for i in range(3))


def kind_of(name, depth_one):
    if name == 'all':
        return 'root'
    if depth_one:
        return 'comm'
    return 'kernel' if name.endswith('_[k]') else 'user'


def check_look(b, a):
    if a.title is not None:
        got = [b.eval('document.title'), b.eval("document.getElementById('tb-title').textContent")]
        check('the title %r, the page\'s and the picture\'s' % a.title, got == [a.title] * 2, str(got))
    fs = b.eval(LOOK)
    root = [f for f in fs if f[0] == 'all']
    ys = sorted(set(f[2] for f in fs))
    where = 'top' if a.inverted else 'bottom'
    check('the root at the %s, callees %s it' % (where, 'below' if a.inverted else 'above'),
          len(root) == 1 and len(ys) > 2 and root[0][2] == (ys[0] if a.inverted else ys[-1]),
          'root y %s of %s' % (root and root[0][2], ys[:3] + ys[-3:]))
    if a.hot:
        bad = [f for f in fs if f[0] != 'all' and not in_palette(f[3], HOT)]
        check('--hot: every frame in warm colours', not bad, str(bad[:3]))
    if a.kinds:
        comm_y = ys[1] if a.inverted else ys[-2]
        bad = [f for f in fs if f[1] != kind_of(f[0], f[2] == comm_y) or
               not in_palette(f[3], PALETTES[f[1]])]
        kinds = set(f[1] for f in fs)
        check('frames coloured by kind (%s), kernel ones the "_[k]" ones' % ', '.join(sorted(kinds)),
              not bad and {'kernel', 'user', 'comm'} <= kinds, str(bad[:3]))


def check_diff(b, grown, shrunk):
    cls = {f[1]: f[6] for f in frames(b)}
    check('differential: %s grown' % grown, 'grown' in (cls.get(grown) or ''), cls.get(grown))
    check('differential: %s shrunk' % shrunk, 'shrunk' in (cls.get(shrunk) or ''), cls.get(shrunk))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('page')
    ap.add_argument('folded')
    ap.add_argument('--search')
    ap.add_argument('--shot')
    ap.add_argument('--grown')
    ap.add_argument('--shrunk')
    ap.add_argument('--hostile', nargs='*', default=[])
    ap.add_argument('--title')
    ap.add_argument('--inverted', action='store_true')
    ap.add_argument('--hot', action='store_true')
    ap.add_argument('--kinds', action='store_true')
    a = ap.parse_args()
    t = trie(a.folded)
    with Browser() as b:
        b.open(a.page)
        check_frames(b, t)
        check_look(b, a)
        if a.hostile:
            check_hostile(b, a.hostile)
        if a.grown:
            check_diff(b, a.grown, a.shrunk)
        check_zoom(b, t)
        if a.search:
            check_search(b, t, a.search)
        if a.shot:
            b.screenshot(a.shot)
            check('screenshot kept: %s' % a.shot, os.path.getsize(a.shot) > 1000, '')
        check('no script errors', not b.exceptions, str(b.exceptions[:2]))
    sys.exit(1 if failed else 0)


main()
