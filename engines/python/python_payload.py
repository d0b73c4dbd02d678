# python_payload.py - the path hook that imports modules from tracebox's
# payload (common/util/payload.h), as zipimport does from a zip: sys.path
# entries under "<tracebox>/" are payload folders, searched where they sit
# in sys.path, so a module on disk earlier in the path wins.
# SPDX-License-Identifier: GPL-2.0-only
#
# python.c runs this between the core and the main phase of the
# interpreter's start (PEP 587), when only built-in and frozen modules
# exist: the main phase then finds the encodings package through it. The
# payload holds the library as compiled .pyc (gen-payload.py, the same
# CPython 3.11) and our Perf-Trace-Util modules as .py source.
import marshal
import sys
import _frozen_importlib as _bootstrap
import _tracebox

ROOT = '<tracebox>/'


class PayloadLoader:
    def __init__(self, path):
        self.path = path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(self.get_code(module.__name__), module.__dict__)

    def get_code(self, fullname):
        data = _tracebox.read(self.path)
        if data is None:
            raise ImportError('%s: not in the payload' % self.path, name=fullname)
        if not self.path.endswith('.pyc'):
            return compile(data, self.path, 'exec', dont_inherit=True)
        from _frozen_importlib_external import MAGIC_NUMBER
        if data[:4] != MAGIC_NUMBER:
            raise ImportError('%s: compiled for another Python' % self.path, name=fullname)
        return marshal.loads(memoryview(data)[16:])

    def get_source(self, fullname):
        if self.path.endswith('.pyc'):
            return None
        data = _tracebox.read(self.path)
        return None if data is None else data.decode('utf-8')

    def get_filename(self, fullname):
        return self.path

    def is_package(self, fullname):
        return self.path.rpartition('/')[2].startswith('__init__.')


class PayloadFinder:
    def __init__(self, path):
        if not path.startswith(ROOT):
            raise ImportError('not a payload folder')
        self.path = path.rstrip('/')

    def find_spec(self, fullname, target=None):
        base = self.path + '/' + fullname.rpartition('.')[2]
        for stem, package in ((base + '/__init__', True), (base, False)):
            for ext in ('.py', '.pyc'):
                if _tracebox.has(stem + ext):
                    loader = PayloadLoader(stem + ext)
                    spec = _bootstrap.ModuleSpec(fullname, loader, origin=stem + ext,
                                                 is_package=package)
                    if package:
                        spec.submodule_search_locations = [base]
                    spec.has_location = True
                    return spec
        return None

    def invalidate_caches(self):
        pass


sys.path_hooks.insert(0, PayloadFinder)
