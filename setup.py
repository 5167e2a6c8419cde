"""Build: the engine's modules compiled by mypyc where a C compiler is at hand, else pure
Python (engine/_compiled.py chooses at import). ``HANDLEDGER_PURE=1`` builds pure Python.

The rest of the build is pyproject.toml's. A compiled build writes ``engine/_compiled.json``
beside the compiled modules (``--inplace``, as ``pip install -e .`` builds, or in the wheel):
the SHA-256 of each source compiled, which the engine compares with its sources at import.
"""

from __future__ import annotations

import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _choice_module():  # engine/_compiled.py alone: importing engine would make its choice
    import importlib.util

    path = Path(__file__).resolve().parent / "engine" / "_compiled.py"
    spec = importlib.util.spec_from_file_location("_handledger_compiled", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_choice = _choice_module()
MANIFEST, PURE_ENV, source_hash = _choice.MANIFEST, _choice.PURE_ENV, _choice.source_hash
LIBRARY = _choice.LIBRARY

# Left interpreted: the package's __init__ and _compiled (they choose before a compiled module
# is loaded), declare's __init__ (mypyc sets a compiled package's __path__ from where its
# shared library is, a folder too deep once the library is in engine/), and notation (PHH text
# of a live action: not on the replay path, and typed loosely over the event union, which
# mypyc would check at every access), and errors (IllegalAction: a compiled exception is
# pickled without its attributes, and a refusal crosses processes with its amounts), and
# rank_tables (the generator of the evaluator's snapshot of pokerkit's rankings, run as
# ``python -m engine.rank_tables``: never imported by the engine).
INTERPRETED = {"__init__.py", "_compiled.py", "notation.py", "declare/__init__.py", "errors.py",
               "rank_tables.py"}
ENGINE = Path("engine")


def _sources() -> list[str]:
    return sorted(p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py")
                  if p.relative_to(ENGINE).as_posix() not in INTERPRETED)


def _say(line: str) -> None:
    print(f"handledger build: {line}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that leaves a pure-Python install when the compiled engine cannot be built
    (no C compiler, no Python headers), and writes the manifest when it was."""

    hashes: dict[str, str] = {}

    def run(self) -> None:
        if not self.extensions:
            return
        # where they go (in place: the source tree, as pip install -e builds), asked before
        # setuptools' run, which builds with inplace off and copies them over afterwards
        built = [Path(self.get_ext_fullpath(ext.name)) for ext in self.extensions]
        manifest = Path(self.get_ext_fullpath("engine.betting")).parent / MANIFEST
        manifest.unlink(missing_ok=True)
        if self.inplace:  # a module compiled before and interpreted now: its file goes
            keep = {p.resolve() for p in built}
            for suffix in EXTENSION_SUFFIXES:
                for old in ENGINE.rglob(f"*{suffix}"):
                    if old.resolve() not in keep:
                        old.unlink()
        try:
            super().run()
        except Exception as exc:  # CCompilerError, DistutilsError, OSError, ...
            _say(f"the engine is not compiled ({type(exc).__name__}: {exc}); pure Python")
            for path in built:  # no compiled module left from an earlier build
                path.unlink(missing_ok=True)
            return
        manifest.write_text(json.dumps({"library": LIBRARY, "sources": self.hashes}, indent=1)
                            + "\n",
                            encoding="utf-8")


#: The commands that build: the others (egg_info, dist_info: pip reading the metadata) need
#: no extension, and mypyc takes half a minute.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def _extensions() -> list:
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        _say(f"{PURE_ENV} is set: the engine is not compiled")
        return []
    sources = _sources()
    # hashed before mypyc reads them: a source edited while this builds is stale at import
    OptionalBuildExt.hashes = {name: source_hash(ENGINE / name) for name in sources}
    try:
        from mypyc.build import mypycify

        # the modules' shared library inside the package (engine/_native__mypyc...so), not
        # a top-level module another install's could stand in for
        return mypycify([str(ENGINE / name) for name in sources], opt_level="3",
                        group_name=f"engine.{LIBRARY.removesuffix('__mypyc')}")
    except (Exception, SystemExit) as exc:  # a type error mypyc refuses, no mypyc at all
        _say(f"mypyc did not compile the engine ({exc!r}); pure Python")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
