"""`show` and the page name the player to act as `state` does (one function,
:func:`replay.first_to_act.who_acts`): in stud with an upcard unknown (``??``) the rules may
leave two who may open (RULES.md §4.1), and then no row says ``bet → Dee``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ledger.store.store import Ledger

STUD = ("hand", "start", "--hand", "s", "--game", "F7S", "--antes", "1", "--bring-in", "1",
        "--small-bet", "2", "--big-bet", "4", "--seats", "Dee:100,Eve:100,Fay:100")
THIRD = ["d dh Dee ??????", "d dh Eve 2d3cKs", "d dh Fay 4d5c8h"]
FOURTH = ["Fay pb", "Dee cc", "Eve cc", "d dh Dee ??", "d dh Eve 9d", "d dh Fay 4s"]
BRING = "bring-in: the lowest upcard (unknown: Dee's)"
FIRST = "first to act: Dee or Eve (the best board; unknown: Dee's)"


def _act(user, lines: list[str]) -> None:  # noqa: ANN001
    for line in lines:
        code, _, err = user("act", "s", line)
        assert (code, err) == (0, ""), err


def _rows(user, *extra: str) -> list[str]:  # noqa: ANN001
    code, out, err = user("show", "s", *extra)
    assert (code, err) == (0, ""), err
    return [" ".join(line.split()) for line in out.splitlines()]  # whatever the width


def test_show_says_who_may_bring_it_in_and_open_as_state_does(user, db: str) -> None:  # noqa: ANN001
    """Dee's upcard is unseen: Dee (a card below the 8h) or Fay (8h) may bring it in, not
    Eve (Ks) — `state` names no seat and neither does row 7 (nor `--at 7`). Fay's bring-in
    taken, Dee is known to act next (row 8). On fourth street Eve shows Ks 9d, Fay 8h 4s,
    Dee two unseen cards: Dee or Eve opens (row 13); once Eve has, Fay is next (row 14)."""
    Ledger(db).close()
    assert user(*STUD)[0] == 0
    _act(user, THIRD)
    assert user("state", "s")[1].splitlines()[1] == f"{BRING}: bring in 1 (pb), complete to 2..2"
    assert _rows(user)[-2] == (
        f"7 d dh Fay 4d5c8h pot 3 bet 0 [Dee:99 Eve:99 Fay:99] bet; {BRING}")
    assert _rows(user, "--at", "7")[-2] == f"at 7: {BRING}, bring in 1 (pb), complete to 2..2"
    _act(user, FOURTH)
    assert user("state", "s")[1].splitlines()[1] == f"{FIRST}: check, bet to 2..2"
    rows = _rows(user)
    assert rows[7:9] == ["8 Fay pb pot 4 bet 1 [Dee:99 Eve:99 Fay:98] bet → Dee",
                          "9 Dee cc pot 5 bet 1 [Dee:98 Eve:99 Fay:98] bet → Eve"]
    assert rows[-2:] == [f"13 d dh Fay 4s pot 6 bet 0 [Dee:98 Eve:98 Fay:98] bet; {FIRST}",
                         "Main pot: 6 (Dee, Eve, Fay)"]
    assert _rows(user, "--at", "13")[-2] == f"at 13: {FIRST}, check, bet to 2..2"
    assert user("act", "s", "Eve cc") == (0, "14 check; Fay to act: check, bet to 2..2\n", "")
    assert _rows(user)[-2] == "14 Eve cc pot 6 bet 0 [Dee:98 Eve:98 Fay:98] bet → Fay"


def test_the_page_marks_no_seat_to_act_where_two_may(user, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    """The page's steps carry the same words (its script writes them in place of ``Dee to
    act`` and marks no seat): step 7 the bring-in, step 13 the first to act; a step where
    the player is known carries none."""
    Ledger(db).close()
    assert user(*STUD)[0] == 0
    _act(user, THIRD + FOURTH)
    page = tmp_path / "s.html"
    assert user("view", "s", "-o", str(page))[0] == 0
    text = page.read_text(encoding="utf-8")
    unsure = dict(re.findall(r'"seq":\s*(\d+),.*?"to_act_unsure":\s*("[^"]*")', text))
    assert {int(seq): json.loads(words) for seq, words in unsure.items() if words != '""'} == {
        7: BRING, 13: FIRST}
    assert json.loads(unsure["8"]) == ""
