#!/usr/bin/python3.11
# pyzip.py - the guest's python311.zip: compiled stdlib modules, only those
# that the interpreter's start-up and the given scripts' imports load.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: pyzip.py OUT.zip SCRIPT_DIR... [+MODULE...]
#   SCRIPT_DIR  every *.py under it is read (not run) for its import lines;
#               modules found in these trees are ours and are left out
#   +MODULE     an extra module to import, e.g. +traceback (the engine
#               formats exceptions with it)
# The modules are imported in a fresh `python3.11 -I -S`, the same CPython
# as the static libpython: what it then holds in sys.modules from the
# stdlib's .py files (not frozen, not built in) is what goes in, as .pyc
# entries stored uncompressed, with fixed dates (reproducible output).
import ast
import importlib._bootstrap_external as bx
import os
import subprocess
import sys
import zipfile

STDLIB = '/usr/lib/python3.11'
BUILTIN_OURS = {'perf_trace_context'}    # compiled into tracebox


def imports_of(path):
    """Top-level module names a script imports (absolute imports only)."""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(node.module + '.' + a.name for a in node.names if a.name != '*')
    return names


def loaded_stdlib(seeds):
    """Files of the stdlib modules a fresh interpreter holds after importing seeds."""
    probe = '''
import sys
for name in sys.argv[1].split():
    try:
        __import__(name)
    except ImportError:
        pass    # "from X import name" where name is not a module
for m in list(sys.modules.values()):
    spec = getattr(m, "__spec__", None)
    if spec and spec.origin and spec.origin.startswith(sys.argv[2] + "/"):
        print(spec.origin)
'''
    out = subprocess.run([sys.executable, '-I', '-S', '-c', probe, ' '.join(sorted(seeds)), STDLIB],
                         check=True, capture_output=True, text=True).stdout
    files = sorted(out.split())
    ext = [f for f in files if not f.endswith('.py')]
    if ext:
        sys.exit('pyzip.py: C extension modules the static build cannot load: ' + ' '.join(ext))
    return files


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: pyzip.py OUT.zip SCRIPT_DIR... [+MODULE...]')
    out, args = sys.argv[1], sys.argv[2:]
    seeds = {a[1:] for a in args if a.startswith('+')}
    ours = set(BUILTIN_OURS)
    for top in (a for a in args if not a.startswith('+')):
        for d, _, files in os.walk(top):
            for f in (f for f in files if f.endswith('.py')):
                ours.add(f[:-3])
                seeds |= imports_of(os.path.join(d, f))
    seeds = {s for s in seeds if s.split('.')[0] not in ours}
    files = loaded_stdlib(seeds)
    if not any(f.endswith('/encodings/__init__.py') for f in files):
        sys.exit('pyzip.py: the probe did not see the start-up modules (encodings)')
    tmp = out + '.tmp'
    with zipfile.ZipFile(tmp, 'w', zipfile.ZIP_STORED) as z:
        for src in files:
            rel = os.path.relpath(src, STDLIB)
            with open(src, 'rb') as f:
                code = compile(f.read(), rel, 'exec', dont_inherit=True)
            # a timestamp .pyc with no .py beside it: zipimport does not check it
            data = bx._code_to_timestamp_pyc(code, 0, 0)
            info = zipfile.ZipInfo(rel[:-3] + '.pyc', (1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, bytes(data))
    os.replace(tmp, out)
    print('pyzip: %d modules, %d KiB: %s' %
          (len(files), os.path.getsize(out) // 1024,
           ' '.join(sorted(os.path.relpath(f, STDLIB)[:-3].replace('/__init__', '').replace('/', '.')
                           for f in files))))


if __name__ == '__main__':
    main()
