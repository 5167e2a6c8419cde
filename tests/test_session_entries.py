"""Table stakes at the books (RULES.md §1.1: chips are added only between a showdown and the
next deal, and not taken off the table during play): a buy-in or cash-out of a player seated in
a hand of the session that is still open (started live, not ended) is refused with one line
naming him and the hand, and nothing is written; a player not in that hand still buys in, and
the refused entry goes in once the hand ends. ``session close`` of a session whose audit has
findings still closes it, with one note on stderr counting them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.copies import build_ledger, copy_ledger

START = ("hand", "start", "--session", "fri", "--hand", "f1", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:200,Bob:150", "--button", "Ann")


@pytest.fixture(scope="module")
def started_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session fri, Ann's buy-in of 200 and Bob's of 150, and hand f1 (``START``) started
    live: built once for the module (copy it to change it)."""
    return build_ledger(tmp_path_factory.mktemp("started") / "t.duckdb", (
        ("session", "open", "fri", "--date", "2026-11-27"), ("buyin", "fri", "Ann", "200"),
        ("buyin", "fri", "Bob", "150"), START))


@pytest.fixture
def started(started_ledger: Path, db: str) -> None:
    """The test's ledger ``db`` (the one ``user`` uses): a copy of ``started_ledger``."""
    copy_ledger(started_ledger, Path(db))


def _rows(db: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return len(list(ledger.stored()))


def test_a_buy_in_made_before_a_hand_he_played_is_no_buy_in_entered_twice(user) -> None:  # noqa: ANN001
    """A rebuy recorded with ``--before HAND`` counts just before that hand: a later rebuy of
    the same chips, after he played that hand, is said nothing; one more of the same chips
    then is the one entered twice, naming the later rebuy."""
    for step in (("session", "open", "fri", "--date", "2026-11-27"), ("buyin", "fri", "Ann", "200"),
                 ("buyin", "fri", "Bob", "150"), (*START[:-4], "--seats", "Ann:300,Bob:150",
                                                  "--button", "Ann")):
        assert user(*step)[0] == 0, step
    for action in ("d dh p1 ????", "d dh p2 ????", "Ann f", "end"):
        assert user("act", "f1", action)[0] == 0, action
    assert user("buyin", "fri", "Ann", "100", "--before", "f1") == (
        0, "fri: Ann rebuy 100 chips before hand f1 (entry 4)\n", "")
    assert user("buyin", "fri", "Ann", "100") == (0, "fri: Ann rebuy 100 chips (entry 5)\n", "")
    assert user("buyin", "fri", "Ann", "100") == (
        0, "fri: Ann rebuy 100 chips (entry 6)\n",
        "warning: Ann bought in 100 chips in fri already (entry 5) and has played no hand since: "
        "a buy-in entered twice is taken back with `handledger entry retract fri 6 --reason … "
        "--by …` (recorded as a rebuy)\n")


def test_entries_of_a_player_in_an_open_hand_wait_for_its_end(user, db: str) -> None:  # noqa: ANN001
    for step in (("session", "open", "fri", "--date", "2026-11-27"), ("buyin", "fri", "Ann", "200"),
                 ("buyin", "fri", "Bob", "150"), ("buyin", "fri", "Cy", "100"), START):
        assert user(*step)[0] == 0, step
    before = _rows(db)
    assert user("buyin", "fri", "Ann", "50") == (
        2, "", "error: Ann is seated in hand f1 of session fri, which is still open: no buy-in "
        "now (chips are added only between a showdown and the next deal, RULES.md §1.1); a "
        "rebuy made before hand f1 (its starting stack counts it): `handledger buyin fri Ann 50 "
        "--before f1`; one made during it: record it once the hand ends (`handledger act f1 "
        "end`) or is voided\n")
    assert user("cashout", "fri", "Bob", "0") == (
        2, "", "error: Bob is seated in hand f1 of session fri, which is still open: no "
        "cash-out now (chips are not taken off the table during play, RULES.md §1.1); record it "
        "once the hand ends (`handledger act f1 end`) or is voided\n")
    assert _rows(db) == before
    # Cy and Dee are not in the hand: their entries go in while it is played
    assert user("buyin", "fri", "Cy", "50") == (0, "fri: Cy rebuy 50 chips (entry 5)\n", "")
    assert user("buyin", "fri", "Dee", "100") == (0, "fri: Dee buy-in 100 chips (entry 6)\n", "")
    assert user("cashout", "fri", "Cy", "150") == (
        0, "fri: Cy cashed out 150 chips (entry 7)\n", "")
    # Ann (on the button, the small blind heads-up) folds: Bob takes the 3 chips
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "Ann f", "pay Bob 3", "end"):
        assert user("act", "f1", action)[0] == 0, action
    assert user("buyin", "fri", "Ann", "50") == (0, "fri: Ann rebuy 50 chips (entry 8)\n", "")
    assert user("cashout", "fri", "Bob", "151") == (
        0, "fri: Bob cashed out 151 chips (entry 9)\n", "")


@pytest.mark.usefixtures("started")
def test_a_voided_hand_is_no_longer_open(user) -> None:  # noqa: ANN001
    assert user("buyin", "fri", "Ann", "50")[0] == 2
    assert user("void", "f1", "--reason", "misdeal", "--by", "Cy")[0] == 0
    assert user("buyin", "fri", "Ann", "50") == (0, "fri: Ann rebuy 50 chips (entry 4)\n", "")


@pytest.mark.usefixtures("started")
def test_session_close_notes_the_audit_findings_it_closes_with(user, db: str) -> None:  # noqa: ANN001
    """It still closes; one note on stderr counts the audit's findings of the session (here
    the two players who never cashed out: session_balance), and the same count is what
    ``audit --session`` lists."""
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "Ann f", "pay Bob 3", "end"):
        assert user("act", "f1", action)[0] == 0, action
    code, out, err = user("session", "close", "fri")
    assert (code, out.splitlines()[0]) == (0, "session fri closed")
    assert out.splitlines()[1].startswith("handledger checkpoint ")
    assert err == ("note: session fri closed with 2 audit findings (`handledger audit --session "
                   "fri` lists them)\n")
    code, out, _ = user("audit", "--session", "fri")
    assert code == 1 and out.splitlines()[-1] == (
        "audit: 2 discrepancies (session_balance 2); 1 hand(s) in 1 session(s) checked")
    assert user("session", "list")[1].startswith("fri  2026-11-27  1 hand(s)  2 buy-in(s)  closed")


def test_a_clean_session_closes_without_a_note(user) -> None:  # noqa: ANN001
    from tests.test_books_trust import NIGHT

    for step in NIGHT[:-1]:
        assert user(*step)[0] == 0, step
    code, out, err = user(*NIGHT[-1])
    assert (code, out.splitlines()[0], err) == (0, "session friday closed", "")


def test_a_buy_in_entered_twice_is_a_rebuy_with_a_warning(user) -> None:  # noqa: ANN001
    """The same buy-in twice with no hand between (the command repeated, or typed at two
    terminals) is recorded as the rebuy it may be, with a warning naming the retraction that
    takes it back; a rebuy of another amount, or after a hand that seated him, says nothing."""
    for step in (("session", "open", "fri", "--date", "2026-11-27"), ("buyin", "fri", "Ann", "200"),
                 ("buyin", "fri", "Bob", "150")):
        assert user(*step)[0] == 0, step
    assert user("buyin", "fri", "Ann", "200") == (
        0, "fri: Ann rebuy 200 chips (entry 4)\n",
        "warning: Ann bought in 200 chips in fri already (entry 2) and has played no hand since: "
        "a buy-in entered twice is taken back with `handledger entry retract fri 4 --reason … "
        "--by …` (recorded as a rebuy)\n")
    assert user("buyin", "fri", "Ann", "100") == (0, "fri: Ann rebuy 100 chips (entry 5)\n", "")
    assert user("buyin", "fri", "Ann", "100", "--kind", "top_up") == (
        0, "fri: Ann top-up 100 chips (entry 6)\n",
        "warning: Ann bought in 100 chips in fri already (entry 5) and has played no hand since: "
        "a buy-in entered twice is taken back with `handledger entry retract fri 6 --reason … "
        "--by …` (recorded as a top-up)\n")
    assert user("entry", "retract", "fri", "6", "--reason", "entered twice", "--by", "host"
                )[0] == 0
    start = [*START[:-4], "--seats", "Ann:500,Bob:150", "--button", "Ann"]
    assert user(*start)[0] == 0
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "Ann f", "pay Bob 3", "end"):
        assert user("act", "f1", action)[0] == 0, action
    assert user("buyin", "fri", "Ann", "100") == (0, "fri: Ann rebuy 100 chips (entry 8)\n", "")
    assert user("buyin", "fri", "Bob", "150") == (
        0, "fri: Bob rebuy 150 chips (entry 9)\n", "")
