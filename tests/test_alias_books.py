"""An alias in the book commands, as a host at the table met it: after ``player alias Robert
Bob`` the books' checks take Robert and Bob as one player, exactly as the audit, ``balances``
and ``settle`` do (``replay.sessions.state.series_names``, resolved as
``ledger.audit.books.resolve_aliases``); ``hand start`` refuses a seat while a hand still in
play seats the player under either name, naming every such hand; ``--seats`` takes a name as
typed, never stripped.

``aliased``: session x, Ann and Bob buy in 100 each (entries 2, 3), ``player alias Robert
Bob`` (entry 4); hand h1 seats Ann:100,Bob:100 (button Ann) and is still in play.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import open_s, refused, rows, run

NT = ("--session", "x", "--game", "NT", "--stakes", "1/2", "--button", "Ann")


def _in_play(new: str, who: str, hand: str, fix: str = "", more: str = "") -> str:
    """``hand start --hand NEW``'s refusal of a seat while hand ``hand`` (forced bets only:
    ``fix`` when it can end) seats ``who``; ``more``: the other hands named after it."""
    fix = fix or ("play it out and end it first, or void it (`handledger void "
                  f"{hand} --reason … --by …`)")
    verb = "are" if " and " in who else "is"
    return (f"error: hand {new}: {who} {verb} seated in hand {hand} of session x, still in "
            f"play{more}: a player's chips are in one hand at a time (RULES.md §1.1): {fix}; "
            "nothing written")


@pytest.fixture(scope="module")
def aliased(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    db = tmp_path_factory.mktemp("aliased") / "t.duckdb"
    open_s(db, "x", "Ann", "Bob")
    alias = run(db, "player", "alias", "Robert", "Bob")
    assert (alias.exit_code, alias.stdout) == (0, "Bob is Robert\n")
    assert run(db, "hand", "start", "--hand", "h1", *NT, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    return db


def _void(db: Path, hand: str) -> None:
    assert run(db, "void", hand, "--reason", "test", "--by", "Host").exit_code == 0


def test_a_hand_seating_the_alias_is_refused_naming_the_hand_in_play(
        aliased: Path, tmp_path: Path) -> None:
    """h1 seats Bob and is in play (its blinds only): h2 seating Robert is refused, naming
    Robert in h1 as it names Ann, nothing written (RULES.md §1.1: their chips are in h1)."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "hand", "start", "--hand", "h2", *NT, "--seats",
                       "Ann:100,Robert:100")) == _in_play("h2", "Robert and Ann", "h1")
    assert rows(db) == before


def test_a_book_entry_under_the_alias_waits_for_the_hand_of_the_other_name(
        aliased: Path, tmp_path: Path) -> None:
    """Robert is Bob, seated in h1 still in play: no buy-in nor cash-out of him now."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "buyin", "x", "Robert", "5")) == (
        "error: Robert is seated in hand h1 of session x, which is still open: no buy-in now "
        "(chips are added only between a showdown and the next deal, RULES.md §1.1); a rebuy "
        "made before hand h1 (its starting stack counts it): `handledger buyin x Robert 5 "
        "--before h1`; one made during it: record it once the hand ends (`handledger act h1 "
        "end`) or is voided")
    assert refused(run(db, "cashout", "x", "Robert", "100")) == (
        "error: Robert is seated in hand h1 of session x, which is still open: no cash-out "
        "now (chips are not taken off the table during play, RULES.md §1.1); record it once "
        "the hand ends (`handledger act h1 end`) or is voided")
    assert rows(db) == before


def test_buy_ins_and_cash_outs_under_both_names_are_one_players(aliased: Path,
                                                              tmp_path: Path) -> None:
    """Bob's 100 is Robert's: Robert cashes it out, rebuys 50 (a rebuy, not a first buy-in),
    cashes out 50 as Bob, and a second cash-out under either name is refused; the books then
    hold Robert 150 in, 150 out, and the audit finds nothing."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    _void(db, "h1")
    for args, said in (
            (("cashout", "x", "Robert", "100"), "x: Robert cashed out 100 chips (entry 5)\n"),
            (("buyin", "x", "Robert", "50"), "x: Robert rebuy 50 chips (entry 6)\n"),
            (("cashout", "x", "Bob", "50"), "x: Bob cashed out 50 chips (entry 7)\n")):
        result = run(db, *args)
        assert (result.exit_code, result.stdout, result.stderr) == (0, said, ""), args
    again = ("error: Robert already cashed out 50 chips in x (entry 7, no buy-in since); a "
             "wrong count is amended: `handledger entry amend x 7 CHIPS --reason … --by …`")
    assert refused(run(db, "cashout", "x", "Robert", "50")) == again
    assert refused(run(db, "cashout", "x", "Bob", "50")) == again
    balances = run(db, "balances", "--session", "x").stdout.splitlines()
    assert [line.split() for line in balances[1:]] == [
        ["Ann", "0", "100", "0", "0", "1"], ["Robert", "0", "150", "150", "0", "1"]]
    assert run(db, "audit", "--session", "x").stdout.splitlines() == [
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)"]


def test_a_rebuy_under_the_alias_follows_the_buy_in_under_the_other_name(
        aliased: Path, tmp_path: Path) -> None:
    """Bob bought in: a rebuy given as Robert is his rebuy (refused before as 'no buy-in')."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    _void(db, "h1")
    result = run(db, "buyin", "x", "Robert", "20", "--kind", "rebuy")
    assert (result.exit_code, result.stdout) == (0, "x: Robert rebuy 20 chips (entry 5)\n")


def test_a_payment_between_the_two_names_of_one_player_is_refused(aliased: Path,
                                                                 tmp_path: Path) -> None:
    """Bob and Robert are one player: he cannot pay himself, either way round; and Robert
    paying Ann again what Bob paid her takes --again, as under one name."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    _void(db, "h1")
    before = rows(db)
    for payer, payee in (("Bob", "Robert"), ("Robert", "Bob")):
        assert refused(run(db, "pay", "x", payer, payee, "5")) == (
            f"error: pay x: {payer} and {payee} are one player, Robert (Bob is an alias of "
            "Robert: `handledger player alias`): a payment needs two different players; "
            "nothing written")
    assert rows(db) == before
    assert run(db, "pay", "x", "Bob", "Ann", "1", "--more-than-owed").exit_code == 0
    assert refused(run(db, "pay", "x", "Robert", "Ann", "1", "--more-than-owed")) == (
        "error: Robert paying Ann 1 is recorded in x already; a second payment of the same "
        "amount takes --again")


def _two_hands_in_play(db: Path) -> Path:
    """Session x of Ann, Bob, Cy and Dee (100 each), with h1 (Ann on the button, Bob) and h2
    (Cy on the button, Dee) started, their blinds alone posted."""
    open_s(db, "x", "Ann", "Bob", "Cy", "Dee")
    for hand, seats in (("h1", "Ann:100,Bob:100"), ("h2", "Cy:100,Dee:100")):
        button = seats[:seats.index(":")]
        assert run(db, "hand", "start", "--hand", hand, "--session", "x", "--game", "NT",
                   "--stakes", "1/2", "--button", button, "--seats", seats).exit_code == 0
    return db


def test_hand_start_names_every_hand_in_play_and_what_ends_each(tmp_path: Path) -> None:
    """h1 seats Ann and Bob, h2 Cy and Dee, both in play: h3 seating Ann and Cy is refused
    naming Ann in h1 first, then Cy in h2, each hand with what ends it and one void of both.
    Once h1 is played to where it can end (Bob, the big blind, wins it when Ann folds her
    small blind of 1), the refusal names `act h1 end` for it;
    once h1 ended, h2 alone is named; with h2 voided, h3 starts (Ann 99, Cy 100)."""
    db = _two_hands_in_play(tmp_path / "t.duckdb")
    before = rows(db)
    h3 = ("hand", "start", "--hand", "h3", *NT, "--seats", "Ann:99,Cy:100")
    both = "or void them (`handledger void h1 h2 --reason … --by …`)"
    assert refused(run(db, *h3)) == _in_play(
        "h3", "Ann", "h1", more="; Cy in hand h2",
        fix=f"end them first (h1: play it out and end it; h2: play it out and end it) {both}")
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann f"):
        assert run(db, "act", "h1", action).exit_code == 0, action
    assert refused(run(db, *h3)) == _in_play(
        "h3", "Ann", "h1", more="; Cy in hand h2",
        fix=f"end them first (h1: `handledger act h1 end`; h2: play it out and end it) {both}")
    assert run(db, "act", "h1", "end").exit_code == 0
    assert refused(run(db, *h3)) == _in_play("h3", "Cy", "h2")
    assert rows(db) == [*before, *[("h1", n, t) for n, t in (
        (4, "cards_dealt"), (5, "cards_dealt"), (6, "fold"), (7, "hand_ended"))]]
    _void(db, "h2")
    done = run(db, *h3)
    assert (done.exit_code, done.stdout, done.stderr) == (0, "h3\n", "")


def test_hand_start_names_a_hand_at_its_payout_beside_another_in_play(tmp_path: Path) -> None:
    """h1: Ann (aces) and Bob (kings) all in for 100, the board dealt, Ann paid 100 of the pot
    of 200: its end waits for the other 100 to be paid. h2 seats Cy and Dee, its blinds
    alone. h3 seating Ann and Dee is refused naming h1's payout before its end, h2 played
    out, and one void of both; nothing written."""
    db = _two_hands_in_play(tmp_path / "t.duckdb")
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 100", "Bob cc", "d db 2c3d4h",
                   "d db 9s", "d db Td", "pay Ann 100"):
        assert run(db, "act", "h1", action).exit_code == 0, action
    before = rows(db)
    h3 = ("hand", "start", "--hand", "h3", *NT, "--seats", "Ann:100,Dee:100")
    assert refused(run(db, *h3)) == _in_play(
        "h3", "Ann", "h1", more="; Dee in hand h2",
        fix="end them first (h1: pay its pots, then `handledger act h1 end`; h2: play it out "
            "and end it) or void them (`handledger void h1 h2 --reason … --by …`)")
    assert rows(db) == before


@pytest.mark.parametrize(("seats", "name"), [
    ("Ann :99,Bob:100", "Ann "), ("Ann:99, Bob:100", " Bob"), ("Ann:99,Bob :100", "Bob ")])
def test_a_seat_name_with_whitespace_round_it_is_refused_never_stripped(
        aliased: Path, tmp_path: Path, seats: str, name: str) -> None:
    """README: a player name with leading or trailing whitespace is refused, never stripped
    (``buyin x " Bob" 5`` is); a --seats item is NAME:STACK split by a comma alone."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "hand", "start", "--hand", "h9", *NT, "--seats", seats)) == (
        f"error: --seats: player name {name!r} has leading or trailing whitespace: names are "
        f"kept as typed, never stripped (write {name.strip()!r}; the items are NAME:STACK "
        "split by a comma alone, \"Ann:200,Bob:150\")")
    assert rows(db) == before
