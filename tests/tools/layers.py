#!/usr/bin/env python3
# layers.py - checks the layering of the sources (applets -> engines -> common,
# never upward) and that no two object files need each other.
#   layers.py includes [ROOT]      every #include "..." under ROOT's common/,
#                                  engines/ and applets/ resolves inside the
#                                  layers its folder may use, with no '..';
#                                  and no source includes another's header
#                                  whose file includes its own back (x.c and
#                                  x.h are one unit, x_int.h belongs to x)
#   layers.py circles OBJ...       no object file uses a symbol of another
#                                  that uses one of its own (directly or
#                                  round a longer circle)
# Prints one line per problem and exits 1 when there is any.
import os
import re
import subprocess
import sys

# what each layer may include, in the order the compiler searches them
REACH = {
    'common': ['common'],
    'engines': ['common', 'engines'],
    'applets': ['common', 'engines', 'applets'],
}
# interpreter headers belong to their engine's folder alone (DESIGN.md)
ONLY_IN = {
    'Python.h': 'engines/python/',
    'EXTERN.h': 'engines/perl/',
    'perl.h': 'engines/perl/',
    'XSUB.h': 'engines/perl/',
}
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANGLED = re.compile(r'^\s*#\s*include\s+<([^>]+)>')


def unit_of(rel):
    """x.c, x.h and x_int.h are one unit, named x"""
    stem = os.path.splitext(rel)[0]
    return stem[:-4] if stem.endswith('_int') else stem


def check_includes(root):
    bad, edges = [], {}
    for layer, reach in REACH.items():
        for d, _, files in os.walk(os.path.join(root, layer)):
            for f in sorted(files):
                if not f.endswith(('.c', '.h')):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                with open(path, errors='replace') as fh:
                    for n, line in enumerate(fh, 1):
                        m = QUOTED.match(line)
                        if m:
                            inc = m.group(1)
                            if '..' in inc.split('/') or inc.startswith('/'):
                                bad.append(f'{rel}:{n}: includes "{inc}": no ".." or absolute paths, '
                                           'name the header from its layer\'s folder')
                                continue
                            found = [os.path.join(d, inc)] + [os.path.join(root, r, inc) for r in reach]
                            found = [x for x in found if os.path.exists(x)]
                            if found:         # beside the file first, then the layers in order
                                to = unit_of(os.path.relpath(found[0], root))
                                if to != unit_of(rel):
                                    edges.setdefault(unit_of(rel), set()).add(to)
                                continue
                            where = [r for r in REACH if os.path.exists(os.path.join(root, r, inc))]
                            bad.append(f'{rel}:{n}: includes "{inc}"' +
                                       (f' of {where[0]}/, above {layer}/ (it sees {", ".join(reach)})'
                                        if where else ', which is in none of ' + ', '.join(reach)))
                            continue
                        m = ANGLED.match(line)
                        if m:
                            inc = os.path.basename(m.group(1))
                            if inc in ONLY_IN and not rel.startswith(ONLY_IN[inc]):
                                bad.append(f'{rel}:{n}: includes <{m.group(1)}>, which only '
                                           f'{ONLY_IN[inc]} may include')
                            if m.group(1).startswith('traceevent/') and layer == 'engines':
                                bad.append(f'{rel}:{n}: includes <{m.group(1)}>: no engine '
                                           'includes libtraceevent')
    graph = {u: sorted(v) for u, v in edges.items()}
    return bad + ['these include each other: ' + ' <-> '.join(c) for c in strong_components(graph)]


def symbols(obj):
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRVW':
            defined.add(p[2])
        elif len(p) == 2 and p[0] == 'U':
            used.add(p[1])
    return defined, used


def strong_components(graph):
    """the circles of @graph (node -> sorted successors): Tarjan's strongly
    connected components of more than one node, iteratively"""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    for start in list(graph):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            v, i = work.pop()
            succ = graph.get(v, [])
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return sorted(out)


def check_circles(objs):
    owner, uses = {}, {}
    for o in objs:
        d, u = symbols(o)
        uses[o] = u
        for s in d:
            owner.setdefault(s, o)
    graph = {o: sorted({owner[s] for s in u if s in owner and owner[s] != o})
             for o, u in uses.items()}
    return ['these need each other: ' + ' <-> '.join(c) for c in strong_components(graph)]


def main(argv):
    if len(argv) >= 2 and argv[1] == 'includes':
        bad = check_includes(argv[2] if len(argv) > 2 else '.')
    elif len(argv) >= 3 and argv[1] == 'circles':
        bad = check_circles(argv[2:])
    else:
        print('usage: layers.py includes [ROOT] | circles OBJ...', file=sys.stderr)
        return 2
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
