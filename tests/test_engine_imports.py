"""The engine's own modules import one another without a cycle and use no private names.

Every import statement counts, those inside functions and ``if TYPE_CHECKING:`` blocks too: a
cycle hidden there is still one for a reader and a type checker. The rule modules (betting,
dealing, declaring) report what happened and ``engine.flow`` alone changes the phase, so none
of them may import ``engine.flow`` or ``engine.state``.
"""

from __future__ import annotations

from graphlib import CycleError, TopologicalSorter

import pytest

from tests.conftest import ROOT
from tests.test_layering import imports_of, resolve

RULE_MODULES = (
    "engine.betting",
    "engine.cards",
    "engine.dealing",
    "engine.declare.order",
    "engine.hand",
    "engine.rounds",
)


def _engine_imports(module: str) -> tuple[set[str], list[str]]:
    """(engine modules ``module`` imports, private names it takes from another module)."""
    path = ROOT.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    modules: set[str] = set()
    private: list[str] = []
    for _, name in imports_of(path):
        target = resolve(name, ROOT)
        if target is None or target.split(".")[0] != "engine":
            continue
        modules.add(target)
        if target != name and name.rsplit(".", 1)[1].startswith("_"):
            private.append(name)
    return modules, private


def _engine_modules() -> list[str]:
    paths = sorted((ROOT / "engine").rglob("*.py"))
    return [".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            for p in paths]


GRAPH = {module: _engine_imports(module) for module in _engine_modules()}


def test_engine_modules_import_one_another_without_a_cycle() -> None:
    graph = {m: mods - {m} for m, (mods, _) in GRAPH.items()}
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        pytest.fail(f"import cycle in the engine: {' -> '.join(exc.args[1])}")


@pytest.mark.parametrize("module", RULE_MODULES)
def test_rule_modules_never_import_the_phase_owner(module: str) -> None:
    mods, _ = GRAPH[module]
    assert mods.isdisjoint({"engine.flow", "engine.state"}), sorted(mods)


def test_no_private_name_is_imported_across_engine_modules() -> None:
    assert [(m, names) for m, (_, names) in GRAPH.items() if names] == []
