"""A PHH file whose actions stop before the hand's end is stored incomplete (every chip back)
with a ``warning:`` line naming file, line and hand, under ``--strict`` too, as a PokerNow log
cut inside a hand is; the whole copy under the stored id completes it with a correction, and
a whole copy named by its content (no ``_hand_id``) is refused saying so."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import events, one_shot

HEAD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
"""
CUT = HEAD + ("actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6']\n"
              "players = ['Ann', 'Bob', 'Cy']\n")
WHOLE = CUT.replace("'p3 cbr 6']", "'p3 cbr 6', 'p1 f', 'p2 f']")
HAND = "phh-ed0713b295f3"


def test_a_cut_phh_hand_is_stored_with_a_warning_under_strict(tmp_path: Path) -> None:
    db, path = tmp_path / "y.duckdb", tmp_path / "cut.phh"
    path.write_text(CUT)
    assert one_shot(db, "import", "--strict", str(path)) == (
        0, "imported 1 hand(s) (8 events) from 1 file(s); 0 already in the ledger; 0 rejected; "
           "1 warning(s) about hands stored\n",
        f"warning: {path}:1: hand {HAND}: the file stops inside the hand, its actions before its "
        "end (event 7 the last): kept as an incomplete hand, every chip returned (a whole copy "
        f"under the same id, `_hand_id = '{HAND}'`, completes it) (stored; the audit reports "
        "it)\n")
    assert [e[5] for e in events(db)][-1] == "hand_ended"
    assert '"status":"incomplete"' in events(db)[-1][6]
    # the whole hand under its content id: refused, saying how to complete the stored one
    path.write_text(WHOLE)
    before = events(db)
    code, out, err = one_shot(db, "import", str(path))
    assert (code, err.count("\n")) == (2, 1)
    assert err == (
        f"error: {path}:1, hand phh-ea3202b29f65: this hand stands where hand {HAND} of the "
        "ledger was read from (the same file and place), which the ledger holds cut off "
        "(incomplete: its file stopped inside the hand), and goes on past it: its event 8 is "
        'fold {"player":"Ann"} here, hand_ended {"status":"incomplete"} in the ledger; a PHH '
        "hand without `_hand_id` is named by its content, so this copy is another hand: import "
        f"it with `_hand_id = '{HAND}'` and it completes {HAND} (a correction, as a longer "
        f"PokerNow export completes a cut hand), or amend {HAND}: `handledger correct {HAND} "
        "...`\n")
    assert events(db) == before
    # as it says: the whole copy under the stored id completes it (Cy raises to 6, both fold:
    # Cy wins the blinds, +3; Ann -1, Bob -2)
    path.write_text(WHOLE + f"_hand_id = '{HAND}'\n")
    assert one_shot(db, "import", str(path)) == (
        0, "imported 0 hand(s) (1 events) from 1 file(s); 0 already in the ledger; 0 rejected; "
           "1 cut-off hand(s) completed from this longer export (a correction each)\n", "")
    assert one_shot(db, "balances")[1].splitlines()[1:] == [
        "Cy                        3            0            0      1        0",
        "Ann                      -1            0            0      1        0",
        "Bob                      -2            0            0      1        0"]
    assert one_shot(db, "import", str(path))[:2] == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n")
