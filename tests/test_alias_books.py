"""An alias in the book commands, as a host at the table met it: after ``player alias Robert
Bob`` the books' checks take Robert and Bob as one player, exactly as the audit, ``balances``
and ``settle`` do (``replay.sessions.state.series_names``, resolved as
``ledger.audit.books.resolve_aliases``); ``hand start`` names every hand still in play that
seats a player, not only his latest; ``--seats`` takes a name as typed, never stripped.

``aliased``: session x, Ann and Bob buy in 100 each (entries 2, 3), ``player alias Robert
Bob`` (entry 4); hand h1 seats Ann:100,Bob:100 (button Ann) and is still in play.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import open_s, refused, rows, run

NT = ("--session", "x", "--game", "NT", "--stakes", "1/2", "--button", "Ann")


def _in_play(player: str, hand: str) -> str:
    return (f"warning: {player} is seated in hand {hand} of session x, still in play (end it: "
            f"`handledger act {hand} end`, or void it)")


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


def test_a_hand_seating_the_alias_names_the_hand_in_play_under_the_other_name(
        aliased: Path, tmp_path: Path) -> None:
    """h1 seats Bob and is in play: h2 seating Robert names Robert in h1, as it names Ann."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    result = run(db, "hand", "start", "--hand", "h2", *NT, "--seats", "Ann:100,Robert:100")
    assert (result.exit_code, result.stdout) == (0, "h2\n")
    assert result.stderr.splitlines() == [_in_play("Robert", "h1"), _in_play("Ann", "h1")]


def test_a_book_entry_under_the_alias_waits_for_the_hand_of_the_other_name(
        aliased: Path, tmp_path: Path) -> None:
    """Robert is Bob, seated in h1 still in play: no buy-in nor cash-out of him now."""
    db = copy_ledger(aliased, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "buyin", "x", "Robert", "5")) == (
        "error: Robert is seated in hand h1 of session x, which is still open: no buy-in now "
        "(chips are added only between a showdown and the next deal, RULES.md §1.1); record "
        "it once the hand ends (`handledger act h1 end`) or is voided")
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
    again = ("error: Robert already cashed out 50 chips in x (no buy-in since); a wrong count "
             "is amended: `handledger entry amend x SEQ CHIPS --reason … --by …` (`handledger "
             "history --session x` lists the entries)")
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


def test_hand_start_names_every_hand_in_play_not_only_the_latest(tmp_path: Path) -> None:
    """Ann sits in h1 (still in play) and h2 (ended): h3 names her in h1 as it names Bob,
    each hand that seats them still in play named."""
    db = tmp_path / "t.duckdb"
    open_s(db, "x", "Ann", "Bob", "Cy")
    assert run(db, "hand", "start", "--hand", "h1", *NT, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    h2 = run(db, "hand", "start", "--hand", "h2", *NT, "--seats", "Ann:100,Cy:100")
    assert h2.stderr.splitlines() == [_in_play("Ann", "h1")]
    for action in ("d dh Cy ????", "d dh Ann ????", "Ann f", "returned Cy 1", "pay Cy 2",
                   "end"):
        assert run(db, "act", "h2", action).exit_code == 0, action
    h3 = run(db, "hand", "start", "--hand", "h3", *NT, "--seats", "Ann:99,Bob:100")
    assert (h3.exit_code, h3.stdout) == (0, "h3\n")
    assert h3.stderr.splitlines() == [_in_play("Bob", "h1"), _in_play("Ann", "h1")]
    h4 = run(db, "hand", "start", "--hand", "h4", *NT, "--seats", "Ann:99,Bob:100")
    assert h4.stderr.splitlines() == [_in_play("Bob", "h1"), _in_play("Ann", "h1"),
                                      _in_play("Bob", "h3"), _in_play("Ann", "h3")]


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
