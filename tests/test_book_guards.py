"""Guards on the books a fresh user walked past: each is one refused line (exit 2) with
nothing written, or the books saying what they hold, through the CLI on the README's night
(``tests.test_books_trust.NIGHT``: Bob owes Ann 37.50 USD at 0.25 USD a chip)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.built_once import snapshot
from tests.copies import build_ledger, copy_ledger
from tests.test_books_refusals import refused
from tests.test_books_trust import NIGHT


@pytest.fixture(scope="module")
def night_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ledger of the README's night (``NIGHT``), built once for the module."""
    return build_ledger(tmp_path_factory.mktemp("night") / "t.duckdb", NIGHT)


@pytest.fixture
def at_night(night_ledger: Path, db: str) -> None:
    """The test's ledger ``db`` (the one ``run`` uses): a copy of ``night_ledger``, as
    ``night(run)`` (tests/test_books_trust.py) on a new ledger leaves it."""
    copy_ledger(night_ledger, Path(db))


def _lines(result) -> list[str]:  # noqa: ANN001
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


# --- a closed session's unit, and the currency of recorded payments ---------------------


@pytest.mark.usefixtures("at_night")
def test_a_closed_sessions_unit_is_refused_unless_closed(run, db: str) -> None:  # noqa: ANN001
    assert _lines(run("pay", "friday", "Bob", "Ann", "37.50")) == [
        "friday: Bob paid Ann 37.50 USD (entry 9)"]
    assert _lines(run("session", "list"))[-1].endswith("closed, settled")
    before = snapshot(Path(db))
    assert refused(run("session", "set", "friday", "--chip-value", "0.50", "--currency",
                       "USD")) == (
        "error: session friday is closed (entry 8) and its books were settled up at 1 chip = "
        "0.25 USD: a new chip value or currency would change what is owed; nothing written; "
        "--closed records it anyway")
    assert snapshot(Path(db)) == before
    assert _lines(run("session", "list"))[-1].endswith("closed, settled")
    # said on purpose, it goes in, and the books follow: Bob's 150 chips are 75.00 USD
    assert _lines(run("session", "set", "friday", "--chip-value", "0.50", "--currency", "USD",
                      "--closed")) == ["session friday: 1 chip = 0.50 USD"]
    assert _lines(run("session", "list"))[-1].endswith("closed, 37.50 USD owed")


def test_a_currency_change_is_refused_once_payments_are_recorded(run, db: str) -> None:  # noqa: ANN001
    for step in (("session", "open", "fri", "--date", "2026-11-27", "--chip-value", "0.25",
                  "--currency", "USD"), ("buyin", "fri", "Ann", "200"),
                 ("buyin", "fri", "Bob", "200")):
        assert run(*step).exit_code == 0, step
    # no payment yet: the currency may still change
    assert _lines(run("session", "set", "fri", "--chip-value", "0.25", "--currency", "EUR")
                  ) == ["session fri: 1 chip = 0.25 EUR"]
    assert _lines(run("session", "set", "fri", "--chip-value", "0.25", "--currency", "USD")
                  ) == ["session fri: 1 chip = 0.25 USD"]
    assert run("pay", "fri", "Bob", "Ann", "10", "--more-than-owed").exit_code == 0
    before = snapshot(Path(db))
    assert refused(run("session", "set", "fri", "--chip-value", "0.25", "--currency", "EUR")
                   ) == ("error: session fri has 1 payment recorded in USD: they are money in "
                         "that currency, and --currency EUR would relabel them; nothing "
                         "written (to change the chip value only, give --currency USD)")
    assert refused(run("session", "set", "fri", "--chip-value", "0.5", "--currency", "USD",
                       "--decimals", "3")) == (
        "error: session fri has 1 payment recorded in USD: they are money in that currency, "
        "and 3 decimal places would relabel them; nothing written (to change the chip value "
        "only, give --currency USD)")
    assert snapshot(Path(db)) == before
    # the chip value alone may change: the payment stays 10.00 USD
    assert _lines(run("session", "set", "fri", "--chip-value", "0.50", "--currency", "USD")
                  ) == ["session fri: 1 chip = 0.50 USD"]
    # no --currency keeps the session's (it had dropped USD, and was refused for that)
    assert _lines(run("session", "set", "fri", "--chip-value", "0.75")
                  ) == ["session fri: 1 chip = 0.75 USD"]
    [listed] = json.loads(run("session", "list", "--json").output)["sessions"]
    assert (listed["currency"], listed["decimals"]) == ("USD", 2)


# --- a payment is bounded by what its payer can owe --------------------------------------


@pytest.mark.usefixtures("at_night")
def test_the_readmes_payment_in_chips_is_refused(run, db: str) -> None:  # noqa: ANN001
    """Bob bought 150 chips at 0.25 USD: he can lose at most 37.50 USD, which is what settle
    has him pay; ``150`` (his chips) is refused though all the buy-ins together are 162.50."""
    before = snapshot(Path(db))
    assert refused(run("pay", "friday", "Bob", "Ann", "150")) == (
        "error: pay friday Bob Ann: 150.00 USD is more than Bob's buy-ins in friday (150 chips, "
        "37.50 USD): a payment is money, not chips (1 chip is 0.25 USD; 150 chips are 37.50 "
        "USD); a buy-in missing from the books is recorded first")
    assert refused(run("pay", "friday", "Bob", "Ann", "37.51")).startswith(
        "error: pay friday Bob Ann: 37.51 USD is more than Bob's buy-ins in friday (150 chips, ")
    assert snapshot(Path(db)) == before
    assert _lines(run("settle", "--session", "friday")) == ["Bob pays Ann 37.50 USD",
                                                          "1 transfer(s) settle 3 player(s)"]
    assert _lines(run("pay", "friday", "Bob", "Ann", "37.50")) == [
        "friday: Bob paid Ann 37.50 USD (entry 9)"]


# --- names the action notation reads as something else -----------------------------------

SEAT = ("--game", "NT", "--stakes", "1/2")
WHY = {
    "d": "'d' starts a dealer action ('d dh Ann AsKs', 'd db 2c7h9s')",
    "pay": "'pay PLAYER AMOUNT' records a payout",
    "returned": "'returned PLAYER AMOUNT' records uncalled chips given back",
    "end": "'end' ends the hand",
    "state": "`handledger table` reads the line 'state' as its own command",
    "quit": "`handledger table` reads the line 'quit' as its own command",
    "p2": "'p2' names seat 2 in an action ('p2 cc')",
    "p10": "'p10' names seat 10 in an action ('p10 cc')",
    "Ann Lee": "an action splits at whitespace, so only its first word would be read",
    "{x}": "an action starting with '{' is read as a JSON event",
    "#7": "' #' starts a comment in an action ('Bob cc # slow') and `handledger table` skips a "
          "line starting with '#', so 'd dh NAME CARDS' and 'NAME cc' would lose the name",
}


def test_a_seat_the_notation_cannot_name_is_refused_at_hand_start(run, db: str) -> None:  # noqa: ANN001
    assert run("init").exit_code == 0
    before = snapshot(Path(db))
    assert refused(run("hand", "start", "--hand", "x1", *SEAT, "--button", "Ann", "--seats",
                       "d:100,pay:100,end:100")) == (
        f"error: player name 'd' cannot be used at the table: {WHY['d']}; choose another name "
        "(a name of a hand file is taken by a buy-in once the file is imported into the "
        "session)")
    for name, why in WHY.items():
        assert refused(run("hand", "start", "--hand", "x1", *SEAT, "--button", "Ann", "--seats",
                           f"Ann:100,{name}:100")) == (
            f"error: player name {name!r} cannot be used at the table: {why}; choose another "
            "name (a name of a hand file is taken by a buy-in once the file is imported into "
            "the session)"), name
    assert snapshot(Path(db)) == before
    # names that only begin like a word of the notation are names
    for seats, button in (("dd:100,payee:100,p0:100", "dd"),
                          ("P1:100,p1x:100,Ending:100", "P1"), ("A#7:100,Bob:100", "A#7")):
        started = run("hand", "start", *SEAT, "--seats", seats, "--button", button)
        assert started.exit_code == 0, started.output


SEPARATORS = ("`hand start --seats` separates players with ',' and a name from its stack with "
              "':' ('Ann:200,Bob:150'), so such a name could never be seated")


def test_a_name_holding_a_seats_separator_is_refused(run, db: str) -> None:  # noqa: ANN001
    """``--seats "Ann:10:10,Bob:10"`` seated a player called ``Ann:10``, and a semicolon list
    was one player ("needs at least two"); a buy-in took ``Ann,Bob``, a name no ``--seats``
    could give."""
    assert run("session", "open", "s", "--date", "2026-11-27").exit_code == 0
    before = snapshot(Path(db))
    for seats, name in (("Ann:10:10,Bob:10", "Ann:10"),
                        ("Ann:200;Bob:150;Cy:310", "Ann:200;Bob:150;Cy")):
        assert refused(run("hand", "start", *SEAT, "--button", "Bob", "--seats", seats)) == (
            f"error: player name {name!r} cannot be used at the table: {SEPARATORS}; choose "
            "another name (a name of a hand file is taken by a buy-in once the file is "
            "imported into the session)")
    for name in ("Ann,Bob", "Ann:1"):
        assert refused(run("buyin", "s", name, "10")) == (
            f"error: player name {name!r} cannot be used at the table: {SEPARATORS}; choose "
            "another name (a name of a hand file is taken by a buy-in once the file is "
            "imported into the session)")
    assert snapshot(Path(db)) == before


def test_a_buy_in_is_refused_for_such_a_name_new_to_the_books(run, db: str, tmp_path: Path  # noqa: ANN001
                                                              ) -> None:
    """``p1`` and ``p2`` of an imported PHH hand (its default names) are in the session's
    books: their buy-ins go in; a new ``pay`` or ``p3`` does not."""
    assert run("session", "open", "s", "--date", "2026-11-27").exit_code == 0
    before = snapshot(Path(db))
    for name, why in (("pay", WHY["pay"]), ("p3", "'p3' names seat 3 in an action ('p3 cc')"),
                      ("Ann Lee", WHY["Ann Lee"]), ("#7", WHY["#7"])):
        assert refused(run("buyin", "s", name, "100")) == (
            f"error: player name {name!r} cannot be used at the table: {why}; choose another "
            "name (a name of a hand file is taken by a buy-in once the file is imported into "
            "the session)"), name
    assert snapshot(Path(db)) == before
    phh = tmp_path / "h.phh"
    phh.write_text("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
                   "min_bet = 2\nstarting_stacks = [100, 100]\n"
                   "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\n")
    assert run("import", str(phh), "--session", "s").exit_code == 0
    assert _lines(run("buyin", "s", "p1", "100")) == ["s: p1 buy-in 100 chips (entry 2)"]
    assert _lines(run("buyin", "s", "p2", "100")) == ["s: p2 buy-in 100 chips (entry 3)"]


# --- a hand still in progress in balances and settle -------------------------------------


@pytest.mark.usefixtures("at_night")
def test_an_open_hand_is_named_by_balances_and_stops_settle(run, db: str) -> None:  # noqa: ANN001
    """The README's night with a second hand f2 started (blinds Ann 1, Bob 2) and not ended:
    balances counts its blinds as put in and says so; settle of sat names the hand, never a
    sum, and settle of the whole ledger settles friday and names sat's hand."""
    assert run("session", "open", "sat", "--date", "2026-11-28", "--chip-value", "0.25",
               "--currency", "USD").exit_code == 0
    for step in (("buyin", "sat", "Ann", "100"), ("buyin", "sat", "Bob", "100"),
                 ("hand", "start", "--session", "sat", "--hand", "s1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Bob")):
        assert run(*step).exit_code == 0, step
    note = ("note: hand s1 of session sat is in progress (not ended): the 3 chips in its pot "
            "so far (Ann 2, Bob 1) count as put in, no payout counted until it ends; the nets "
            "are final once it ends (`handledger act s1 end`) or is voided")
    assert _lines(run("balances", "--session", "sat"))[1:] == [
        "Bob                      -1          100            0      1        1",
        "Ann                      -2          100            0      1        1", note]
    body = json.loads(run("balances", "--session", "sat", "--json").output)
    assert body["in_progress"] == [{"hand": "s1", "session": "sat", "pot": 3,
                                    "players": {"Ann": 2, "Bob": 1}}]
    # standings: the same nets, its (sum) row off by the pot, and the same note
    assert _lines(run("standings"))[-2:] == [
        "(sum)               0         -3           -3", note]
    assert json.loads(run("standings", "--json").output)["in_progress"] == body["in_progress"]
    before = snapshot(Path(db))
    line = ("error: cannot settle: hand s1 is still in progress (not ended) in session sat: "
            "its pot is paid when it ends (`handledger act s1 end`) or is voided; then run "
            "`handledger settle` again")
    assert refused(run("settle", "--session", "sat")) == line
    # the whole ledger: friday settled, sat named as not settled yet, exit 0
    waiting = ("session sat: not settled yet: hand s1 is still in progress (not ended): its "
               "pot is paid when it ends (`handledger act s1 end`) or is voided; then run "
               "`handledger settle` again")
    assert _lines(run("settle")) == [
        "Bob pays Ann 37.50 USD in session friday", "1 transfer(s) settle 3 player(s)", waiting]
    assert json.loads(run("settle", "--json").output) == {
        "transfers": [{"session": "friday", "from": "Bob", "from_name": "Bob", "to": "Ann",
                       "to_name": "Ann", "amount": 3750}],
        "decimals": 2, "currency": "USD", "paid_already": 0, "payments_recorded": 0,
        "not_settled": [{"session": "sat", "hand": "s1", "in_progress": 1}]}
    assert snapshot(Path(db)) == before
    # friday's books have no open hand: settled as before, no note
    assert _lines(run("settle", "--session", "friday")) == [
        "Bob pays Ann 37.50 USD", "1 transfer(s) settle 3 player(s)"]
    assert not any(ln.startswith("note:") for ln in _lines(run("balances", "--session",
                                                                "friday")))
    # Bob folds, heads-up: the betting is over, but until `end` nothing is paid yet, so the
    # nets are still minus what each put in, as the note says (not the rules' Ann +1, Bob -1)
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "Bob f"):
        assert run("act", "s1", action).exit_code == 0, action
    assert _lines(run("balances", "--session", "sat"))[1:] == [
        "Bob                      -1          100            0      1        1",
        "Ann                      -2          100            0      1        1", note]
    # once it ends, settle goes through and the note is gone
    assert run("act", "s1", "end").exit_code == 0
    assert _lines(run("settle", "--session", "sat")) == [
        "Bob pays Ann 0.25 USD", "1 transfer(s) settle 2 player(s)"]
    assert "in_progress" not in json.loads(run("balances", "--json").output)
    assert "in_progress" not in json.loads(run("standings", "--json").output)


# --- a correction or amendment that changes nothing ---------------------------------------


@pytest.mark.usefixtures("at_night")
def test_a_correction_given_twice_changes_nothing_and_is_refused(run, db: str) -> None:  # noqa: ANN001
    # f1: seq 8 is Ann's raise to 8, seq 9 Bob's all-in raise to 150
    fix = ("correct", "f1", "--replace", "8", "Ann cbr 10", "--reason", "she said 10",
           "--by", "host", "--closed")
    done = run(*fix)
    assert done.exit_code == 0, done.output
    assert done.output.startswith("corrected hand f1 (seq 18); change in net: none")
    before = snapshot(Path(db))
    line = ("error: hand f1: changes nothing: the hand's events in force would be the same "
            "with this correction (`handledger history f1` lists its corrections); nothing "
            "written")
    assert refused(run(*fix)) == (
        "error: hand f1: already corrected so: the correction at seq 18 (by host) made "
        "replace seq 8 bet_raise Ann 10; nothing written (`handledger history f1` lists it)")
    # an action replaced by itself changes nothing
    assert refused(run("correct", "f1", "--replace", "9", "Bob cbr 150", "--reason", "r",
                       "--by", "host")) == line
    assert snapshot(Path(db)) == before


@pytest.mark.usefixtures("at_night")
def test_an_amendment_to_the_value_an_entry_has_is_refused(run, db: str) -> None:  # noqa: ANN001
    # entry 2: Ann's buy-in of 200, raised above the 200 hand f1 seats her with: warned of
    assert _lines(run("entry", "amend", "friday", "2", "300", "--reason", "r", "--by", "h",
                      "--closed")) == [
        "warning: entry 2 (buy-in of Ann, 300 chips): hand f1 seats Ann with 200 chips, but "
        "Ann's buy-ins there come to 300: expected 300 (-100); the books no longer follow the "
        "hands' stacks, and the audit's stack_continuity will name it; a wrong amount is "
        "amended again (`handledger entry amend friday 2 200 --reason … --by …`)",
        "friday: entry 2 (buy-in of Ann) amended: 200 → 300 chips"]
    assert run("pay", "friday", "Bob", "Ann", "37.50").exit_code == 0  # entry 10
    before = snapshot(Path(db))
    assert refused(run("entry", "amend", "friday", "2", "300", "--reason", "r", "--by", "h",
                       "--closed")) == (
        "error: changes nothing: entry 2 (buy-in of Ann) of session friday is 300 chips "
        "already; nothing written")
    assert refused(run("entry", "amend", "friday", "5", "350", "--reason", "r", "--by", "h",
                       "--closed")) == (
        "error: changes nothing: entry 5 (cash-out of Ann) of session friday is 350 chips "
        "already; nothing written")
    assert refused(run("entry", "amend", "friday", "10", "37.5", "--reason", "r", "--by", "h")
                   ) == (
        "error: changes nothing: entry 10 (payment of Bob to Ann) of session friday is "
        "37.50 USD already; nothing written")
    assert snapshot(Path(db)) == before
    # back to the recorded value is a change
    assert _lines(run("entry", "amend", "friday", "2", "200", "--reason", "r", "--by", "h",
                      "--closed")) == ["friday: entry 2 (buy-in of Ann) amended: 300 → 200 chips"]


# --- an empty option says what it needs, not pydantic's words ------------------------------


@pytest.mark.usefixtures("at_night")
def test_an_empty_name_reason_or_hand_is_one_plain_line(run, db: str) -> None:  # noqa: ANN001
    before = snapshot(Path(db))
    for args, line in (
            (("correct", "f1", "--delete", "17", "--reason", "r", "--by", ""),
             "--by: a name is needed"),
            (("correct", "f1", "--delete", "17", "--reason", "", "--by", "h"),
             "--reason: a reason is needed"),
            (("undo", "f1", "--by", ""), "--by: a name is needed"),
            (("undo", "f1", "--by", "h", "--reason", ""), "--reason: a reason is needed"),
            (("void", "f1", "--reason", "", "--by", "h"), "--reason: a reason is needed"),
            (("entry", "retract", "friday", "2", "--reason", "r", "--by", ""),
             "--by: a name is needed"),
            (("entry", "amend", "friday", "2", "250", "--reason", "", "--by", "h"),
             "--reason: a reason is needed"),
            (("hand", "start", "--hand", "", "--game", "NT", "--stakes", "1/2", "--seats",
              "Ann:100,Bob:100", "--button", "Ann"), "--hand: a hand id is needed"),
            (("hand", "start", "--game", "", "--stakes", "1/2", "--seats", "Ann:100,Bob:100",
              "--button", "Ann"), "--game: a game code is needed"),
            (("act", "", "end"), "HAND: a hand id is needed"),
            (("show", ""), "HAND: a hand id is needed")):
        assert refused(run(*args)) == f"error: {line}", args
    assert snapshot(Path(db)) == before


def test_a_name_in_another_case_is_named_not_taken(run, db: str) -> None:  # noqa: ANN001
    """``buyin wed ann`` beside Ann's buy-in made a second player who prints alike; an action
    for ``ann`` or ``Bb`` said only "unknown player"."""
    assert run("session", "open", "wed", "--date", "2026-11-27").exit_code == 0
    assert run("buyin", "wed", "Ann", "100").exit_code == 0
    before = snapshot(Path(db))
    assert refused(run("buyin", "wed", "ann", "100")) == (
        "error: buyin wed ann: ann is not in wed's books and Ann is: did you mean Ann? (names "
        "are kept as typed; two players whose names differ only in case would print alike)")
    assert snapshot(Path(db)) == before
    assert run("session", "open", "thu", "--date", "2026-11-28").exit_code == 0
    assert refused(run("buyin", "thu", "ann", "100")) == (  # a new session of the series
        "error: buyin thu ann: ann is not in the ledger's books and Ann is: did you mean Ann? "
        "(names are kept as typed; two players whose names differ only in case would print "
        "alike)")
    assert run("buyin", "thu", "Ann", "100").exit_code == 0  # the same player, back
    assert run("hand", "start", "--hand", "s2", *SEAT, "--seats", "Ann:100,Bob:100",
               "--button", "Ann").exit_code == 0
    for token in ("ann", "Bb"):
        said = refused(run("act", "s2", f"d dh {token} AsKs"))
        meant = "Ann" if token == "ann" else "Bob"
        assert said.startswith(f"error: hand s2, action 'd dh {token} AsKs': unknown player "
                               f"'{token}': did you mean {meant}?; now: "), said
    assert refused(run("act", "s2", "d dh Zed AsKs")).startswith(
        "error: hand s2, action 'd dh Zed AsKs': unknown player 'Zed'; now: ")


def test_two_seats_named_alike_are_refused_at_hand_start(run, db: str) -> None:  # noqa: ANN001
    """A hand of no session seated ``Ann`` and ``ann`` together (``buyin`` refuses the
    second): refused in one line, nothing written; a full-width ``Ａnn`` is spelled out."""
    assert run("init").exit_code == 0
    before = snapshot(Path(db))
    assert refused(run("hand", "start", "--hand", "c1", *SEAT, "--seats", "Ann:100,ann:100",
                       "--button", "Ann")) == (
        "error: --seats: 'Ann' and 'ann' are both seated: two players whose names differ only "
        "in case would print alike; give each player a name of his own")
    assert refused(run("hand", "start", "--hand", "c1", *SEAT, "--seats",
                       "Ann:100,Bob:100,\uff21nn:100", "--button", "Ann")) == (
        "error: --seats: 'Ann' and '\uff21nn' (U+FF21 n n) are both seated: two players whose "
        "names differ only in case or in how their letters are encoded would print alike; "
        "give each player a name of his own")
    assert snapshot(Path(db)) == before


def test_a_name_encoded_otherwise_is_spelled_out_by_act_as_by_buyin(run) -> None:  # noqa: ANN001
    """``Zoe`` and a combining diaeresis (U+0308) for the seated ``Zoë`` (U+00EB): both print
    alike, so `act` spells out the code points and says so, in `buyin`'s words."""
    assert run("hand", "start", "--hand", "z1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Zo\u00eb:100,Bob:100", "--button", "Bob").exit_code == 0
    said = refused(run("act", "z1", "d dh Zoe\u0308 AsKs"))
    assert said.startswith(
        "error: hand z1, action 'd dh Zoe\u0308 AsKs': unknown player 'Zoe\u0308' (Z o e "
        "U+0308): did you mean 'Zo\u00eb' (Z o U+00EB)? (names are kept as typed; two players "
        "whose names differ only in case or in how their letters are encoded would print "
        "alike); now: "), said
    assert refused(run("act", "z1", "d dh zo\u00eb AsKs")).startswith(  # case alone: as before
        "error: hand z1, action 'd dh zo\u00eb AsKs': unknown player 'zo\u00eb': did you mean "
        "Zo\u00eb?; now: ")


# --- a cash-out beyond the chips still on the table ------------------------------------


def test_a_cash_out_beyond_the_chips_on_the_table_is_refused(run, db: str) -> None:  # noqa: ANN001
    """No hand makes chips: 200 bought in, 150 cashed out, so 50 are left for Bob's cash-out;
    his 100 is refused, naming Ann's 150 (entry 4), 50 more than her 100 bought in (no hand
    played), which went in with a warning."""
    for args in (("session", "open", "n"), ("buyin", "n", "Ann", "100"),
                 ("buyin", "n", "Bob", "100")):
        assert run(*args).exit_code == 0
    assert _lines(run("cashout", "n", "Ann", "150")) == [
        "warning: Ann cashes out 150 chips, but the hands leave Ann 100 (+50): a count that is "
        "wrong is amended (`handledger entry amend n 4 100 --reason … --by …`); the audit's "
        "session balance will name it",
        "n: Ann cashed out 150 chips (entry 4)"]
    before = snapshot(Path(db))
    assert refused(run("cashout", "n", "Bob", "100")) == (
        "error: cashout n Bob 100: the table holds 50 chips not cashed out yet (200 bought in, "
        "150 cashed out), and no hand makes chips; a cash-out takes more than the hands left: "
        "entry 4: Ann 150 chips, the hands left Ann 100 (+50); amend it first (`handledger "
        "entry amend n 4 100 --reason … --by …`), or record a buy-in missing from the books")
    assert snapshot(Path(db)) == before
    assert _lines(run("cashout", "n", "Bob", "50")) == [
        "warning: Bob cashes out 50 chips, but the hands leave Bob 100 (-50): a count that is "
        "wrong is amended (`handledger entry amend n 5 100 --reason … --by …`); the audit's "
        "session balance will name it",
        "n: Bob cashed out 50 chips (entry 5)"]
    # Ann's count amended to what she had: Bob's 100 may go in after all, as the hands say
    assert _lines(run("entry", "retract", "n", "5", "--reason", "x", "--by", "host"))
    assert _lines(run("entry", "amend", "n", "4", "100", "--reason", "miscounted",
                      "--by", "host")) == [  # as bought: quiet
        "n: entry 4 (cash-out of Ann) amended: 150 → 100 chips"]
    assert _lines(run("cashout", "n", "Bob", "100")) == ["n: Bob cashed out 100 chips (entry 8)"]


def test_a_cash_out_other_than_the_hands_leave_is_warned_and_named_later(run) -> None:  # noqa: ANN001
    """Ann raises to 10 on the button (small blind 1), Bob folds his big blind 2: Ann 102,
    Bob 98. Bob's 100 goes in with a warning naming the 98; Ann's 102 then finds 100 chips on
    the table, refused naming Bob's entry 4; amended to 98, Ann's 102 goes in, no warning;
    amended to 97, it goes in with a warning naming c1 and the 98."""
    for args in (("session", "open", "c"), ("buyin", "c", "Ann", "100"),
                 ("buyin", "c", "Bob", "100"),
                 ("hand", "start", "--session", "c", "--hand", "c1", "--game", "NT", "--stakes",
                  "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann")):
        assert run(*args).exit_code == 0
    assert run("table", "c1", input="d dh Ann ????\nd dh Bob ????\nAnn cbr 10\nBob f\nend\n"
               ).exit_code == 0
    assert _lines(run("cashout", "c", "Bob", "100")) == [
        "warning: Bob cashes out 100 chips, but the hands leave Bob 98 (+2): a count that is "
        "wrong is amended (`handledger entry amend c 4 98 --reason … --by …`); the audit's "
        "session balance will name it",
        "c: Bob cashed out 100 chips (entry 4)"]
    assert refused(run("cashout", "c", "Ann", "102")) == (
        "error: cashout c Ann 102: the table holds 100 chips not cashed out yet (200 bought in, "
        "100 cashed out), and no hand makes chips; a cash-out takes more than the hands left: "
        "entry 4: Bob 100 chips, the hands left Bob 98 (+2); amend it first (`handledger "
        "entry amend c 4 98 --reason … --by …`), or record a buy-in missing from the books")
    assert _lines(run("entry", "amend", "c", "4", "98", "--reason", "miscounted",
                      "--by", "host")) == ["c: entry 4 (cash-out of Bob) amended: 100 → 98 chips"]
    assert _lines(run("cashout", "c", "Ann", "102")) == ["c: Ann cashed out 102 chips (entry 6)"]
    assert _lines(run("audit"))[0].startswith("audit clean: 1 hand(s) in 1 session(s)")
    # amended off the hands again, as cashout warns, the amendment warns (and goes in)
    assert _lines(run("entry", "amend", "c", "4", "97", "--reason", "miscounted",
                      "--by", "host")) == [
        "warning: entry 4 (cash-out of Bob, 97 chips): the hands leave Bob 98 (-1), Bob's "
        "stack after hand c1 and the buy-ins since: a count that is wrong is amended again "
        "(`handledger entry amend c 4 98 --reason … --by …`); the audit's session balance "
        "will name it",
        "c: entry 4 (cash-out of Bob) amended: 98 → 97 chips"]


def test_a_cash_out_is_held_to_the_latest_hand_the_books_count(run) -> None:  # noqa: ANN001
    """h1: Bob, the button (small blind 1), folds to Ann's 2: Ann 101, Bob 99. h2 starts on
    those stacks and is voided (it counts for nothing): Bob's 99 goes in quietly, Ann's 100 is
    warned of against the 101 h1 left her."""
    for args in (("session", "open", "v"), ("buyin", "v", "Ann", "100"),
                 ("buyin", "v", "Bob", "100"),
                 ("hand", "start", "--session", "v", "--hand", "h1", "--game", "NT", "--stakes",
                  "1/2", "--seats", "Ann:100,Bob:100", "--button", "Bob")):
        assert run(*args).exit_code == 0
    assert run("table", "h1", input="d dh Ann ????\nd dh Bob ????\nBob f\nend\n").exit_code == 0
    assert run("hand", "start", "--session", "v", "--hand", "h2", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:101,Bob:99", "--button", "Ann").exit_code == 0
    assert run("void", "h2", "--reason", "misdeal", "--by", "host").exit_code == 0
    assert _lines(run("cashout", "v", "Bob", "99")) == ["v: Bob cashed out 99 chips (entry 4)"]
    assert _lines(run("cashout", "v", "Ann", "100")) == [
        "warning: Ann cashes out 100 chips, but the hands leave Ann 101 (-1): a count that is "
        "wrong is amended (`handledger entry amend v 5 101 --reason … --by …`); the audit's "
        "session balance will name it",
        "v: Ann cashed out 100 chips (entry 5)"]


@pytest.mark.usefixtures("at_night")
def test_an_amended_payment_beyond_what_is_owed_takes_the_flag_it_names(run, db: str) -> None:  # noqa: ANN001
    """Cy owes nothing; a payment of his to Ann (entry 9, recorded with --more-than-owed)
    amended to 20.00 is refused naming --more-than-owed, which entry amend now takes (it was
    an unknown argument)."""
    assert run("pay", "friday", "Cy", "Ann", "10.00", "--more-than-owed").exit_code == 0
    before = snapshot(Path(db))
    line = refused(run("entry", "amend", "friday", "9", "20.00", "--reason", "r", "--by", "h"))
    assert line.startswith("error: entry amend friday 9 (payment of Cy to Ann): 20.00 USD is more "
                           "than Cy "
                           "still owes in friday") and line.endswith(
                               "--more-than-owed records it anyway")
    assert snapshot(Path(db)) == before
    assert _lines(run("entry", "amend", "friday", "9", "20.00", "--reason", "r", "--by", "h",
                      "--more-than-owed")) == [
        "friday: entry 9 (payment of Cy to Ann) amended: 10.00 USD → 20.00 USD"]


def test_a_first_spelling_retracted_or_aliased_does_not_lock_the_name(run) -> None:  # noqa: ANN001
    """bob typed for Bob and retracted: Bob may buy in, in that session and in another; a
    name joined by `player alias` is the same player in any case."""
    for args in (("session", "open", "fri"), ("session", "open", "sat"),
                 ("buyin", "fri", "bob", "150"),
                 ("entry", "retract", "fri", "2", "--reason", "typo", "--by", "host")):
        assert run(*args).exit_code == 0, args
    assert _lines(run("buyin", "sat", "Bob", "150")) == ["sat: Bob buy-in 150 chips (entry 2)"]
    assert _lines(run("buyin", "fri", "Bob", "150")) == ["fri: Bob buy-in 150 chips (entry 4)"]
    assert run("session", "open", "sun").exit_code == 0
    assert refused(run("buyin", "sun", "bOB", "10")).startswith(
        "error: buyin sun bOB: bOB is not in the ledger's books and Bob is: did you mean Bob?")
    assert run("player", "alias", "Bob", "bOB").exit_code == 0
    assert _lines(run("buyin", "sun", "bOB", "10")) == ["sun: bOB buy-in 10 chips (entry 3)"]


def test_a_seat_in_another_case_is_pointed_at_the_books_name(run, db: str) -> None:  # noqa: ANN001
    """dee bought in; a hand seating Dee suggests seating dee, not a buy-in of Dee (which the
    case check would then refuse)."""
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "10"),
                 ("buyin", "s", "dee", "10")):
        assert run(*args).exit_code == 0, args
    before = snapshot(Path(db))
    assert refused(run("hand", "start", "--session", "s", "--game", "NT", "--stakes", "1/2",
                       "--seats", "Ann:10,Dee:10", "--button", "Ann")) == (
        "error: Dee has no buy-in in session s (its players: Ann, dee): did you mean dee? seat "
        "the player by the name the books give; nothing was written")
    assert snapshot(Path(db)) == before


def test_entry_refusals_name_a_retracted_entry_and_the_cash_out_to_amend(run) -> None:  # noqa: ANN001
    """`entry amend` of no entry lists the session's entries, a retracted one marked so; a
    second `cashout` of a player with no buy-in since names the seq of the cash-out to amend."""
    assert run("session", "open", "kitchen", "--date", "2026-12-01").exit_code == 0
    for player, chips in (("Ann", "100"), ("Bob", "200"), ("Dee", "200")):
        assert run("buyin", "kitchen", player, chips).exit_code == 0  # entries 2, 3, 4
    assert run("entry", "retract", "kitchen", "3", "--reason", "no-show", "--by",
               "host").exit_code == 0  # entry 5 retracts Bob's buy-in
    assert refused(run("entry", "amend", "kitchen", "62", "100", "--reason", "r", "--by",
                       "host")) == (
        "error: session kitchen has no buy-in, cash-out or payment at seq 62 (its entries: 2 "
        "buy-in of Ann, 3 buy-in of Bob (retracted), 4 buy-in of Dee)")
    assert run("cashout", "kitchen", "Dee", "207").exit_code == 0  # entry 6
    assert refused(run("cashout", "kitchen", "Dee", "207")) == (
        "error: Dee already cashed out 207 chips in kitchen (entry 6, no buy-in since); a "
        "wrong count is amended: `handledger entry amend kitchen 6 CHIPS --reason … --by …`")
