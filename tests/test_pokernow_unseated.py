"""A PokerNow hand line of a player the hand's seat list does not hold (FORMATS.md §2): the
line's shape is read, and the error says the player is not seated, as JSON lines say it of
their action (``'Nobody' is not seated``), never "unrecognised log entry". The real log
``charlestudor_Input_Log_001.csv`` with one row added as its line 5 (in hand #4); nothing of
that hand is written, the game's other three hands are."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.conftest import SHARED

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
HAND = "pn-x-4-164210359269400"


def _with_row(folder: Path, who: str) -> Path:
    lines = LOG.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(4, f'"""{who}"" folds",2022-01-13T19:53:16.000Z,164210359600000\n')
    out = folder / "x.csv"
    out.write_text("".join(lines), encoding="utf-8")
    return out


@pytest.mark.parametrize(("who", "said"), [
    ("Zed @ zzZZzz9", "'zzZZzz9' is not seated: no Player stacks line lists that ID (a "
                      "PokerNow ID is 10 characters of A-Z, a-z, 0-9, _ and -)"),
    ("Zed @ zzZZzz9abc", "'zzZZzz9abc' is not seated in this hand: its Player stacks line "
                         "does not list that ID"),
])
def test_a_fold_by_a_player_nobody_seated_says_so(user, db: str, who: str, said: str) -> None:
    log = _with_row(Path(db).parent, who)
    status, out, err = user("import", str(log))
    assert (status, err) == (2, f"error: {log}:5, hand {HAND}, action '\"{who}\" folds': "
                                f"{said}\n")
    # hands #1-#3 (11 + 12 + 16 rows) and the session's 10 rows: nothing of the refused
    # hand, nor the name its line gave (a 10-character ID's had been stored as an alias)
    assert out == ("imported 3 hand(s) (49 events) from 1 file(s); 0 already in the "
                   "ledger; 1 rejected\n")
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM events WHERE hand_id = ?",
                           [HAND]).fetchone() == (0,)
