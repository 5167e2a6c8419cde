"""The compiled engine (setup.py, engine/_compiled.py): the same results as its sources, and
never a compiled module run in place of a source edited since it was built."""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import engine
from engine._compiled import LIBRARY, MANIFEST, _SourceFinder, decide, stale_sources
from ledger.model import events as ev

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def replayed_digest(hands: int = 12) -> str:
    """SHA-256 of every result (or refusal) of seeded random hands of every variant, declare
    games included, each replayed whole and with one action dropped: what the engine
    decides, in the order it decides it."""
    from engine.errors import IllegalAction
    from engine.games import PHH_CODES
    from replay.demo.randomhand import random_hand
    from replay.fold import replay_events

    lines = []
    variants = [(code, None) for code in sorted(PHH_CODES)]
    variants += [(code, ev.DeclareOptions()) for code in ("FO/8", "F7S/8")]
    for code, declare in variants:
        rng = random.Random(f"compiled:{code}:{declare is not None}")
        for i in range(hands):
            hand = random_hand(rng, code, hand_id=f"{code}-{i}", declare=declare, ante_mix=True)
            lines.append(repr(replay_events(hand.events)))
            cut = rng.randrange(1, len(hand.events))
            try:
                lines.append(repr(replay_events(hand.events[:cut] + hand.events[cut + 1:])))
            except IllegalAction as exc:
                lines.append(f"refused: {exc}")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def test_the_sources_decide_as_the_engine_imported_here() -> None:
    pure = subprocess.run(
        [sys.executable, "-c", "import engine, tests.test_engine_compiled as t;"
         " print(engine.COMPILED, t.replayed_digest())"],
        cwd=ROOT, env={**os.environ, "HANDLEDGER_PURE": "1", "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, check=True)
    assert pure.stderr == ""
    assert pure.stdout.split() == ["False", replayed_digest()]


def test_states_and_results_cross_processes_pickled() -> None:
    """A hand's state and its replay pickle and come back equal (the import and replay
    workers send them; a compiled frozen dataclass comes back through its __reduce__)."""
    import pickle

    from replay.demo.randomhand import random_hand
    from replay.fold import replay_events

    rng = random.Random("pickled")
    for code, declare in [("NT", None), ("F7S/8", None), ("FO/8", ev.DeclareOptions()),
                          ("FR", None)]:
        hand = random_hand(rng, code, declare=declare)
        for thing in (hand.state, replay_events(hand.events)):
            back = pickle.loads(pickle.dumps(thing))
            assert back == thing and back is not thing


def test_the_engine_runs_what_its_manifest_allows() -> None:
    """Compiled modules loaded exactly when the build's manifest holds for these sources."""
    folder = Path(engine.__file__).parent
    assert engine.COMPILED == decide(folder, os.environ)[0]
    for name in ("engine.betting", "engine.declare.judge"):
        module = importlib.import_module(name)
        assert module.__file__.endswith(SUFFIX if engine.COMPILED else ".py")


def _built(folder: Path, sources: dict[str, str]) -> None:
    """A fake build in ``folder``: the sources, an empty 'compiled' file each, the manifest."""
    for name, text in sources.items():
        (folder / name).write_text(text)
        (folder / name.replace(".py", SUFFIX)).write_bytes(b"")
    (folder / f"{LIBRARY}{SUFFIX}").write_bytes(b"")
    digests = {n: hashlib.sha256(t.encode()).hexdigest() for n, t in sources.items()}
    (folder / MANIFEST).write_text(json.dumps({"sources": digests}))


def test_an_edited_source_is_stale_and_runs_from_source(tmp_path: Path) -> None:
    _built(tmp_path, {"betting.py": "X = 1\n", "pots.py": "Y = 2\n"})
    assert stale_sources(tmp_path, json.loads((tmp_path / MANIFEST).read_text())["sources"]) == []
    assert decide(tmp_path, {}) == (True, None)
    assert decide(tmp_path, {"HANDLEDGER_PURE": "1"}) == (False, None)
    assert decide(tmp_path, {"HANDLEDGER_PURE": "0"}) == (True, None)

    (tmp_path / "pots.py").write_text("Y = 3\n")  # edited, not rebuilt
    assert decide(tmp_path, {}) == (False, "warning: engine/pots.py changed since the engine was"
                                    " compiled: running the Python sources (rebuild: pip"
                                    " install -e .)")
    (tmp_path / "betting.py").unlink()
    assert stale_sources(tmp_path, json.loads((tmp_path / MANIFEST).read_text())["sources"]) \
        == ["betting.py", "pots.py"]
    assert decide(tmp_path, {})[1].startswith("warning: engine/betting.py and 1 more changed")


def test_no_manifest_or_no_compiled_file_runs_the_sources(tmp_path: Path) -> None:
    _built(tmp_path, {"betting.py": "X = 1\n"})
    (tmp_path / f"{LIBRARY}{SUFFIX}").unlink()
    assert decide(tmp_path, {}) == (False, None)
    (tmp_path / f"{LIBRARY}{SUFFIX}").write_bytes(b"")
    (tmp_path / f"betting{SUFFIX}").unlink()
    assert decide(tmp_path, {}) == (False, None)
    (tmp_path / MANIFEST).unlink()
    assert decide(tmp_path, {}) == (False, None)


def test_the_source_finder_loads_the_py_beside_a_compiled_module(tmp_path: Path) -> None:
    package = tmp_path / "eng"
    (package / "sub").mkdir(parents=True)
    _built(package, {"betting.py": "X = 1\n"})
    (package / "sub" / "__init__.py").write_text("")
    finder = _SourceFinder("eng")
    assert finder.find_spec("eng.betting", [str(package)]).origin == str(package / "betting.py")
    sub = finder.find_spec("eng.sub", [str(package)])
    assert (sub.origin, sub.submodule_search_locations) == (
        str(package / "sub" / "__init__.py"), [str(package / "sub")])
    assert finder.find_spec("ledger.store", [str(package)]) is None
    assert finder.find_spec("eng.missing", [str(package)]) is None
    compiled = _SourceFinder("eng", frozenset({"eng.betting"}))  # the others: their .py
    assert compiled.find_spec("eng.betting", [str(package)]) is None
    assert compiled.find_spec("eng.sub", [str(package)]).origin == sub.origin


def test_a_stale_build_warns_once_and_its_workers_run_the_sources(tmp_path: Path) -> None:
    """A copy of the engine whose manifest no longer matches betting.py: one warning line,
    the sources imported, HANDLEDGER_PURE passed to a child process (as to the import
    workers), which says nothing."""
    copy = tmp_path / "engine"
    subprocess.run(["cp", "-r", str(ROOT / "engine"), str(copy)], check=True)
    digests = {p.relative_to(copy).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
               for p in copy.rglob("*.py")}
    digests["betting.py"] = "0" * 64
    (copy / MANIFEST).write_text(json.dumps({"sources": digests}))
    env = {k: v for k, v in os.environ.items() if k != "HANDLEDGER_PURE"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    code = ("import os, subprocess, sys, engine, engine.betting as b; print(engine.COMPILED,"
            " b.__file__.endswith('.py'), os.environ['HANDLEDGER_PURE']); sys.stdout.flush();"
            " subprocess.run([sys.executable, '-c', 'import engine; print(engine.COMPILED)'])")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True", "1", "False"]
    assert done.stderr == ("warning: engine/betting.py changed since the engine was compiled:"
                           " running the Python sources (rebuild: pip install -e .)\n")
