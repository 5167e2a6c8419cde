"""A live hand against the session's books, as a new user met the gaps: a stack that does not
follow the books once a rebuy is recorded, a cash-out into a closed session, a buy-in retracted
from under the hands that seat its player, an undo of a void that puts players in two hands at
once. Each refusal is one line, exit 2, nothing written; each warning names what to record.

``night``: session s (plain chips), Ann and Bob buy in 100 each; hand x1: Ann's aces beat
Bob's kings all in, Ann is paid 200: Ann 200, Bob 0 after it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import open_s, refused, rows, run

SEATS = ("--session", "s", "--game", "NT", "--stakes", "1/2", "--button", "Ann")
ALL_IN = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 100", "Bob cc", "d db 2c3d4h", "d db 9s",
          "d db Td", "pay Ann 200", "end")


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    db = tmp_path_factory.mktemp("night") / "t.duckdb"
    open_s(db, "s", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "x1", *SEATS, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    for action in ALL_IN:
        assert run(db, "act", "x1", action).exit_code == 0, action
    return db


def _start(db: Path, hand: str, seats: str) -> tuple[int, list[str]]:
    result = run(db, "hand", "start", "--hand", hand, *SEATS, "--seats", seats)
    assert result.stdout == (f"{hand}\n" if result.exit_code == 0 else "")
    return result.exit_code, result.stderr.splitlines()


def _void(db: Path, hand: str) -> None:
    assert run(db, "void", hand, "--reason", "test", "--by", "host").exit_code == 0


def test_a_stack_that_does_not_follow_a_recorded_rebuy_is_warned_of(night: Path,
                                                                   tmp_path: Path) -> None:
    """Bob left x1 with 0 and rebuys 100: 150 is 50 more than the books give him (the audit
    says +50 once the hand is in), 100 starts without a word; his rebuy amended to 150, 150
    does."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100", "--kind", "rebuy").exit_code == 0  # entry 4
    assert _start(db, "x2", "Ann:200,Bob:150") == (0, [
        "warning: Bob starts hand x2 with 150 chips, 100 by the books (0 after hand x1 and 100 "
        "bought since): a rebuy not recorded? (`handledger buyin s Bob CHIPS --before x2`: "
        "the books count it before this hand); the audit's stack continuity will name it"])
    audit = run(db, "audit", "--session", "s").stdout
    assert ("hand x2: Bob starts with 150 but Bob left hand x1 with 0 and bought 100 since: "
            "expected 100 (+50)") in audit
    _void(db, "x2")
    assert _start(db, "x3", "Ann:200,Bob:100") == (0, [])
    _void(db, "x3")
    assert _start(db, "x4", "Ann:200,Bob:40") == (0, [
        "warning: Bob starts hand x4 with 40 chips, 100 by the books (0 after hand x1 and 100 "
        "bought since): a stack counted short?; the audit's stack continuity will name it"])
    _void(db, "x4")
    assert run(db, "entry", "amend", "s", "4", "150", "--reason", "it was 150", "--by", "host"
               ).exit_code == 0
    assert _start(db, "x5", "Ann:200,Bob:150") == (0, [])


def test_a_stack_after_a_cash_out_and_a_new_buy_in_follows_the_new_buy_in(
        night: Path, tmp_path: Path) -> None:
    """Ann cashes out her 200 after x1 and buys in 50 again: her stack is 50, not 250."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    for args in (("buyin", "s", "Bob", "100"), ("cashout", "s", "Ann", "200"),
                 ("buyin", "s", "Ann", "50")):
        assert run(db, *args).exit_code == 0
    assert _start(db, "x2", "Ann:200,Bob:100") == (0, [
        "warning: Ann starts hand x2 with 200 chips, 50 by the books (Ann cashed out after hand "
        "x1 and bought 50 since): a rebuy not recorded? (`handledger buyin s Ann CHIPS "
        "--before x2`: the books count it before this hand); the audit's stack continuity "
        "will name it"])
    _void(db, "x2")
    assert _start(db, "x3", "Ann:50,Bob:100") == (0, [])


def test_a_cash_out_into_a_closed_session_needs_closed(night: Path, tmp_path: Path) -> None:
    """Ann cashes out 200, Bob 0, the session closes (entry 7) with Dee's 50 still on the
    table: Dee's cash-out then changes the settled books, as an amendment does: refused
    without --closed, nothing written; with it, entry 8."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    for args in (("buyin", "s", "Dee", "50"), ("cashout", "s", "Ann", "200"),
                 ("cashout", "s", "Bob", "0"), ("session", "close", "s")):
        assert run(db, *args).exit_code == 0, args
    before = rows(db)
    assert refused(run(db, "cashout", "s", "Dee", "50")) == (
        "error: session s is closed (entry 7; its books were settled up at the close): a "
        "cash-out of Dee changes them; nothing written; --closed records it anyway")
    assert rows(db) == before
    done = run(db, "cashout", "s", "Dee", "50", "--closed")
    assert (done.exit_code, done.stdout) == (0, "s: Dee cashed out 50 chips (entry 8)\n")
    assert rows(db)[len(before):] == [("session:s", 8, "cash_out")]


def test_the_last_buy_in_of_a_seated_player_is_not_retracted(night: Path,
                                                             tmp_path: Path) -> None:
    """x1 seats Bob, whose one buy-in is entry 3: retracting it would leave x1 starting him
    with 100 nobody bought (the audit's "has no buy-in"), so it is refused naming x1. Dee
    (entry 4) sits in x2 (played), x3 (voided: it counts for nothing) and x4 (in play): the
    refusal names x2 and x4. Eve, bought in and never seated, is retracted as before."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    for args in (("buyin", "s", "Dee", "50"), ("buyin", "s", "Eve", "10")):
        assert run(db, *args).exit_code == 0, args
    for hand in ("x2", "x3", "x4"):
        assert _start(db, hand, "Ann:200,Dee:50")[0] == 0
        if hand == "x2":
            for action in ("d dh Ann ????", "d dh Dee ????", "Ann f", "end"):
                assert run(db, "act", hand, action).exit_code == 0, action
        elif hand == "x3":
            _void(db, hand)
    before = rows(db)
    by = ("--reason", "never", "--by", "host")
    assert refused(run(db, "entry", "retract", "s", "3", *by)) == (
        "error: entry retract s 3 (buy-in of Bob, 100 chips): it is all Bob bought in session "
        "s, and hand x1 seats Bob: it would start Bob with chips nobody bought; nothing "
        "written (a wrong amount is amended: `handledger entry amend s 3 CHIPS --reason … --by "
        "…`; a hand seated by mistake is voided first)")
    assert refused(run(db, "entry", "retract", "s", "4", *by)).startswith(
        "error: entry retract s 4 (buy-in of Dee, 50 chips): it is all Dee bought in session "
        "s, and hands x2, x4 seat Dee: they would start Dee with chips nobody bought; nothing "
        "written")
    assert rows(db) == before
    done = run(db, "entry", "retract", "s", "5", *by)
    assert (done.exit_code, done.stdout) == (0, "s: entry 5 (buy-in of Eve) retracted\n")


def test_a_hand_of_no_session_while_its_players_sit_in_one_is_warned_of(
        night: Path, tmp_path: Path) -> None:
    """Ann and Bob are bought in to s (open): a hand of theirs started without --session is
    warned of, naming s and how to record it there; voided, ``hand again`` records its
    events in s as n2 (Bob's 100 bought after x1: no warning), in play as n1 was, n1 left
    as it is. Ann with Cy, who is in no session's books, is not warned of; nor Ann and Bob
    once s is closed."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100", "--kind", "rebuy").exit_code == 0
    result = run(db, "hand", "start", "--hand", "n1", "--game", "NT", "--stakes", "1/2",
                 "--button", "Ann", "--seats", "Ann:200,Bob:100")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "n1\n", (
        "warning: hand n1 is in no session, while session s is open with every player of it "
        "bought in: a hand of no session counts in no session's books; to record it in s, "
        "void it (`handledger void n1 --reason \"no session\" --by NAME`) and record it "
        "again there (`handledger hand again n1 --session s`)\n"))
    assert run(db, "act", "n1", "d dh Ann ????").exit_code == 0
    result = run(db, "hand", "again", "n1", "--session", "s", "--hand", "n2")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand n1 is not voided: recorded again it would count twice; void it first "
        "(`handledger void n1 --reason … --by …`), then record it again\n"))
    _void(db, "n1")
    result = run(db, "hand", "again", "n1", "--session", "s", "--hand", "n2")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "n2\n", "")
    # n1 stays voided as recorded; n2 holds its events up to the void, in s, still in play
    assert [r for r in rows(db) if r[0] in ("n1", "n2")] == [
        ("n1", 1, "hand_started"), ("n1", 2, "forced_bet"), ("n1", 3, "forced_bet"),
        ("n1", 4, "cards_dealt"), ("n1", 5, "hand_voided"),
        ("n2", 1, "hand_started"), ("n2", 2, "forced_bet"), ("n2", 3, "forced_bet"),
        ("n2", 4, "cards_dealt")]
    sessions = run(db, "sql", "SELECT hand_id, session FROM events WHERE hand_id IN ('n1',"
                   " 'n2') AND seq = 1 ORDER BY hand_id", "--json")
    assert json.loads(sessions.stdout) == [{"hand_id": "n1", "session": None},
                                           {"hand_id": "n2", "session": "s"}]
    assert run(db, "act", "n2", "d dh Bob ????").exit_code == 0
    # n2, played on since, holds n1 already: a second copy would count it twice
    result = run(db, "hand", "again", "n1", "--session", "s")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand n1 is recorded again already, as hand n2: a second copy would count it "
        "twice (void n2 first to record it elsewhere: `handledger void n2 --reason … --by "
        "…`)\n"))
    _void(db, "n2")
    result = run(db, "hand", "start", "--hand", "n3", "--game", "NT", "--stakes", "1/2",
                 "--button", "Ann", "--seats", "Ann:200,Cy:100")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "n3\n", "")
    _void(db, "n3")
    for args in (("cashout", "s", "Ann", "200"), ("cashout", "s", "Bob", "100"),
                 ("session", "close", "s")):
        assert run(db, *args).exit_code == 0, args
    result = run(db, "hand", "start", "--hand", "n4", "--game", "NT", "--stakes", "1/2",
                 "--button", "Ann", "--seats", "Ann:200,Bob:100")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "n4\n", "")


def test_a_rebuy_forgotten_at_the_table_is_recorded_before_its_hand(night: Path,
                                                                    tmp_path: Path) -> None:
    """Bob left x1 with 0 and x2 seats him with 100 he rebought but nobody recorded. Ann, on
    the button, folds her small blind: Ann 199, Bob 101. The rebuy recorded after x2 counts
    only for the hands after it (x2's finding stays and x3's start would be off by 100), so
    the warning names `--before x2`, which the books count just before x2 starts: the audit
    is clean, x3 starts on 199 and 101 without a word, and the nets are the hands' (Ann +100
    in x1, -1 in x2: +99)."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert _start(db, "x2", "Ann:200,Bob:100") == (0, [
        "warning: Bob starts hand x2 with 100 chips, 0 after hand x1 with nothing bought since: "
        "a rebuy not recorded? (`handledger buyin s Bob CHIPS --before x2`: the books count it "
        "before this hand); the audit's stack continuity will name it"])
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann f", "end"):
        assert run(db, "act", "x2", action).exit_code == 0, action
    done = run(db, "buyin", "s", "Bob", "100", "--before", "x2")
    assert (done.exit_code, done.stdout, done.stderr) == (
        0, "s: Bob rebuy 100 chips before hand x2 (entry 4)\n", "")
    assert run(db, "audit", "--session", "s").stdout.splitlines()[-1].startswith(
        "audit clean: 2 hand(s) in 1 session(s)")
    assert run(db, "balances", "--session", "s").stdout.splitlines()[1:] == [
        "Ann                      99          100            0      2        1",
        "Bob                     -99          200            0      2        1"]
    assert run(db, "settle", "--session", "s").stdout == (
        "Bob pays Ann 99 chips\n1 transfer(s) settle 2 player(s)\n")
    # amended, the rebuy still counts before x2, the first hand after it that seats Bob:
    # lowered below x2's 100, refused; raised above it, warned of
    assert refused(run(db, "entry", "amend", "s", "4", "90", "--reason", "r", "--by", "h")) == (
        "error: entry amend s 4 (buy-in of Bob): 90 chips: hand x2 seats Bob with 100 chips, "
        "and Bob left hand x1 with 0 and would have bought 90 since: it would start Bob with 10 "
        "chips nobody bought (RULES.md §1.1); nothing written (a hand seated with the wrong "
        "stack is corrected or voided first; `handledger history --session s` lists the "
        "entries)")
    amended = run(db, "entry", "amend", "s", "4", "150", "--reason", "r", "--by", "h")
    assert (amended.exit_code, amended.stdout, amended.stderr) == (
        0, "s: entry 4 (buy-in of Bob) amended: 100 → 150 chips\n",
        "warning: entry 4 (buy-in of Bob, 150 chips): hand x2 seats Bob with 100 chips, but "
        "Bob left hand x1 with 0 and bought 150 since: expected 150 (-50); the books no longer "
        "follow the hands' stacks, and the audit's stack_continuity will name it; a wrong "
        "amount is amended again (`handledger entry amend s 4 100 --reason … --by …`)\n")
    assert run(db, "entry", "amend", "s", "4", "100", "--reason", "r", "--by", "h").stdout == (
        "s: entry 4 (buy-in of Bob) amended: 150 → 100 chips\n")
    assert _start(db, "x3", "Ann:199,Bob:101") == (0, [])


def test_a_rebuy_before_a_hand_names_a_hand_of_its_session(night: Path, tmp_path: Path) -> None:
    """`--before` names a hand of the buy-in's session: one the ledger does not hold, one of
    session t and one of no session are each refused in one line, nothing written; so is
    `--closed` on session s, which is open."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    open_s(db, "t", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "t1", *SEATS[2:], "--session", "t", "--seats",
               "Ann:100,Bob:100").exit_code == 0
    assert run(db, "hand", "start", "--hand", "n1", "--game", "NT", "--stakes", "1/2",
               "--button", "Cy", "--seats", "Cy:100,Dee:100").exit_code == 0
    before = rows(db)
    for hand, why in (("x9", "no hand 'x9' in the ledger (--before names a hand of session s)"),
                      ("t1", "hand t1 is of session t, not of session s: a buy-in counts "
                             "before a hand of its own session"),
                      ("n1", "hand n1 is of no session, not of session s: a buy-in counts "
                             "before a hand of its own session")):
        assert refused(run(db, "buyin", "s", "Bob", "100", "--before", hand)) == (
            f"error: buyin s Bob --before {hand}: {why}; nothing written")
    assert refused(run(db, "buyin", "s", "Bob", "100", "--closed")) == (
        "error: buyin s Bob --closed: --closed goes with --before HAND (a buy-in made before a "
        "hand of the closed session); nothing written")
    assert refused(run(db, "buyin", "s", "Bob", "100", "--before", "x1", "--closed")) == (
        "error: buyin s Bob --before x1 --closed: session s is open: --closed is for a closed "
        "session's books; nothing written (leave out --closed)")
    assert rows(db) == before


@pytest.mark.parametrize(("args", "typed"), [
    (("cashout", "s", "Ann", "200", "--closed"), "cashout s Ann 200"),
    (("entry", "amend", "s", "2", "150", "--reason", "r", "--by", "h", "--closed"),
     "entry amend s 2 150"),
    (("entry", "retract", "s", "3", "--reason", "r", "--by", "h", "--closed"),
     "entry retract s 3"),
    (("session", "set", "s", "--chip-value", "0.25", "--closed"), "session set s"),
    (("session", "void", "s", "--reason", "r", "--by", "h", "--closed"), "session void s"),
    (("act", "x1", "end", "--closed"), "act x1 'end'"),
    (("correct", "x1", "--replace", "16", "pay Bob 200", "--reason", "r", "--by", "h",
      "--closed"), "correct x1"),
    (("void", "x1", "--reason", "r", "--by", "h", "--closed"), "void x1"),
    (("undo", "x1", "--by", "h", "--closed"), "undo x1"),
])
def test_closed_on_an_open_session_is_refused_as_for_a_buy_in(night: Path, tmp_path: Path,
                                                              args: tuple, typed: str) -> None:
    """Every command taking `--closed`, of the books or of a hand (x1, of session s), refuses
    it on session s, which is open, as `buyin --before x1 --closed` does: one line naming the
    session, nothing written."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, *args)) == (
        f"error: {typed} --closed: session s is open: --closed is for a closed session's "
        "books; nothing written (leave out --closed)")
    assert rows(db) == before


def test_closed_voids_hands_of_open_sessions_only_beside_a_closed_one(night: Path,
                                                                     tmp_path: Path) -> None:
    """`void x1 t1 --closed`, x1 of session s and t1 of session t, both open: refused in one
    line naming s, nothing written; once s is closed (Ann 200, Bob 0 cashed out), the flag
    lets x1 in and t1 goes with it, both voided in one write: x1 gives each his 100 back
    (Ann's net of +100 goes), t1 its blinds (Ann's small blind 1, Bob's big blind 2)."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    open_s(db, "t", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "t1", *SEATS[2:], "--session", "t", "--seats",
               "Ann:100,Bob:100").exit_code == 0
    before = rows(db)
    void = ("void", "x1", "t1", "--reason", "r", "--by", "h", "--closed")
    assert refused(run(db, *void)) == (
        "error: void x1 t1 --closed: session s is open: --closed is for a closed session's "
        "books; nothing written (leave out --closed)")
    assert rows(db) == before
    for args in (("cashout", "s", "Ann", "200"), ("cashout", "s", "Bob", "0"),
                 ("session", "close", "s")):
        assert run(db, *args).exit_code == 0, args
    assert run(db, *void).stdout.splitlines()[:2] == [
        "voided hand x1: returned Bob 100, Ann 100; change in net: Bob +100, Ann -100; by the "
        "rules: Bob +100, Ann -100",
        "voided hand t1: returned Bob 2, Ann 1; change in net: Bob +2, Ann +1; by the rules: "
        "Bob +2, Ann +1"]


def test_a_closed_session_takes_a_rebuy_before_its_hand_with_closed(night: Path,
                                                                    tmp_path: Path) -> None:
    """x2 seated Bob with the 100 he rebought after x1 (Ann calls her small blind, Bob folds:
    Ann 202, Bob 98), the session closed before the cash-outs, and only then the rebuy is
    found missing (the table held 300 chips, the books 200). `buyin` names `--before HAND --closed`;
    without `--closed` the rebuy is refused naming it; with it, it goes in saying it moves no
    net, and the cash-outs of 202 and 98 (`--closed`) leave the audit clean. Its JSON-lines
    export imports into a fresh ledger with the rebuy where it was made, clean there too."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert _start(db, "x2", "Ann:200,Bob:100")[0] == 0
    for args in (*(("act", "x2", a) for a in ("d dh Ann ????", "d dh Bob ????", "Ann cc",
                                              "Bob f", "end")),
                 ("session", "close", "s")):
        assert run(db, *args).exit_code == 0, args
    assert [ln.split(":")[0] for ln in run(db, "audit", "--session", "s").stdout.splitlines()
            ] == ["stack_continuity", "session_balance", "session_balance", "audit"]
    # Bob lost 102 (100 in x1, 2 in x2) of the 100 the books give him: settle names the
    # command that records the rebuy in a closed session
    assert refused(run(db, "settle", "--session", "s")) == (
        "error: cannot settle: Bob lost 102 chips in session s, more than Bob's buy-ins there "
        "(100 chips): a hand seats Bob with chips never bought, and nobody pays more than the "
        "chips put on the table (RULES.md §1.1; `pay` refuses it): `handledger audit --session "
        "s` names the hand (a buy-in not recorded: `handledger buyin s Bob CHIPS --before HAND "
        "--closed`, or `entry amend` of the buy-in; a stack typed wrong: `handledger "
        "correct`); then run `handledger settle` again")
    before = rows(db)
    assert refused(run(db, "buyin", "s", "Bob", "100")) == (
        "error: session 's' is closed: it takes no more hands or buy-ins (one made before a hand "
        "of it and not recorded then: `handledger buyin s Bob 100 --before HAND --closed`; "
        "payments still go in; a cash-out or a correction of its entries with --closed)")
    assert refused(run(db, "buyin", "s", "Bob", "100", "--before", "x2")) == (
        "error: session s is closed (entry 4; its books were settled up at the close): a buy-in "
        "of Bob before hand x2 changes them; nothing written; --closed records it anyway")
    assert rows(db) == before
    done = run(db, "buyin", "s", "Bob", "100", "--before", "x2", "--closed")
    assert (done.exit_code, done.stdout, done.stderr) == (
        0, "s: Bob rebuy 100 chips before hand x2 (entry 5)\n",
        "note: session s is closed: this rebuy moves no player's net (nets go by the hands): "
        "Bob's buy-ins there come to 200 chips (were 100) before hand x2\n")
    assert [ln.split(":")[0] for ln in run(db, "audit", "--session", "s").stdout.splitlines()
            ] == ["session_balance", "session_balance", "audit"]  # the stacks follow now
    assert run(db, "settle", "--session", "s").stdout == (
        "Bob pays Ann 102 chips\n1 transfer(s) settle 2 player(s)\n")
    for player, chips in (("Ann", "202"), ("Bob", "98")):
        assert run(db, "cashout", "s", player, chips, "--closed").exit_code == 0
    assert run(db, "audit", "--session", "s").stdout.splitlines()[-1].startswith(
        "audit clean: 2 hand(s) in 1 session(s)")
    export, fresh = tmp_path / "s.jsonl", tmp_path / "fresh.duckdb"
    assert run(db, "export", "-o", str(export)).exit_code == 0
    assert export.read_text().splitlines()[-3] == (
        '{"session":"s","seq":5,"event":{"before":"x2","chips":100,"kind":"rebuy",'
        '"player":"Bob","schema_version":1,"type":"buy_in"}}')
    assert run(fresh, "import", str(export)).exit_code == 0
    assert run(fresh, "audit", "--session", "s").stdout.splitlines()[-1].startswith(
        "audit clean: 2 hand(s) in 1 session(s)")


def test_a_rebuy_before_a_hand_comes_before_a_cash_out_after_it(night: Path,
                                                                tmp_path: Path) -> None:
    """Ann folds her small blind in x2: Ann 199, Bob 101, and Bob cashes out his 101. The
    rebuy x2 seated him with, recorded then as made before x2, counts before the cash-out as
    well: he has no chips at the table after it, so a second cash-out is refused as any
    other, and Ann's 199 leaves the audit clean."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert _start(db, "x2", "Ann:200,Bob:100")[0] == 0
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann f", "end"):
        assert run(db, "act", "x2", action).exit_code == 0, action
    for args, line in ((("cashout", "s", "Bob", "101"), "s: Bob cashed out 101 chips (entry 4)"),
                       (("buyin", "s", "Bob", "100", "--before", "x2"),
                        "s: Bob rebuy 100 chips before hand x2 (entry 5)")):
        done = run(db, *args)
        assert (done.exit_code, done.stdout) == (0, f"{line}\n")
    assert refused(run(db, "cashout", "s", "Bob", "5")) == (
        "error: Bob already cashed out 101 chips in s (entry 4, no buy-in since); a wrong count "
        "is amended: `handledger entry amend s 4 CHIPS --reason … --by …`")
    assert run(db, "cashout", "s", "Ann", "199").exit_code == 0
    assert run(db, "audit", "--session", "s").stdout.splitlines()[-1].startswith(
        "audit clean: 2 hand(s) in 1 session(s)")


def test_the_rebuy_the_warning_names_goes_in_while_its_hand_is_in_play(night: Path,
                                                                       tmp_path: Path) -> None:
    """The host reads hand x2's warning and types the command it names at once, x2 still in
    play: a plain `buyin` is refused (chips come only between hands), naming x2's start of
    Bob 100 over the books' 0 and the `--before x2` that records it, which goes in,
    counted before x2, which then plays out with the audit clean (Ann folds: Ann 199, Bob
    101)."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert _start(db, "x2", "Ann:200,Bob:100")[0] == 0
    assert refused(run(db, "buyin", "s", "Bob", "100")) == (
        "error: Bob is seated in hand x2 of session s, which is still open: no buy-in now "
        "(chips are added only between a showdown and the next deal, RULES.md §1.1); hand x2 "
        "starts Bob with 100 chips, 100 more than the books give (0 after hand x1 with nothing "
        "bought since): a rebuy made before hand x2, which that stack counts, is recorded with "
        "`handledger buyin s Bob 100 --before x2`; one made during it, once the hand ends "
        "(`handledger act x2 end`) or is voided")
    assert run(db, "buyin", "s", "Bob", "100", "--before", "x2").stdout == (
        "s: Bob rebuy 100 chips before hand x2 (entry 4)\n")
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann f", "end"):
        assert run(db, "act", "x2", action).exit_code == 0, action
    assert run(db, "audit", "--session", "s").stdout.splitlines()[-1].startswith(
        "audit clean: 2 hand(s) in 1 session(s)")
    assert run(db, "standings").stdout.splitlines()[1:] == [
        "Ann                99           99", "Bob               -99          -99",
        "(sum)               0            0"]


def test_a_stack_short_of_the_books_names_the_buy_in_not_a_rebuy(night: Path,
                                                                  tmp_path: Path) -> None:
    """Bob left x1 with 0; his rebuy of 100 is entered twice (entries 4, 5) and x2 seats him
    with 100: the books give him 200, x2 starts him -100. Settle's note names `entry retract` /
    `entry amend` of the buy-in (a rebuy would only make it worse) and the hand's start, and
    balances and standings say it too (not with --json); the entry retracted, the note is
    gone from all three. Bob pays Ann 100 (x1) less 1 (x2: Ann folds her small
    blind to his big blind)."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    for _ in range(2):
        assert run(db, "buyin", "s", "Bob", "100").exit_code == 0
    assert _start(db, "x2", "Ann:200,Bob:100")[0] == 0
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann f", "end"):
        assert run(db, "act", "x2", action).exit_code == 0, action
    settle = run(db, "settle", "--session", "s")
    assert (settle.exit_code, settle.stdout) == (
        0, "Bob pays Ann 99 chips\n1 transfer(s) settle 2 player(s)\n")
    off = [
        "note: session s: hands start with stacks its books did not leave (Bob -100 chips); "
        "settle goes by the hands: `handledger audit --session s` names each (a buy-in "
        "recorded wrong (too many chips, or entered twice): `handledger entry amend s SEQ "
        "CHIPS --reason … --by …` or `handledger entry retract s SEQ --reason … --by …` "
        "(`handledger history --session s` lists the entries); or a stack typed wrong: its "
        "start replaced, `handledger correct HAND --replace 1 …`; or a hand before it not "
        "recorded (a log with hands missing): record or import it)"]
    assert settle.stderr.splitlines() == off
    for read in (("balances", "--session", "s"), ("balances",), ("standings",)):
        said = run(db, *read)  # the same note, in the same words, where settle says it
        assert (said.exit_code, said.stderr.splitlines()) == (0, off), read
    assert run(db, "standings", "--json").stderr == ""
    assert run(db, "entry", "retract", "s", "5", "--reason", "entered twice", "--by", "host"
               ).exit_code == 0
    again = run(db, "settle", "--session", "s")
    assert (again.stdout, again.stderr) == (
        "Bob pays Ann 99 chips\n1 transfer(s) settle 2 player(s)\n", "")
    for read in (("balances", "--session", "s"), ("standings",)):
        assert run(db, *read).stderr == "", read


def test_a_buy_in_kept_before_its_hand_lets_the_first_be_retracted(night: Path,
                                                                    tmp_path: Path) -> None:
    """Bob's buy-in of 100 (entry 3) bought x1's stack; recorded again as made before x1
    (entry 4, `--before x1`), the books give him 200 there. Retracting entry 3 leaves entry
    4, which counts before x1, buying the 100 x1 seats him with: it goes in, not refused as
    all Bob bought before x1, and the audit's stack continuity is clean."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100", "--before", "x1").exit_code == 0
    retracted = run(db, "entry", "retract", "s", "3", "--reason", "entered twice", "--by", "h")
    assert (retracted.exit_code, retracted.stdout, retracted.stderr) == (
        0, "s: entry 3 (buy-in of Bob) retracted\n", "")
    assert [ln.split(":")[0] for ln in run(db, "audit", "--session", "s").stdout.splitlines()
            if ln.startswith("stack_continuity")] == []


def test_a_rebuy_recorded_after_its_hand_is_put_right_before_it(night: Path,
                                                                tmp_path: Path) -> None:
    """As reported: x2 seats Bob with a rebuy of 100 nobody recorded (Ann folds: Ann 199, Bob
    101); recorded after x2 (entry 4), it counts only from x3 on, so x2 is off by +100 and x3,
    started on the 101 x2 left him, by -100; the session is closed. Settle's note names the
    command that works there, and the rebuy retracted and recorded again before x2 leaves
    the stacks followed (the cash-outs never recorded are the audit's last findings)."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert _start(db, "x2", "Ann:200,Bob:100")[0] == 0
    for args in (*(("act", "x2", a) for a in ("d dh Ann ????", "d dh Bob ????", "Ann f",
                                              "end")),
                 ("buyin", "s", "Bob", "100", "--kind", "rebuy")):
        assert run(db, *args).exit_code == 0, args
    assert _start(db, "x3", "Ann:199,Bob:101") == (0, [
        "warning: Bob starts hand x3 with 101 chips, 201 by the books (101 after hand x2 and "
        "100 bought since): a stack counted short?; the audit's stack continuity will name "
        "it"])
    for args in (*(("act", "x3", a) for a in ("d dh Ann ????", "d dh Bob ????", "Ann f",
                                              "end")), ("session", "close", "s")):
        assert run(db, *args).exit_code == 0, args
    found = [ln for ln in run(db, "audit", "--session", "s").stdout.splitlines()
             if ln.startswith("stack_continuity")]
    assert [ln.split(" [")[0] for ln in found] == [
        "stack_continuity: hand x2: Bob starts with 100 but Bob left hand x1 with 0 and bought "
        "nothing: expected 0 (+100)",
        "stack_continuity: hand x3: Bob starts with 101 but Bob left hand x2 with 101 and "
        "bought 100 since: expected 201 (-100)"]
    settle = run(db, "settle", "--session", "s")
    assert settle.stdout == "Bob pays Ann 98 chips\n1 transfer(s) settle 2 player(s)\n"
    assert settle.stderr.splitlines()[0] == (
        "note: session s: hands start with stacks its books did not leave (Bob +100 and -100 "
        "chips); settle goes by the hands: `handledger audit --session s` names each (a plus: "
        "a rebuy not recorded before the hand: `handledger buyin s PLAYER CHIPS --before HAND "
        "--closed` counts it before that hand; a minus: a buy-in recorded wrong (too many "
        "chips, or entered twice): `handledger entry amend s SEQ CHIPS --reason … --by … "
        "--closed` or `handledger entry retract s SEQ --reason … --by … --closed` (`handledger "
        "history --session s` lists the entries); or a stack typed wrong: its start replaced, "
        "`handledger correct HAND --replace 1 …`; or a hand before it not recorded "
        "(a log with hands missing): record or import it)")
    for args in (("entry", "retract", "s", "4", "--reason", "made before x2", "--by", "host",
                  "--closed"), ("buyin", "s", "Bob", "100", "--before", "x2", "--closed")):
        assert run(db, *args).exit_code == 0, args
    assert [ln.split(":")[0] for ln in run(db, "audit", "--session", "s").stdout.splitlines()
            ] == ["session_balance", "session_balance", "audit"]
    assert run(db, "settle", "--session", "s").stdout == (
        "Bob pays Ann 98 chips\n1 transfer(s) settle 2 player(s)\n")


NO_SESSION = ("--game", "NT", "--stakes", "1/2", "--button", "Ann")


def test_hand_again_names_the_copy_its_start_links_and_no_other_hand(night: Path,
                                                                    tmp_path: Path) -> None:
    """n1, started in no session as x1 was (Ann:100, Bob:100, the button Ann: its blinds
    the same as x1's first events), voided, is recorded again as h1 in s: x1 is not its
    copy, only a hand whose start names n1 is. Ann left x1 with 200 (100 − 100 + 200):
    h1 seats her with 100, warned of; Bob left it with 0 and rebought 100. Then a second
    copy, and the undo of n1's void, are refused naming h1, nothing written; h1 voided,
    n1's void is undone (Bob −2, Ann −1 again) and the undo of h1's void is refused naming
    n1."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100", "--kind", "rebuy").exit_code == 0
    result = run(db, "hand", "start", "--hand", "n1", *NO_SESSION, "--seats", "Ann:100,Bob:100")
    assert (result.exit_code, result.stdout) == (0, "n1\n")
    _void(db, "n1")
    result = run(db, "hand", "again", "n1", "--session", "s", "--hand", "h1")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "h1\n", (
        "warning: Ann starts hand h1 with 100 chips, 200 after hand x1 with nothing bought "
        "since: a stack counted short?; the audit's stack continuity will name it\n"))
    starts = run(db, "sql", "SELECT hand_id, payload->'source' AS source FROM events WHERE"
                 " type = 'hand_started' AND hand_id IN ('x1', 'n1', 'h1') ORDER BY position",
                 "--json")
    assert json.loads(starts.stdout) == [
        {"hand_id": "x1", "source": {}}, {"hand_id": "n1", "source": {}},
        {"hand_id": "h1", "source": {"again_of": "n1"}}]  # a JSON column nested
    before = rows(db)
    result = run(db, "hand", "again", "n1", "--session", "s")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand n1 is recorded again already, as hand h1: a second copy would count it "
        "twice (void h1 first to record it elsewhere: `handledger void h1 --reason … --by "
        "…`)\n"))
    result = run(db, "undo", "n1", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand n1: cannot undo the void at seq 4 (by host: test): it is recorded again "
        "as hand h1: the two would count it twice (void h1 first: `handledger void h1 "
        "--reason … --by …`)\n"))
    assert rows(db) == before
    _void(db, "h1")
    result = run(db, "undo", "n1", "--by", "host")
    assert (result.exit_code, result.stdout) == (0, (
        "undid the void at seq 4 (by host: test) in hand n1 (seq 5); change in net: Bob -2, "
        "Ann -1; by the rules: Bob -2, Ann -1\n"))
    before = rows(db)
    result = run(db, "undo", "h1", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand h1: cannot undo the void at seq 4 (by host: test): it records hand n1 "
        "again, which is not voided: the two would count it twice (void n1 first: "
        "`handledger void n1 --reason … --by …`)\n"))
    assert rows(db) == before


def test_a_hand_again_refused_names_the_hand_recorded_again(night: Path,
                                                             tmp_path: Path) -> None:
    """x2 (Ann 200, Bob 100 after his rebuy) is in play in s: n1 seating them in no session,
    voided, is refused in s by the words of ``hand start``, led by n1 and s (the new id,
    generated, was never shown); nothing written."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100", "--kind", "rebuy").exit_code == 0
    assert _start(db, "x2", "Ann:200,Bob:100") == (0, [])
    result = run(db, "hand", "start", "--hand", "n1", *NO_SESSION, "--seats", "Ann:200,Bob:100")
    assert (result.exit_code, result.stdout) == (0, "n1\n")
    _void(db, "n1")
    before = rows(db)
    result = run(db, "hand", "again", "n1", "--session", "s")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand n1, recorded again in s: Bob and Ann are seated in hand x2 of session s, "
        "still in play: a player's chips are in one hand at a time (RULES.md §1.1): play it "
        "out and end it first, or void it (`handledger void x2 --reason … --by …`); nothing "
        "written\n"))
    assert rows(db) == before


def test_a_voided_hand_is_not_a_first_hand_played(tmp_path: Path) -> None:
    """Cy and Dee buy in 100 each in t; x1 seats them and is voided: x2 is still Cy's first
    hand there, and 1000 is warned of as above his buy-ins, as without x1. x1's void undone
    instead (Cy, on the button, folds his small blind and x1 ends: Cy 99, Dee 101), x1 is
    his first hand: x2's 1000 is warned of against the 99 x1 left him."""
    db = tmp_path / "t.duckdb"
    open_s(db, "t", "Cy", "Dee")
    t = ("--session", "t", "--game", "NT", "--stakes", "1/2", "--button", "Cy")
    assert run(db, "hand", "start", "--hand", "x1", *t, "--seats", "Cy:100,Dee:100"
               ).exit_code == 0
    _void(db, "x1")
    undone = copy_ledger(db, tmp_path / "u.duckdb")
    result = run(db, "hand", "start", "--hand", "x2", *t, "--seats", "Cy:1000,Dee:100")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "x2\n", (
        "warning: Cy starts hand x2 with 1000 but Cy's buy-ins in session t come to 100\n"))
    assert run(undone, "undo", "x1", "--by", "host").exit_code == 0
    for action in ("d dh Cy ????", "d dh Dee ????", "Cy f", "end"):
        assert run(undone, "act", "x1", action).exit_code == 0, action
    result = run(undone, "hand", "start", "--hand", "x2", *t, "--seats", "Cy:1000,Dee:101")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "x2\n", (
        "warning: Cy starts hand x2 with 1000 chips, 99 after hand x1 with nothing bought "
        "since: a rebuy not recorded? (`handledger buyin t Cy CHIPS --before x2`: the books "
        "count it before this hand); the audit's stack continuity will name it\n"))


def test_a_hand_imported_voided_is_recorded_again_and_its_copy_keeps_the_link(
        tmp_path: Path) -> None:
    """n1, started in no session and voided, recorded again in s as h1, both exported as
    JSON lines: imported into a new ledger, h1 still names n1 (a second copy refused naming
    h1); n1 imported alone (its void written with it) is recorded again as h5, its events
    before the void: the start and the blinds."""
    db, out = tmp_path / "t.duckdb", tmp_path / "all.jsonl"
    open_s(db, "s", "Ann", "Bob")
    result = run(db, "hand", "start", "--hand", "n1", *NO_SESSION, "--seats", "Ann:100,Bob:100")
    assert (result.exit_code, result.stdout) == (0, "n1\n")
    _void(db, "n1")
    assert run(db, "hand", "again", "n1", "--session", "s", "--hand", "h1").stdout == "h1\n"
    assert run(db, "export", "--format", "jsonl", "-o", str(out)).exit_code == 0
    both, alone = tmp_path / "both.duckdb", tmp_path / "alone.duckdb"
    assert run(both, "import", str(out)).exit_code == 0
    result = run(both, "hand", "again", "n1", "--session", "s")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand n1 is recorded again already, as hand h1: a second copy would count it "
        "twice (void h1 first to record it elsewhere: `handledger void h1 --reason … --by "
        "…`)\n"))
    n1_only = tmp_path / "n1.jsonl"
    n1_only.write_text("".join(line for line in out.read_text().splitlines(keepends=True)
                               if '"h1"' not in line))
    assert run(alone, "import", str(n1_only)).exit_code == 0
    result = run(alone, "hand", "again", "n1", "--session", "s", "--hand", "h5")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "h5\n", "")
    assert [r for r in rows(alone) if r[0] in ("n1", "h5")] == [
        ("n1", 1, "hand_started"), ("n1", 2, "forced_bet"), ("n1", 3, "forced_bet"),
        ("n1", 4, "hand_voided"),
        ("h5", 1, "hand_started"), ("h5", 2, "forced_bet"), ("h5", 3, "forced_bet")]


def test_copies_of_copies_count_once(tmp_path: Path) -> None:
    """n1 (no session) voided, recorded again in s as h1; h1 voided, recorded again as h2:
    h2 holds n1's blinds, so n1's void is not undone nor n1 recorded again while h2 is in
    force. h2 voided and n1 recorded again as h3: the undo of h2's or h1's void is refused
    naming h3. h3 voided, n1's void undone (Bob -2, Ann -1): h2 is neither recorded again
    nor its void undone while n1 counts. Nothing written by a refusal."""
    db = tmp_path / "t.duckdb"
    open_s(db, "s", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "n1", *NO_SESSION, "--seats", "Ann:100,Bob:100"
               ).stdout == "n1\n"
    _void(db, "n1")
    assert run(db, "hand", "again", "n1", "--session", "s", "--hand", "h1").stdout == "h1\n"
    _void(db, "h1")
    assert run(db, "hand", "again", "h1", "--session", "s", "--hand", "h2").stdout == "h2\n"
    void = "`handledger void {0} --reason … --by …`"
    before = rows(db)
    assert refused(run(db, "undo", "n1", "--by", "host")) == (
        "error: hand n1: cannot undo the void at seq 4 (by host: test): it is recorded again "
        f"as hand h2: the two would count it twice (void h2 first: {void.format('h2')})")
    assert refused(run(db, "hand", "again", "n1", "--session", "s")) == (
        "error: hand n1 is recorded again already, as hand h2: a second copy would count it "
        f"twice (void h2 first to record it elsewhere: {void.format('h2')})")
    assert rows(db) == before
    _void(db, "h2")
    assert run(db, "hand", "again", "n1", "--session", "s", "--hand", "h3").stdout == "h3\n"
    before = rows(db)
    for hand in ("h2", "h1"):
        assert refused(run(db, "undo", hand, "--by", "host")) == (
            f"error: hand {hand}: cannot undo the void at seq 4 (by host: test): hand h3 "
            f"records the same hand as {hand} and is not voided: the two would count it twice "
            f"(void h3 first: {void.format('h3')})")
    assert rows(db) == before
    _void(db, "h3")
    assert run(db, "undo", "n1", "--by", "host").stdout == (
        "undid the void at seq 4 (by host: test) in hand n1 (seq 5); change in net: Bob -2, "
        "Ann -1; by the rules: Bob -2, Ann -1\n")
    before = rows(db)
    assert refused(run(db, "hand", "again", "h2", "--session", "s")) == (
        "error: hand h2 records hand n1 again, which is not voided: a second copy would count "
        f"it twice (void n1 first: {void.format('n1')})")
    assert refused(run(db, "undo", "h2", "--by", "host")) == (
        "error: hand h2: cannot undo the void at seq 4 (by host: test): it records hand n1 "
        f"again, which is not voided: the two would count it twice (void n1 first: "
        f"{void.format('n1')})")
    assert rows(db) == before


def test_a_rebuy_refused_in_play_names_before_the_hand_and_after_it(tmp_path: Path) -> None:
    """A host of a new session: Ann and Bob buy in 100 each; hand 1, Ann folds her small
    blind (Ann 99, Bob 101); hand 2 starts Ann with 149 (a rebuy of 50 made before it) and
    Bob with 101. `buyin fri Ann 50 --kind rebuy` is refused naming hand 2's start (149, 50
    more than the 99 hand 1 left her) and `--before 2`; the advice 'once the hand ends' alone
    left the audit at stack_continuity +50. Bob's buy-in, whose start follows the books, names
    both ways: made before hand 2, or during it. Nothing written; with `--before 2` the rebuy
    goes in, and hand 2 (Bob folds his small blind: Ann 150, Bob 100) audits clean, both
    even."""
    db = tmp_path / "t.duckdb"
    assert run(db, "session", "open", "fri", "--date", "2026-12-04", "--chip-value", "1",
               "--currency", "USD").exit_code == 0
    for player in ("Ann", "Bob"):
        assert run(db, "buyin", "fri", player, "100").exit_code == 0
    assert run(db, "hand", "start", "--session", "fri", "--hand", "1", "--game", "NT",
               "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    for action in ("d dh Bob ????", "d dh Ann ????", "Ann f", "pay Bob 3", "end"):
        assert run(db, "act", "1", action).exit_code == 0, action
    assert run(db, "hand", "start", "--session", "fri", "--hand", "2", "--game", "NT",
               "--stakes", "1/2", "--seats", "Ann:149,Bob:101", "--button", "Bob"
               ).exit_code == 0
    before = rows(db)
    assert refused(run(db, "buyin", "fri", "Ann", "50", "--kind", "rebuy")) == (
        "error: Ann is seated in hand 2 of session fri, which is still open: no buy-in now "
        "(chips are added only between a showdown and the next deal, RULES.md §1.1); hand 2 "
        "starts Ann with 149 chips, 50 more than the books give (99 after hand 1 with nothing "
        "bought since): a rebuy made before hand 2, which that stack counts, is recorded with "
        "`handledger buyin fri Ann 50 --kind rebuy --before 2`; one made during it, once the "
        "hand ends (`handledger act 2 end`) or is voided")
    assert refused(run(db, "buyin", "fri", "Bob", "20")) == (
        "error: Bob is seated in hand 2 of session fri, which is still open: no buy-in now "
        "(chips are added only between a showdown and the next deal, RULES.md §1.1); a rebuy "
        "made before hand 2 (its starting stack counts it): `handledger buyin fri Bob 20 "
        "--before 2`; one made during it: record it once the hand ends (`handledger act 2 "
        "end`) or is voided")
    assert rows(db) == before
    assert run(db, "buyin", "fri", "Ann", "50", "--kind", "rebuy", "--before", "2").stdout == (
        "fri: Ann rebuy 50 chips before hand 2 (entry 4)\n")
    for action in ("d dh Ann ????", "d dh Bob ????", "Bob f", "end"):
        assert run(db, "act", "2", action).exit_code == 0, action
    assert run(db, "audit", "--session", "fri").stdout.splitlines()[-1].startswith(
        "audit clean: 2 hand(s) in 1 session(s)")
    assert run(db, "standings").stdout.splitlines()[1:] == [
        "Ann                 0            0", "Bob                 0            0",
        "(sum)               0            0"]


def test_a_first_hand_above_the_buy_ins_names_them_in_the_refusal(tmp_path: Path) -> None:
    """Ann bought 100 and her first hand seats her with 150: a buy-in typed while it is in
    play is refused naming the 50 over her buy-ins (the books have no hand before it) and
    `--before 1`; nothing written."""
    db = tmp_path / "t.duckdb"
    open_s(db, "s", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "1", *SEATS, "--seats", "Ann:150,Bob:100"
               ).exit_code == 0
    before = rows(db)
    assert refused(run(db, "buyin", "s", "Ann", "50")) == (
        "error: Ann is seated in hand 1 of session s, which is still open: no buy-in now "
        "(chips are added only between a showdown and the next deal, RULES.md §1.1); hand 1 "
        "starts Ann with 150 chips, 50 more than the books give (100, Ann's buy-ins in the "
        "session): a rebuy made before hand 1, which that stack counts, is recorded with "
        "`handledger buyin s Ann 50 --before 1`; one made during it, once the hand ends "
        "(`handledger act 1 end`) or is voided")
    assert rows(db) == before
