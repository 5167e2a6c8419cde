"""Mistakes a host makes with the files of a night, at the command line: an edited PokerNow
log imported again is refused whole, nothing of it stored (FORMATS.md §2)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

PN = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"


def _edited(tmp_path: Path, line: int, old: str, new: str, source: Path = PN) -> Path:
    """A copy of ``source`` under its own name in ``tmp_path``, ``old`` made ``new`` on its
    (1-based) ``line``."""
    rows = source.read_text(encoding="utf-8").split("\n")
    assert old in rows[line - 1]
    rows[line - 1] = rows[line - 1].replace(old, new)
    path = tmp_path / "edit" / source.name
    path.parent.mkdir(exist_ok=True)
    path.write_text("\n".join(rows), encoding="utf-8")
    return path


def test_an_edited_approval_in_a_pokernow_log_writes_nothing(tmp_path: Path) -> None:
    """The admin's approval of Qapurjsa9 edited from 100 to 150 (line 54): the join that
    follows (line 47, 100) no longer matches, and the refused import had appended a seat
    change and a buy-in of 150 (Qapurjsa9 then bought 250)."""
    db = tmp_path / "pn.duckdb"
    assert one_shot(db, "import", str(PN))[0] == 0
    before = events(db)
    assert len(before) == 60
    edited = _edited(tmp_path, 54, "stack of 100.", "stack of 150.")
    code, out, err = one_shot(db, "import", str(edited))
    assert code == 2
    assert out.startswith("imported 0 hand(s) (0 events) from 1 file(s)")
    assert err == (
        f"error: {edited}:47, session charlestudor_Input_Log_001, action 'The player "
        '"Qapurjsa9 @ BfS83Cedu3" joined the game with a stack of 100.\': joins with 100 but '
        "has 150 at the table; a line of the session's book is refused, so nothing of the "
        "file was written (correct the line and import the file again)\n")
    assert events(db) == before
    code, out, _ = one_shot(db, "balances", "--json")
    assert code == 0 and '"buy_in": 250' not in out and out.count('"buy_in": 100') == 3


def test_pokernow_errors_name_the_path_as_given(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """A relative path stays relative, a directory stays in it (PHH and JSON-lines errors
    name the path so); the events still record the file's name alone."""
    edited = _edited(tmp_path, 46, '"TA @ gE4aE_Yhc3"" (100)', '"TA @ gE4aE_Yhc3"" (90)')
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "given.duckdb"
    code, _, err = one_shot(db, "import", "edit/charlestudor_Input_Log_001.csv")
    assert code == 2
    hand = "hand pn-charlestudor_Input_Log_001-2-164210354621900"  # 90 after the join's 100
    assert err.startswith(f"error: edit/charlestudor_Input_Log_001.csv:36, {hand}, action ")
    assert err.count("error: edit/charlestudor_Input_Log_001.csv:") == err.count("error: ")
    code, _, err = one_shot(db, "import", str(edited))
    assert err.startswith(f"error: {edited}:36, {hand}, action ")
    files = {e[6].count('"file":"charlestudor_Input_Log_001.csv"') for e in events(db)
             if e[5] == "session_opened"}
    assert files == {1}
