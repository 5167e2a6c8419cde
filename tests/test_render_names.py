"""Player names are printed as written, never read as rich markup: a name like ``[/x]`` made
``replay`` and ``show`` fail with a traceback, and a lowercase name (``ann``, a PokerNow id)
made ``show`` drop the whole stacks column (found by a fresh-eyes test)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA


def _hand(tmp_path: Path, first: str) -> Path:
    text = (DATA / "hands" / "straddle-allin.phh").read_text(encoding="utf-8")
    assert "players = ['Nia'" in text
    path = tmp_path / "names.phh"
    path.write_text(text.replace("players = ['Nia', 'Oto'", f"players = ['{first}', 'oto'"),
                    encoding="utf-8")
    return path


def test_markup_like_and_lowercase_names_print_as_written(run, tmp_path: Path) -> None:  # noqa: ANN001
    assert run("import", str(_hand(tmp_path, "[/x]"))).exit_code == 0
    replay = run("replay")
    assert replay.exit_code == 0 and "Traceback" not in replay.output
    assert "│ [/x]   │   200 │      1 │" in replay.output and "│ oto    │" in replay.output
    hand = run("sql", "--csv", "SELECT hand_id FROM hands").output.splitlines()[-1]
    show = run("show", hand)
    assert show.exit_code == 0
    assert "pot 1 [[/x]:199 oto:200 Max:300 Kim:30 Lou:250] forced" in show.output
    balances = run("balances")
    assert balances.exit_code == 0 and "[/x]" in balances.output
