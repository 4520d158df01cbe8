"""The command line's start-up cache: the compiled code of the engine's modules a command imports, in one file.

Python finds, checks and reads each module's bytecode file apart, and unmarshals each module's names and
strings again: for a command that imports some ninety of the engine's modules that is about 8% of a
one-node ``allocate`` (docs/performance.md). ``python -m allocator`` serves them from one file instead,
``__pycache__/startup.<cache tag>.bundle`` in the package: the code objects of the modules earlier commands
imported, marshalled together (a name shared by modules is stored once), each with the mtime and size of
its source. A module whose source has changed since, or that the file does not hold, is imported the usual
way, and the file is written again when the command ends: atomically, only where Python may write bytecode
(not with ``-B`` or ``PYTHONDONTWRITEBYTECODE``) and the folder is writable; ``-O`` neither uses nor
writes it. A file that cannot be read, or
that another Python wrote, is ignored. The modules are the same: the same code as their sources compile to,
and Python's ``SourceFileLoader`` as their loader (tracebacks, ``get_source``).
"""

from __future__ import annotations

import _imp
import marshal
import os
import sys
from importlib.machinery import ModuleSpec, SourceFileLoader
from importlib.util import MAGIC_NUMBER

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_TOP = os.path.dirname(_PACKAGE)
CACHE = os.path.join(_PACKAGE, "__pycache__", f"startup.{sys.implementation.cache_tag}.bundle")

# module name -> (source path under _TOP, is a package, source mtime_ns, source size, code)
_Entry = tuple


class _Loader(SourceFileLoader):
    """Python's loader of the module's source file, given the module's code."""

    def __init__(self, fullname: str, path: str, code: object) -> None:
        super().__init__(fullname, path)
        self._code = code

    def get_code(self, fullname: str):  # type: ignore[no-untyped-def]
        if fullname == self.name and self._code is not None:
            _imp._fix_co_filename(self._code, self.path)  # (as for a .pyc: the source where it is now)
            return self._code
        return super().get_code(fullname)


class _Finder:
    """Finds the engine's modules the cache holds, while their sources are as they were."""

    def __init__(self, entries: dict[str, _Entry]) -> None:
        self.entries = entries
        self.served: set[str] = set()
        self.before: set[str] = set()

    def find_spec(self, name: str, path=None, target=None) -> ModuleSpec | None:  # type: ignore[no-untyped-def]
        entry = self.entries.get(name)
        if entry is None or not _fresh(entry):
            return None
        full = os.path.join(_TOP, entry[0])
        spec = ModuleSpec(name, _Loader(name, full, entry[4]), origin=full, is_package=entry[1])
        if entry[1]:
            spec.submodule_search_locations = [os.path.dirname(full)]
        spec.has_location = True
        self.served.add(name)
        return spec


_finder: _Finder | None = None


def use() -> None:
    """Serve the engine's modules from the cache, if there is one this Python wrote. (Not under ``-O``: the
    cache holds the code of a plain run, with its asserts, as a plain ``.pyc`` does.)"""
    global _finder
    if sys.flags.optimize:
        return
    entries: dict[str, _Entry] = {}
    try:
        with open(CACHE, "rb") as handle:
            magic, found = marshal.loads(handle.read())  # (marshal.load would read the file object by object)
        if magic == MAGIC_NUMBER and isinstance(found, dict):
            entries = found
    except (OSError, EOFError, ValueError, TypeError):
        pass  # none yet, or none this Python can read
    _finder = _Finder(entries)
    _finder.before = set(sys.modules)  # (loaded already: this module, its package)
    sys.meta_path.insert(0, _finder)


def save() -> None:
    """At a command's end: write the cache again if this command imported an engine module it did not serve.
    It then holds every module it served and this command's others (a module of another command's stays
    while its source is unchanged)."""
    if _finder is None or sys.dont_write_bytecode:
        return
    loaded = {name: module for name, module in list(sys.modules.items())
              if name not in _finder.before and _engine_module(name, module)}
    if set(loaded) <= _finder.served:
        return
    folder = os.path.dirname(CACHE)
    if not os.access(folder if os.path.isdir(folder) else _PACKAGE, os.W_OK):
        return  # an installation this user cannot write: the modules are imported the usual way
    entries = {name: entry for name, entry in _finder.entries.items() if name in _finder.served or _fresh(entry)}
    for name, module in loaded.items():
        if name not in entries:
            entry = _entry(name, module)
            if entry is not None:
                entries[name] = entry
    try:
        os.makedirs(os.path.dirname(CACHE), exist_ok=True)
        partial = f"{CACHE}.{os.getpid()}"
        with open(partial, "wb") as handle:
            handle.write(marshal.dumps((MAGIC_NUMBER, entries)))
        os.replace(partial, CACHE)  # atomic: a command starting meanwhile reads the old file or the new one
    except OSError:
        pass  # a folder this user cannot write: the modules are imported the usual way


def _fresh(entry: _Entry) -> bool:
    try:
        found = os.stat(os.path.join(_TOP, entry[0]))
    except OSError:
        return False
    return found.st_mtime_ns == entry[2] and found.st_size == entry[3]


def _engine_module(name: str, module: object) -> bool:
    if not (name == "allocator" or name.startswith("allocator.")) or name.startswith("allocator.tests"):
        return False
    origin = getattr(getattr(module, "__spec__", None), "origin", None)
    return isinstance(origin, str) and origin.endswith(".py") and origin.startswith(_PACKAGE + os.sep)


def _entry(name: str, module: object) -> _Entry | None:
    """The module's code (from its ``.pyc`` where that is of the source as it is, else compiled as an import
    compiles it), with the source's mtime and size."""
    path = module.__spec__.origin  # type: ignore[attr-defined]
    loader = SourceFileLoader(name, path)
    try:
        found = os.stat(path)
        code = _cached_code(path, found) or loader.source_to_code(loader.get_data(path), path)
        if os.stat(path).st_mtime_ns != found.st_mtime_ns:
            return None  # changed meanwhile
    except (OSError, SyntaxError, ValueError):
        return None
    is_package = os.path.basename(path) == "__init__.py"
    return os.path.relpath(path, _TOP), is_package, found.st_mtime_ns, found.st_size, code


def _cached_code(path: str, found: os.stat_result) -> object | None:
    """The code in the source's ``.pyc``, if it is a timestamp ``.pyc`` of the source as it is."""
    from importlib.util import cache_from_source

    try:
        with open(cache_from_source(path), "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    flags = int.from_bytes(data[4:8], "little")
    if (data[:4] != MAGIC_NUMBER or flags != 0 or int.from_bytes(data[8:12], "little") != int(found.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(data[12:16], "little") != found.st_size & 0xFFFFFFFF):
        return None
    return marshal.loads(data[16:])
