"""A key given twice on the command line is refused in one line, never settled by the last
one: a ``--declare-options`` key (replay/live.py ``key_values``, the one parser of the CLI's
KEY=VALUE lists), and a key of an action given as a JSON event (``act``, ``whatif``,
``correct``: replay/action_text.py, as a JSON-lines file refuses it). Nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.model.errors import MalformedInput
from replay.live.spec import key_values
from tests.test_live_table import events, one_shot

START = ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100",
         "--button", "Ann")
TWICE = ("error: --declare-options: swing_ties is given twice (allowed, then not_allowed): "
         "give each key once\n")


def test_key_values_keeps_the_order_and_refuses_a_key_twice() -> None:
    assert key_values(" method = in_turn ,, swing_ties=allowed", "--o") == {
        "method": "in_turn", "swing_ties": "allowed"}
    with pytest.raises(MalformedInput, match=r"^--o: method is given twice \(in_turn, then "
                                             r"in_turn\): give each key once$"):
        key_values("method=in_turn,method=in_turn", "--o")


def test_a_declare_option_twice_is_refused_before_the_ledger_is_made(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    code, out, err = one_shot(db, *START, "--hand", "d1", "--declare-options",
                              "swing_ties=allowed, swing_ties = not_allowed")
    assert (code, out, err) == (2, "", TWICE)
    assert not db.exists()


def test_a_declare_option_twice_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert one_shot(db, *START, "--hand", "d1", "--declare-options", "swing_ties=allowed")[:2] \
        == (0, "d1\n")
    before = events(db)
    code, out, err = one_shot(db, *START, "--hand", "d2", "--declare-options",
                              "swing_ties=allowed,swing_ties=not_allowed")
    assert (code, out, err) == (2, "", TWICE)
    assert events(db) == before


def test_a_json_action_with_a_key_twice_writes_nothing(tmp_path: Path) -> None:
    """Heads-up 1/2, Ann (button, 1) raises to 10, Bob calls, checked down, Ann's kings win
    the 20 (seq 19 ``pay Ann 20``). The amount given twice, 1 then 20: refused whichever
    command takes it, where JSON alone would have taken the 20."""
    db = tmp_path / "t.duckdb"
    assert one_shot(db, *START, "--hand", "j1")[0] == 0
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "Ann cbr 10", "Bob cc", "d db 2c7h9s",
                   "Bob cc", "Ann cc", "d db Kd", "Bob cc", "Ann cc", "d db 3c", "Bob cc",
                   "Ann cc", "Ann sm AsKs", "Bob sm QhQd"):
        assert one_shot(db, "act", "j1", action)[0] == 0, action
    twice = '{"type":"recorded_payout","player":"Ann","amount":1,"amount":20}'
    said = f"'{twice}' is not a JSON event: duplicate keys ['amount']"
    before = events(db)
    code, out, err = one_shot(db, "act", "j1", twice)
    assert (code, out) == (2, "")
    assert err == (f"error: hand j1, action '{twice}': {said}; now: phase showdown, next: "
                   "pay PLAYER AMOUNT, end\n")  # both hands shown: nobody left to show
    assert events(db) == before
    assert one_shot(db, "act", "j1", twice.replace('"amount":1,', ""))[0] == 0
    assert one_shot(db, "act", "j1", "end")[0] == 0
    before = events(db)
    for command in (("whatif",), ("correct", "--reason", "x", "--by", "host")):
        code, out, err = one_shot(db, command[0], "j1", "--replace", "19", twice, *command[1:])
        assert (code, out, err) == (2, "", f"error: hand j1: replace 19 '{twice}': {said}\n")
        assert events(db) == before
