#!/usr/bin/python3.11
# gen-payload.py - the archive of files tracebox carries inside itself
# (common/util/payload.h has the layout), and the C file that links it in.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: gen-payload.py OUT.bin OUT.c [--store] PART...
#   scripts=DIR    every file of the canned-script tree DIR (as scripts/...)
#   records=DIR    only DIR/*/bin/*: the canned scripts' descriptors (make tiny)
#   python=DIR...  the Python library modules that DIR's scripts (and perf's own,
#                  /usr/lib/perf-core/scripts/python, when there) import, and what
#                  the interpreter's start-up loads, compiled (lib/python3.11/...)
#   perl=DIR...    the pure-Perl modules that DIR's scripts (and perf's) load
#                  (lib/perl5/...)
#   file=SRC:NAME  one file, as NAME
#   --store        no compression (a build without zlib reads it)
# Runs under the same CPython as the static libpython (3.11, Debian's), so
# the compiled modules' bytecode is the engine's. Output is reproducible.
import ast
import glob
import importlib._bootstrap_external as bx
import os
import struct
import subprocess
import sys
import zlib

PYLIB = '/usr/lib/python3.11'
PY_A = PYLIB + '/config-3.11-x86_64-linux-gnu/libpython3.11.a'
PERF_SCRIPTS = '/usr/lib/perf-core/scripts'
OURS_BUILTIN = {'perf_trace_context', '_tracebox'}


def tree(top, prefix, only_bin=False):
    out = {}
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != '__pycache__')
        if only_bin and os.path.basename(d) != 'bin':
            continue
        for f in sorted(files):
            p = os.path.join(d, f)
            with open(p, 'rb') as fh:
                out[prefix + '/' + os.path.relpath(p, top)] = fh.read()
    return out


def py_imports(path):
    with open(path, encoding='utf-8') as f:
        t = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(t):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(node.module + '.' + a.name for a in node.names if a.name != '*')
    return names


# Imported in a fresh interpreter that, like the static build, loads no
# extension module but those built into the static libpython (argv[3]).
PY_PROBE = r'''
import sys, importlib.machinery as m
class NoExt:
    def find_spec(self, name, path=None, target=None):
        spec = m.PathFinder.find_spec(name, path)
        if spec and isinstance(spec.loader, m.ExtensionFileLoader) and name not in sys.argv[3].split():
            raise ImportError('extension module ' + name)
        return None
sys.meta_path.insert(2, NoExt())
for name in sys.argv[1].split():
    try:
        __import__(name)
    except Exception:
        pass
for mod in list(sys.modules.values()):
    spec = getattr(mod, '__spec__', None)
    if spec and spec.origin and spec.origin.startswith(sys.argv[2] + '/') and spec.origin.endswith('.py'):
        print(spec.origin)
'''


def python_part(dirs):
    seeds = {'traceback', 'encodings', 'encodings.utf_8', 'encodings.aliases',
             'encodings.latin_1', 'encodings.ascii', 'linecache'}
    ours = set(OURS_BUILTIN)
    tops = list(dirs) + ([PERF_SCRIPTS + '/python'] if os.path.isdir(PERF_SCRIPTS + '/python') else [])
    for top in tops:
        for d, _, files in os.walk(top):
            for f in (f for f in files if f.endswith('.py')):
                ours.add(f[:-3])
                seeds |= py_imports(os.path.join(d, f))
    seeds = {s for s in seeds if s.split('.')[0] not in ours}
    nm = subprocess.run(['nm', PY_A], capture_output=True, text=True).stdout
    static = ' '.join(l.split('PyInit_')[1] for l in nm.splitlines() if ' T PyInit_' in l)
    out = subprocess.run([sys.executable, '-I', '-S', '-c', PY_PROBE, ' '.join(sorted(seeds)), PYLIB, static],
                         check=True, capture_output=True, text=True).stdout
    files = sorted(set(out.split()))
    if not any(f.endswith('/encodings/__init__.py') for f in files):
        sys.exit('gen-payload.py: the probe did not see the start-up modules (encodings)')
    res = {}
    for src in files:
        rel = os.path.relpath(src, PYLIB)
        with open(src, 'rb') as f:
            code = compile(f.read(), '<tracebox>/lib/python3.11/' + rel, 'exec', dont_inherit=True)
        res['lib/python3.11/' + rel[:-3] + '.pyc'] = bytes(bx._code_to_timestamp_pyc(code, 0, 0))
    return res


# Compiles each script (its use/require lines run, its body does not) and
# lists what %INC then holds: the modules, minus XS ones (the static
# libperl has no dynamic loading) and the scripts' own.
PL_PROBE = r'''
for my $f (@ARGV) {
    open my $h, '<', $f or die "$f: $!";
    my $src = do { local $/; <$h> };
    $src =~ s/^__END__.*//ms;
    eval "package main; sub { $src\n }";
}
require "$_.pm" for qw(strict warnings Exporter Exporter/Heavy XSLoader Carp Carp/Heavy lib Config
                  overloading overload vars constant integer bytes warnings/register);
for my $k (sort keys %INC) {
    my $xs = $k; $xs =~ s/\.pm$//;
    my $base = (split m{/}, $xs)[-1];
    next if grep { -e "$_/auto/$xs/$base.so" } @INC;
    print "$k\t$INC{$k}\n" if $INC{$k} =~ m{^/usr/(share|lib)/};
}
'''


def perl_part(dirs):
    scripts = []
    for top in list(dirs) + ([PERF_SCRIPTS + '/perl'] if os.path.isdir(PERF_SCRIPTS + '/perl') else []):
        scripts += sorted(glob.glob(top + '/*.pl'))
    libs = [d + '/Perf-Trace-Util/lib' for d in dirs]
    env = dict(os.environ, PERF_EXEC_PATH=os.path.dirname(os.path.abspath(dirs[0])))
    # Perf::Trace::Context dies outside the engine: a stand-in bootstrap
    out = subprocess.run(['perl'] + ['-I' + l for l in libs] +
                         ['-e', 'sub Perf::Trace::Context::bootstrap {}' + PL_PROBE] + scripts,
                         check=True, capture_output=True, text=True, env=env).stdout
    res = {}
    for line in out.splitlines():
        rel, path = line.split('\t')
        if any(path.startswith(os.path.abspath(l) + '/') for l in libs):
            continue
        with open(path, 'rb') as f:
            res['lib/perl5/' + rel] = f.read()
    if 'lib/perl5/strict.pm' not in res:
        sys.exit('gen-payload.py: the Perl probe did not see strict.pm')
    return res


def write(files, out_bin, out_c, store):
    names = sorted(files, key=lambda n: n.encode())
    head = b'TBPAYLD1' + struct.pack('<II', len(names), 0)
    index, blob = [], bytearray()
    base = len(head) + 24 * len(names)
    for n in names:
        nb = n.encode()
        index.append([base + len(blob), len(nb)])
        blob += nb
    for i, n in enumerate(names):
        data = files[n]
        packed = data if store else zlib.compress(data, 9)
        method = 0
        if not store and len(packed) < len(data):
            method = 1
        else:
            packed = data
        while len(blob) % 4:
            blob += b'\0'
        index[i] += [base + len(blob), len(data), len(packed), method]
        blob += packed
    body = head + b''.join(struct.pack('<6I', *e) for e in index) + blob
    with open(out_bin + '.tmp', 'wb') as f:
        f.write(body)
    os.replace(out_bin + '.tmp', out_bin)
    with open(out_c + '.tmp', 'w') as f:
        f.write('/* payload.c - generated by scripts/tools/gen-payload.py: do not edit.\n'
                ' * The archive as read-only data (common/util/payload.h), %d files. */\n'
                '__asm__(".section .rodata.tb_payload,\\"a\\"\\n"\n'
                '\t".balign 16\\n"\n'
                '\t".globl tb_payload_start\\n"\n'
                '\t"tb_payload_start:\\n"\n'
                '\t".incbin \\"%s\\"\\n"\n'
                '\t".globl tb_payload_end\\n"\n'
                '\t"tb_payload_end:\\n"\n'
                '\t".previous\\n");\n' % (len(names), os.path.abspath(out_bin)))
    os.replace(out_c + '.tmp', out_c)
    return len(body)


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit('usage: gen-payload.py OUT.bin OUT.c [--store] PART...')
    out_bin, out_c, parts = args[0], args[1], args[2:]
    store = '--store' in parts
    files, what = {}, []
    for p in (p for p in parts if p != '--store'):
        kind, _, val = p.partition('=')
        before = len(files)
        if kind == 'scripts':
            files.update(tree(val, 'scripts'))
        elif kind == 'records':
            files.update(tree(val, 'scripts', only_bin=True))
        elif kind == 'python':
            files.update(python_part(val.split(',')))
        elif kind == 'perl':
            files.update(perl_part(val.split(',')))
        elif kind == 'file':
            src, _, name = val.partition(':')
            with open(src, 'rb') as f:
                files[name] = f.read()
        else:
            sys.exit('gen-payload.py: unknown part ' + p)
        what.append('%s %d' % (kind, len(files) - before))
    size = write(files, out_bin, out_c, store)
    print('  PAYLOAD %s: %d files (%s), %d KiB%s' % (out_bin, len(files), ', '.join(what),
                                                   size // 1024, ' stored' if store else ''))


if __name__ == '__main__':
    main()
