"""``run`` is a report: it exits 0 even when hands were paid differently from the rules (the
README's first command runs it on data holding a dispute), where ``replay`` exits 1; its
``--help`` and the README's command line say so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA, ROOT
from tests.test_live_table import one_shot


def test_run_reports_a_dispute_with_exit_0_where_replay_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    code, out, _ = one_shot(db, "run", str(DATA / "dispute"))
    assert code == 0
    assert "1 hand(s) replayed: 1 paid differently from the rules" in out
    code, out, _ = one_shot(db, "replay")
    assert code == 1 and "1 paid differently from the rules" in out


def test_run_help_and_the_readme_say_it() -> None:
    code, out, _ = one_shot(Path("unused.duckdb"), "run", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert ("Exit 0: a report, even of hands paid differently from the rules (`replay` exits 1 "
            "on a difference, `audit` on a discrepancy)") in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(readme) if line.startswith("run [DIR] [--all]"))
    assert readme[at + 1].strip() == "(exit 0: a report; replay exits 1 on a difference)"
