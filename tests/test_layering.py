"""The layering is a test: every import of every module points down (README, "Layout").

Rooms, lowest first: ``ledger.model`` (events, errors, units) ← ``engine`` (the rules) ←
``ledger.store`` (DuckDB, hash chain), ``ledger.formats`` (file formats) ← ``ledger.audit`` (the
books) ← ``replay`` (the application) ← ``cli`` (click). Every import is read, those inside
functions and under ``TYPE_CHECKING`` too, and each must stay in its own room or go to a room it
may use. Some libraries belong to one room: click, rich and matplotlib to the CLI, pokerkit to the
engine's evaluation seam and the format readers, DuckDB below the application's CLI, Dask (an
optional extra) to the application.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

#: room -> the project rooms its modules may import (its own included).
MAY_IMPORT: dict[str, frozenset[str]] = {
    "ledger.model": frozenset({"ledger.model"}),
    "engine": frozenset({"ledger.model", "engine"}),
    "ledger.store": frozenset({"ledger.model", "ledger.store"}),
    "ledger.formats": frozenset({"ledger.model", "ledger.formats", "engine.games"}),
    "ledger.audit": frozenset({"ledger.model", "ledger.store", "ledger.audit"}),
    "replay": frozenset({"ledger.model", "engine", "ledger.store", "ledger.formats",
                         "ledger.audit", "replay"}),
    "cli": frozenset({"ledger.model", "engine", "ledger.store", "ledger.formats",
                      "ledger.audit", "replay", "cli"}),
}
#: third-party library -> the module prefixes allowed to import it.
LIBRARIES: dict[str, tuple[str, ...]] = {
    "click": ("cli",),
    "rich": ("cli",),
    "matplotlib": ("cli",),
    "jinja2": ("cli",),
    "pokerkit": ("engine.evaluate", "engine.rank_tables", "ledger.formats"),
    "duckdb": ("ledger.store", "ledger.audit", "replay"),
    "cryptography": ("ledger.store",),  # Ed25519 keys and signatures (ledger/store/keys.py)
    "dask": ("replay",),
    "distributed": ("replay",),
}
PACKAGES = ("ledger", "engine", "replay", "cli")


def room_of(module: str) -> str | None:
    """The room of a dotted module name (the longest room that prefixes it)."""
    for room in sorted(MAY_IMPORT, key=len, reverse=True):
        if module == room or module.startswith(room + "."):
            return room
    return None


def imports_of(path: Path) -> list[tuple[int, str]]:
    """``(line, dotted module)`` of every absolute import in the file (a ``from X import y``
    counts as ``X.y`` when ``X.y`` is a module, else as ``X``; relative imports are refused by
    the project's style and reported as ``.``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                out.append((node.lineno, "."))
                continue
            base = node.module or ""
            out.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return out


def resolve(name: str, root: Path) -> str | None:
    """The project module an imported name lands in (``ledger.model.events.parse_event`` →
    ``ledger.model.events``), None when no such module exists."""
    parts = name.split(".")
    while parts and not ((root.joinpath(*parts).with_suffix(".py")).exists()
                         or (root.joinpath(*parts) / "__init__.py").exists()):
        parts.pop()
    return ".".join(parts) or None


def violations(root: Path) -> list[str]:
    """Every import under ``root``'s packages that points up or sideways, or uses a library
    outside its room: ``"path:line: module imports target (why)"``."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            room = room_of(module)
            where = f"{path.relative_to(root)}"
            for line, name in imports_of(path):
                top = name.split(".")[0]
                if name == ".":
                    found.append(f"{where}:{line}: a relative import")
                elif top in PACKAGES:
                    target = resolve(name, root)
                    allowed = MAY_IMPORT.get(room or "", frozenset())
                    if target is None or not any(
                            target == a or target.startswith(a + ".") for a in allowed):
                        found.append(f"{where}:{line}: {room} imports {name} "
                                     f"({room_of(target or '')})")
                elif top in LIBRARIES and not module.startswith(LIBRARIES[top]):
                    found.append(f"{where}:{line}: {module} imports {top}, which belongs to "
                                 f"{', '.join(LIBRARIES[top])}")
    return sorted(found)


def test_every_import_points_down() -> None:
    assert violations(ROOT) == []


def test_tests_and_bench_use_the_layers_not_the_cli() -> None:
    """Tests and benchmarks call the layers below the CLI; of the CLI they drive the click
    group (``cli.main``) and test its renderers, never a command module's insides."""
    found = []
    for folder in ("tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, name in imports_of(path):
                parts = name.split(".")
                if parts[0] == "cli" and len(parts) > 1 and parts[1].startswith("cmd_"):
                    found.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert found == []


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    """The check is not vacuous: an engine module that imports the application, a store
    module that imports the engine, a format reader that imports the store, and click outside
    the CLI are each reported, naming the file and line."""
    files = {
        "ledger/__init__.py": "", "ledger/model/__init__.py": "",
        "ledger/model/events.py": "import pydantic\n",
        "ledger/store/__init__.py": "", "ledger/store/db.py": "from engine.pots import x\n",
        "ledger/formats/__init__.py": "",
        "ledger/formats/f.py": "from engine.games import game\nfrom ledger.store import db\n",
        "engine/__init__.py": "", "engine/pots.py": "def f():\n    from replay.fold import y\n",
        "engine/games.py": "import click\n",
        "replay/__init__.py": "", "replay/fold.py": "from engine import pots\n",
        "cli/__init__.py": "", "cli/main.py": "from replay import fold\nimport click\n",
    }
    for name, body in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body)
    assert violations(tmp_path) == [
        "engine/games.py:1: engine.games imports click, which belongs to cli",
        "engine/pots.py:2: engine imports replay.fold.y (replay)",
        "ledger/formats/f.py:2: ledger.formats imports ledger.store.db (ledger.store)",
        "ledger/store/db.py:1: ledger.store imports engine.pots.x (engine)",
    ]
