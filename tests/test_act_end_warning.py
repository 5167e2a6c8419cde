"""``act HAND end`` (and ``table``'s end) says at once when the payouts recorded contradict the
rules' award of a showdown whose cards are all known: a ``warning:`` line a payout on standard
error, as ``state`` and ``replay`` name them, the hand still recorded as the table paid it."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import events, one_shot, table

PLAY = ["d dh Ann KhKs", "d dh Dee AhAs", "Ann cbr 202", "Dee cc", "d db 2c7d9h", "Dee cc",
        "Ann cc", "d db 3s", "Dee cc", "Ann cc", "d db 4s", "Dee cc", "Ann cc", "Dee sm AhAs",
        "Ann sm KhKs"]
WARNED = ("warning: paid differently from the rules: hand e1: Dee was paid 0, the rules give "
          "404 (-404) (recorded as the table paid it; `handledger correct` puts it right)\n"
          "warning: paid differently from the rules: hand e1: Ann was paid 404, the rules give "
          "0 (+404) (recorded as the table paid it; `handledger correct` puts it right)\n")


def _at_showdown(db: Path, paid: str) -> None:
    """Hand e1 (blinds 1/2, 300 each): Dee's aces beat Ann's kings on 2c7d9h3s4s, a pot of
    404; ``paid`` recorded."""
    assert one_shot(db, "hand", "start", "--hand", "e1", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Ann:300,Dee:300", "--button", "Ann")[0] == 0
    for line in [*PLAY, paid]:
        assert one_shot(db, "act", "e1", line)[0] == 0


def test_end_against_the_rules_warns_and_records(tmp_path: Path) -> None:
    """"pay Ann 404" then end: both payouts named against the rules' 404 to Dee, exit 0, the
    end stored (21 rows); the state after it says the same."""
    db = tmp_path / "e.duckdb"
    _at_showdown(db, "pay Ann 404")
    assert one_shot(db, "act", "e1", "end") == (0, "20 hand_ended; hand complete\n", WARNED)
    assert len(events(db)) == 20
    assert "paid differently from the rules: hand e1: Dee was paid 0, the rules give 404 " \
           "(-404)" in one_shot(db, "state", "e1")[1]


def test_end_as_the_rules_give_is_quiet(tmp_path: Path) -> None:
    db = tmp_path / "e.duckdb"
    _at_showdown(db, "pay Dee 404")
    assert one_shot(db, "act", "e1", "end") == (0, "20 hand_ended; hand complete\n", "")


def test_table_end_warns_too(tmp_path: Path) -> None:
    db = tmp_path / "e.duckdb"
    _at_showdown(db, "pay Ann 404")
    done = table(db, "e1", ["end"])
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "20 hand_ended; hand complete\n", WARNED)


def test_a_raked_pot_paid_to_the_loser_warns_of_the_payouts_not_the_rake(tmp_path: Path) -> None:
    """A rake of 4 recorded, the 400 left paid to Ann: the two payouts are named against the
    rules' 400 to Dee; the rake, what the table kept, is no warning (a raked hand paid as the
    rules give ends quietly: tests/test_live_rake.py)."""
    db = tmp_path / "e.duckdb"
    _at_showdown(db, "rake 4")
    assert one_shot(db, "act", "e1", "pay Ann 400")[0] == 0
    code, out, err = one_shot(db, "act", "e1", "end")
    assert (code, out, err.splitlines()) == (0, "21 hand_ended; hand complete\n", [
        "warning: paid differently from the rules: hand e1: Dee was paid 0, the rules give "
        "400 (-400) (recorded as the table paid it; `handledger correct` puts it right)",
        "warning: paid differently from the rules: hand e1: Ann was paid 400, the rules give "
        "0 (+400) (recorded as the table paid it; `handledger correct` puts it right)"])


UNKNOWN = ["d dh Ann ????", "d dh Bob ????", "Ann cc", "Bob cc", "d db ??????", "Bob cc",
           "Ann cc", "d db ??", "Bob cc", "Ann cc", "d db ??", "Bob cc", "Ann cc"]


def _checked_down(db: Path, *paid: str) -> None:
    """Hand u1 (blinds 1/2, 100 each): Ann calls the big blind, checked down with every card
    unknown, a pot of 4 whole to one of them or 2 each; ``paid`` recorded."""
    assert one_shot(db, "hand", "start", "--hand", "u1", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    for line in [*UNKNOWN, *paid]:
        assert one_shot(db, "act", "u1", line)[0] == 0


SPLIT_WARNED = ("warning: paid differently from the rules: hand u1: no legal split of the pots "
                "pays what the table paid (Ann 3, Bob 1) (recorded as the table paid it; "
                "`handledger correct` puts it right)\n")


def test_an_illegal_split_of_unknown_cards_warns_at_end(tmp_path: Path) -> None:
    """3 and 1 of a pot of 4 is no legal split (4 to one, or 2 each): the end is recorded and
    warned of as ``state`` names it; a chop of 2 each ends quietly."""
    db = tmp_path / "u.duckdb"
    _checked_down(db, "pay Ann 3", "pay Bob 1")
    assert one_shot(db, "act", "u1", "end") == (0, "19 hand_ended; hand complete\n",
                                               SPLIT_WARNED)
    assert ("paid differently from the rules: hand u1: no legal split of the pots pays what "
            "the table paid (Ann 3, Bob 1)") in one_shot(db, "state", "u1")[1]
    chop = tmp_path / "c.duckdb"
    _checked_down(chop, "pay Ann 2", "pay Bob 2")
    assert one_shot(chop, "act", "u1", "end") == (0, "19 hand_ended; hand complete\n", "")


def test_table_end_warns_of_an_illegal_split_too(tmp_path: Path) -> None:
    db = tmp_path / "u.duckdb"
    _checked_down(db, "pay Ann 3", "pay Bob 1")
    done = table(db, "u1", ["end"])
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "19 hand_ended; hand complete\n", SPLIT_WARNED)
