"""``import --session S`` of a hand that seats players S's books never bought in: the hand is
stored as the table played it, with a ``warning:`` line naming them (``hand start --session``
refuses such a seat; ``settle`` would bill chips nobody bought, RULES.md §1.1)."""

from __future__ import annotations

import json

from tests.conftest import SHARED

EX01 = SHARED / "rules" / "ex01.phh"  # p1..p7 seated with 50, 15, 100, 100, 100, 100, 50


def _open(user, session: str, players: tuple[str, ...]) -> None:  # noqa: ANN001
    assert user("session", "open", session)[0] == 0
    for player in players:
        assert user("buyin", session, player, "100")[0] == 0


def test_a_hand_seating_players_with_no_buy_in_is_named_in_a_warning(user) -> None:  # noqa: ANN001
    _open(user, "r2", ("Ann", "Bob", "Cy"))
    code, out, err = user("import", "--session", "r2", str(EX01))
    assert code == 0
    assert out == ("imported 1 hand(s) (53 events) from 1 file(s); 0 already in the ledger; "
                   "0 rejected; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {EX01}:1: hand phh-f1802a128b6b: p1, p2, p3, p4, p5, p6, p7 "
                   "have no buy-in in session r2: settle would bill chips nobody bought "
                   "(RULES.md §1.1; `hand start` refuses such a seat) (stored; the audit "
                   "reports it)\n")
    # the same file again: nothing stored, nothing more said
    code, out, err = user("import", "--session", "r2", str(EX01))
    assert (code, err) == (0, "")
    assert out.startswith("imported 0 hand(s) (0 events) from 1 file(s); 1 already")


def test_players_the_books_hold_get_no_warning(user, tmp_path) -> None:  # noqa: ANN001
    """tests/test_import_rake.py's all-in hand, Ann's aces win the 502 pot: Ann bought in,
    Bob did not, so only Bob is named; the hand is stored as played (Ann +251, Bob -251)."""
    from tests.test_import_rake import ALL_IN

    path = tmp_path / "r1.phh"
    path.write_text(ALL_IN + "winnings = [502, 0]\n")
    _open(user, "r3", ("Ann",))
    code, _, err = user("import", "--session", "r3", str(path))
    assert code == 0
    assert err == (f"warning: {path}:1: hand r1: Bob has no buy-in in session r3: settle would "
                   "bill chips nobody bought (RULES.md §1.1; `hand start` refuses such a seat) "
                   "(stored; the audit reports it)\n")
    code, out, _ = user("balances", "--session", "r3", "--json")
    assert {p["player"]: p["net"] for p in json.loads(out)["players"]} == {"Ann": 251,
                                                                           "Bob": -251}
    # Bob's buy-in in the books, his next hand is not named
    assert user("buyin", "r3", "Bob", "300")[0] == 0
    path.write_text(ALL_IN.replace("'r1'", "'r2'") + "winnings = [502, 0]\n")
    code, out, err = user("import", "--session", "r3", str(path))
    assert (code, err) == (0, "")
    assert out.startswith("imported 1 hand(s)")
