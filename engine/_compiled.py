"""Which engine runs: the modules mypyc compiled at install time, or their Python sources.

``setup.py`` compiles the engine's modules with mypyc when the machine has a C compiler (else
the install is pure Python) and writes :data:`MANIFEST` beside them: the SHA-256 of each
source it compiled. :func:`choose`, called once as :mod:`engine` is imported, runs the
compiled modules only if every one of those sources is unchanged; an edited source (a rebuild
forgotten) makes the whole engine run from its sources, with one ``warning:`` line on stderr,
never a compiled module that differs from its ``.py``. ``HANDLEDGER_PURE=1`` runs the sources
without a warning. Both run the same rules: the compiled modules are these sources.

The choice is passed on to child processes (``HANDLEDGER_PURE`` set in the environment), so
that the import workers (forkserver) run the engine their parent runs.

This module and ``engine/__init__.py`` are never compiled: they choose before any compiled
module is loaded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

#: Written by setup.py beside the compiled modules: ``{"library": LIBRARY, "sources":
#: {"betting.py": sha256, ...}}`` (paths relative to the ``engine`` folder).
MANIFEST = "_compiled.json"
#: The compiled modules' shared library (mypyc's group), in the ``engine`` folder.
LIBRARY = "_native__mypyc"
#: Set (to anything but ``""`` or ``0``): run the engine from its Python sources.
PURE_ENV = "HANDLEDGER_PURE"


def source_hash(path: Path) -> str:
    """SHA-256 (hex) of the file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_sources(folder: Path, sources: Mapping[str, str]) -> list[str]:
    """The sources of ``sources`` (path relative to ``folder`` -> SHA-256 when compiled) that
    are missing or differ now, sorted."""
    stale = []
    for name, digest in sources.items():
        path = folder / name
        if not path.is_file() or source_hash(path) != digest:
            stale.append(name)
    return sorted(stale)


def _compiled_file(folder: Path, name: str) -> bool:
    stem = folder / name.removesuffix(".py")
    return any(stem.with_name(stem.name + s).is_file()
               for s in importlib.machinery.EXTENSION_SUFFIXES)


def decide(folder: Path, environ: Mapping[str, str]) -> tuple[bool, str | None]:
    """``(compiled, warning)``: whether the compiled modules in ``folder`` may run, and the
    line to warn with when they exist but may not (a source changed since they were built)."""
    if environ.get(PURE_ENV, "") not in ("", "0"):
        return False, None
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        sources = manifest["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, None  # not built (pure install) or an unreadable manifest: the sources
    stale = stale_sources(folder, sources)
    if stale:
        return False, (f"warning: engine/{stale[0]}"
                       + (f" and {len(stale) - 1} more" if len(stale) > 1 else "")
                       + " changed since the engine was compiled: running the Python sources"
                       " (rebuild: pip install -e .)")
    return all(_compiled_file(folder, name) for name in [*sources, f"{LIBRARY}.py"]), None


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``engine``'s submodules as their ``.py`` sources, ahead of a compiled module,
    but those of ``compiled`` (full names), left to Python's own finder: a compiled file left
    by an earlier build of a module now interpreted is never loaded."""

    def __init__(self, package: str, compiled: frozenset[str] = frozenset()) -> None:
        self.prefix = package + "."
        self.compiled = compiled

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.prefix) or fullname in self.compiled:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path or ():
            folder = Path(entry) / leaf
            if (folder / "__init__.py").is_file():
                return importlib.util.spec_from_file_location(
                    fullname, folder / "__init__.py", submodule_search_locations=[str(folder)])
            if folder.with_suffix(".py").is_file():
                return importlib.util.spec_from_file_location(fullname, folder.with_suffix(".py"))
        return None


def _compiled_names(package: str, folder: Path) -> frozenset[str]:
    sources = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["sources"]
    return frozenset(f"{package}.{name.removesuffix('.py').replace('/', '.')}"
                     for name in sources)


def choose(package: str, folder: Path) -> bool:
    """Called by ``engine/__init__.py``: True when the compiled modules will be imported (the
    modules the build compiled; any other loads its ``.py``); otherwise makes every later
    import of a submodule load its ``.py`` (prints the warning of :func:`decide`, if any,
    once, and sets ``HANDLEDGER_PURE`` for child processes)."""
    compiled, warning = decide(folder, os.environ)
    if warning:
        print(warning, file=sys.stderr)
        os.environ[PURE_ENV] = "1"  # the workers run the sources too, without a second line
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        names = _compiled_names(package, folder) if compiled else frozenset()
        sys.meta_path.insert(0, _SourceFinder(package, names))
    return compiled


def by_fields(obj: Any) -> tuple[Any, ...]:
    """``__reduce__`` of the engine's dataclasses: made again by calling the class with the
    fields its ``__init__`` takes, in order. Compiled, a frozen one would otherwise be
    unpickled by setting each attribute, which its frozen ``__setattr__`` refuses
    (FrozenInstanceError), and one with a written ``__init__`` (compiled) is made by that
    ``__init__`` on unpickling too, so it must receive its fields; results and states cross
    processes pickled."""
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init)
