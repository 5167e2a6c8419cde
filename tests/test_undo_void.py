"""`undo` takes back exactly the last thing appended to a hand (an action, a correction, a
void) with an appended correction, never an older event (README, disputes: `undo`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.test_disputes import RIGHT_SPLIT, _events, _nets, _play, _replay

WRONG_PUSH = DATA / "dispute" / "wrong-push.phh"
# wrong-push.phh as imported: seq 23 is the table's payout (Bob 400), 24 its hand_ended
PAID = {"Ann": -100, "Bob": 250, "Cy": -150}  # the books' net: what the table paid
RULES = {"Ann": 200, "Bob": -50, "Cy": -150}  # the rules' net: Ann's aces win the main pot
#: What `undo` warns of once the hand is back to Bob paid the pot Ann's aces win (stderr, as
#: `act … end` warns: cli/dispute_text.py paid_otherwise_warnings).
_PAID_WRONG = (
    "warning: paid differently from the rules: hand dispute-1: Ann was paid 0, the rules give "
    "300 (-300) (recorded as the table paid it; `handledger correct` puts it right)\n"
    "warning: paid differently from the rules: hand dispute-1: Bob was paid 400, the rules "
    "give 100 (+300) (recorded as the table paid it; `handledger correct` puts it right)\n")


def _audit(run) -> list[tuple[str, str, str]]:  # noqa: ANN001
    found = json.loads(run("audit", "--json").output)["discrepancies"]
    return sorted((d["kind"], d["hand"], d["player"]) for d in found)


def _build(db: Path, *commands: tuple[str, ...]) -> list[str]:
    """Run ``commands`` on the ledger ``db`` as ``run`` does; returns what each printed."""
    from cli.main import cli

    printed = []
    for args in commands:
        out = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
        assert out.exit_code == 0, (args, out.output)
        printed.append(out.output)
    return printed


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """wrong-push.phh imported into an empty ledger, once for the module."""
    db = tmp_path_factory.mktemp("imported") / "t.duckdb"
    _build(db, ("import", str(WRONG_PUSH)))
    return db


@pytest.fixture(scope="module")
def voided(imported: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``imported`` with hand dispute-1 voided by floor; the ledger and what `void` printed."""
    db = copy_ledger(imported, tmp_path_factory.mktemp("voided") / "t.duckdb")
    (printed,) = _build(db, ("void", "dispute-1", "--reason", "misdeal", "--by", "floor"))
    return db, printed


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session sat, Ann and Bob bought in for 100, hand h1 started (Ann on the button)."""
    db = tmp_path_factory.mktemp("started") / "t.duckdb"
    _build(db, ("session", "open", "sat"), ("buyin", "sat", "Ann", "100"),
           ("buyin", "sat", "Bob", "100"),
           ("hand", "start", "--session", "sat", "--hand", "h1", "--game", "NT", "--stakes",
            "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"))
    return db


def _voided(voided: tuple[Path, str], db: str) -> None:
    """The test's ledger ``db`` becomes a copy of ``voided``."""
    built, printed = voided
    copy_ledger(built, Path(db))
    assert printed == ("voided hand dispute-1: returned Ann 100, Bob 150, Cy 150; change in net: "
                       "Ann +100, "
                       "Bob -250, Cy +150; by the rules: Ann -200, Bob +50, Cy +150\n")


def test_undo_right_after_a_void_takes_back_the_void_not_the_payout(run, db, imported) -> None:  # noqa: ANN001
    copy_ledger(imported, Path(db))
    code_before, replay_before = _replay(run, "dispute-1")
    audit_before, nets_before = _audit(run), _nets(run)
    assert code_before == 1 and nets_before == PAID
    assert audit_before == [("payout", "dispute-1", "Ann"), ("payout", "dispute-1", "Bob")]
    assert run("void", "dispute-1", "--reason", "misdeal", "--by", "floor").exit_code == 0
    assert _nets(run) == {}  # a voided hand of no session: in no book, its players none

    out = run("undo", "dispute-1", "--by", "floor")
    assert out.exit_code == 0
    assert out.output == ("undid the void at seq 26 (by floor: misdeal) in hand dispute-1 "
                          "(seq 27); change in net: Ann -100, Bob +250, Cy -150; by the rules: "
                          "Ann +200, "
                          "Bob -50, Cy -150\n" + _PAID_WRONG)  # paid wrong again, as before
    events = _events(db, "dispute-1")
    assert len(events) == 27  # appended: the void's correction and the void stay
    assert events[22] == {"type": "recorded_payout", "schema_version": 1, "player": "Bob",
                          "amount": 400, "returned": False, "pot": None, "run": None}
    assert [e["type"] for e in events[24:]] == ["correction", "hand_voided", "correction"]
    assert events[26]["changes"] == [{"op": "delete", "seq": 25, "event": None},
                                     {"op": "delete", "seq": 26, "event": None}]
    assert events[26]["reason"] == "undo of the void at seq 26 (by floor: misdeal)"
    # the hand reads as before the void: replay (the table's payout of seq 23 in force),
    # the audit and the balances
    code, replay = _replay(run, "dispute-1")
    assert (code, replay) == (code_before, replay_before)
    assert replay["status"] == "complete" and replay["recorded"] == {"Bob": 400}
    assert replay["net"] == RULES
    assert _audit(run) == audit_before and _nets(run) == PAID
    assert run("verify").exit_code == 0


def test_the_void_taken_back_stays_in_the_history(run, db, voided) -> None:  # noqa: ANN001
    _voided(voided, db)
    assert run("undo", "dispute-1", "--by", "floor").exit_code == 0
    history = json.loads(run("history", "dispute-1", "--json").output)
    assert [(a["seq"], a["type"]) for a in history["amendments"]] == [
        (25, "correction"), (26, "hand_voided"), (27, "correction")]
    assert [(c["op"], c["seq"], c["was"]) for c in history["amendments"][2]["changes"]] == [
        ("delete", 25, "correction by floor: void: misdeal"),
        ("delete", 26, "hand_voided by floor: misdeal")]


def test_correct_names_no_void_and_writes_nothing(user, run, db, voided) -> None:  # noqa: ANN001
    _voided(voided, db)
    code, out, err = user("correct", "dispute-1", "--delete", "26", "--reason", "x", "--by", "f")
    assert (code, out) == (2, "")
    assert err == ("error: hand dispute-1: seq 26 is a void (hand_voided), not an original event: "
                   "`handledger undo` takes back the last correction or void appended to the "
                   "hand\n")
    assert len(_events(db, "dispute-1")) == 26


def test_undo_after_undo_walks_back_past_the_void_it_took_back(user, run, db, voided) -> None:  # noqa: ANN001
    _voided(voided, db)
    assert run("undo", "dispute-1", "--by", "floor").exit_code == 0
    # the undo and the void it took back are passed over: next is the import itself; the
    # refusal names the undo, the last thing appended, first (an undo is not undone)
    code, out, err = user("undo", "dispute-1", "--by", "floor")
    assert (code, out) == (2, "")
    assert err == ("error: hand dispute-1: cannot undo seq 27, the last thing appended: it is "
                   "the undo of the void at seq 26 (by floor: misdeal), and an undo is not "
                   "undone (record that again with `handledger void`); walking back past it, "
                   "as undo after undo does: nothing to undo: the last thing appended to the "
                   "hand and not taken back is the hand itself (seq 1-24, its start or "
                   "import): void it or correct it\n")
    assert _nets(run) == PAID and len(_events(db, "dispute-1")) == 27


def test_undo_after_undo_takes_back_one_live_action_after_another(run, db, started) -> None:  # noqa: ANN001
    """Two actions entered by mistake: two undos take back both, the later first."""
    copy_ledger(started, Path(db))
    _play(run, "h1", "d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 6", "Bob cc")
    out = run("undo", "h1", "--by", "host")
    assert out.output.startswith("undid seq 7 (call Bob) in hand h1 (seq 8)")
    out = run("undo", "h1", "--by", "host")
    assert out.output.startswith("undid seq 6 (bet_raise Ann 6) in hand h1 (seq 9); change in "
                                 "net: Ann +5")
    events = _events(db, "h1")
    assert [c["seq"] for c in events[7]["changes"]] == [7]
    assert [c["seq"] for c in events[8]["changes"]] == [6]
    state = run("state", "h1").output
    assert "Ann to act" in state and "to call 1" in state
    out = run("act", "h1", "Ann cc")  # the hand plays on from Ann's turn
    assert out.exit_code == 0 and out.output.startswith("10 call")


def test_undo_of_an_imported_hand_is_refused(user, run, db, imported) -> None:  # noqa: ANN001
    copy_ledger(imported, Path(db))
    code, out, err = user("undo", "dispute-1", "--by", "floor")
    assert (code, out) == (2, "")
    assert err == ("error: hand dispute-1: nothing to undo: the last thing appended to the "
                   "hand and not taken back is the hand itself (seq 1-24, its start or "
                   "import): void it or correct it\n")
    assert len(_events(db, "dispute-1")) == 24


def test_undo_right_after_a_correction_takes_the_correction_back(run, db, imported) -> None:  # noqa: ANN001
    copy_ledger(imported, Path(db))
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "aces win", "--by",
               "floor").exit_code == 0
    assert _nets(run) == RULES
    out = run("undo", "dispute-1", "--by", "floor")
    assert out.output == ("undid the correction at seq 25 (by floor: aces win) in hand "
                          "dispute-1 (seq 26); change in net: Ann -300, Bob +300; by the rules: "
                          "unchanged\n" + _PAID_WRONG)
    code, replay = _replay(run, "dispute-1")
    assert code == 1 and replay["recorded"] == {"Bob": 400}
    assert "corrected" not in replay["notes"]  # nothing in force amends it any more
    assert _nets(run) == PAID and len(_events(db, "dispute-1")) == 26


def test_a_live_hand_voided_by_mistake_goes_on_after_undo(user, run, db, started) -> None:  # noqa: ANN001
    copy_ledger(started, Path(db))
    _play(run, "h1", "d dh Ann AsAh", "d dh Bob KsKh")
    out = run("void", "h1", "--reason", "misdeal", "--by", "host")
    assert out.output == ("voided hand h1: returned Bob 2, Ann 1; change in net: Bob +2, Ann +1; "
                          "by the rules: Bob +2, Ann +1\n")
    out = run("undo", "h1", "--by", "host")
    assert out.output == ("undid the void at seq 6 (by host: misdeal) in hand h1 (seq 7); "
                          "change in net: Bob -2, Ann -1; by the rules: Bob -2, Ann -1\n")
    # open again: no cash-out while Ann sits in it (RULES.md §1.1), and the hand plays on
    code, _, err = user("cashout", "sat", "Ann", "100")
    assert code == 2 and err.startswith("error: Ann is seated in hand h1 of session sat, "
                                        "which is still open")
    out = run("act", "h1", "Ann cc")
    assert out.exit_code == 0 and out.output.startswith("8 call")
    # the last thing appended is now Ann's call: undo takes it back, not the void's undo
    out = run("undo", "h1", "--by", "host")
    assert out.output.startswith("undid seq 8 (call Ann) in hand h1 (seq 9)")


def test_no_undo_of_a_void_once_a_player_of_the_hand_cashed_out(user, run, db, started) -> None:  # noqa: ANN001
    copy_ledger(started, Path(db))
    _play(run, "h1", "d dh Ann AsAh")
    assert run("void", "h1", "--reason", "misdeal", "--by", "host").exit_code == 0
    assert run("cashout", "sat", "Bob", "100").exit_code == 0  # the hand is voided: allowed
    code, out, err = user("undo", "h1", "--by", "host")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1: cannot undo the void at seq 5 (by host: misdeal): Bob "
                   "cashed out of session sat since, and the hand would be in play again "
                   "(chips come on or off the table only between hands, RULES.md §1.1)\n")
    assert len(_events(db, "h1")) == 5
    _, replay = _replay(run, "h1")
    assert replay["status"] == "voided"


def test_undo_of_a_void_after_a_buy_in_made_before_that_hand(user, run, db) -> None:  # noqa: ANN001
    """h1 seats Bob with 150, 100 by the books; voided, then his rebuy of 50 recorded as made
    before h1 (`buyin --before h1`): it counts before h1 started, not since, so the void is
    undone, no warning (the books now give Bob 150), and h1 plays on."""
    _build(Path(db), ("session", "open", "sat"), ("buyin", "sat", "Ann", "100"),
           ("buyin", "sat", "Bob", "100"),
           ("hand", "start", "--session", "sat", "--hand", "h1", "--game", "NT", "--stakes",
            "1/2", "--seats", "Ann:100,Bob:150", "--button", "Ann"))
    _play(run, "h1", "d dh Ann AsAh")
    assert run("void", "h1", "--reason", "misdeal", "--by", "host").exit_code == 0
    assert user("buyin", "sat", "Bob", "50", "--before", "h1") == (
        0, "sat: Bob rebuy 50 chips before hand h1 (entry 4)\n", "")
    assert user("undo", "h1", "--by", "host") == (0, (
        "undid the void at seq 5 (by host: misdeal) in hand h1 (seq 6); change in net: "
        "Bob -2, Ann -1; by the rules: Bob -2, Ann -1\n"), "")
    assert run("act", "h1", "d dh Bob KsKh").exit_code == 0


@pytest.mark.parametrize("session", [True, False])
def test_no_undo_of_a_void_while_a_later_hand_of_its_players_is_in_play(
        user, run, db, started, session: bool) -> None:  # noqa: ANN001
    """h1 voided, h2 started with the same players and dealt: undoing the void would put
    Ann and Bob in two hands at once with the same chips (RULES.md §1.1): refused naming
    h2, nothing written; once h2 is over (Ann, on the button and so the small blind
    heads-up, folds), still refused: h2 started on the chips the void gave back, and
    h1 back in play would hold Bob's big blind; with h2 voided too, the undo goes through.
    The same for hands of no session, but that a later hand over lets the undo go through:
    no stack is followed from hand to hand there."""
    seats = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button",
             "Ann")
    if session:
        copy_ledger(started, Path(db))
        seats = ("--session", "sat", *seats)
    else:
        assert run("hand", "start", "--hand", "h1", *seats).exit_code == 0
    _play(run, "h1", "d dh Ann AsAh")
    assert run("void", "h1", "--reason", "misdeal", "--by", "host").exit_code == 0
    assert run("hand", "start", "--hand", "h2", *seats).exit_code == 0
    _play(run, "h2", "d dh Ann ????", "d dh Bob ????")
    code, out, err = user("undo", "h1", "--by", "host")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1: cannot undo the void at seq 5 (by host: misdeal): Bob is "
                   "seated in hand h2, still in play, and the hand would be in play again "
                   "beside it (a player's chips are in one hand at a time, RULES.md §1.1): "
                   "end or void h2 first\n")
    assert len(_events(db, "h1")) == 5
    _play(run, "h2", "Ann f", "end")
    if session:
        code, out, err = user("undo", "h1", "--by", "host")
        assert (code, out) == (2, "")
        assert err == ("error: hand h1: cannot undo the void at seq 5 (by host: misdeal): hand "
                       "h2 started after the void, Bob with the chips it gave back; back in "
                       "play, this hand would hold 2 of them in its pot (a player's chips are "
                       "in one hand at a time, RULES.md §1.1): void hand h2 first, or record "
                       "what happened with `handledger correct`\n")
        assert len(_events(db, "h1")) == 5
        assert run("void", "h2", "--reason", "played on h1's chips",
                   "--by", "host").exit_code == 0
    assert run("undo", "h1", "--by", "host").output.startswith(
        "undid the void at seq 5 (by host: misdeal) in hand h1 (seq 6)")


def test_a_voided_hand_replays_with_one_note(user) -> None:  # noqa: ANN001
    """A void is recorded as a correction of the hand: `replay --hand` said both "voided:
    every contribution returned" and "corrected"; the void's note alone says it, in
    `--json` too. The blinds come back: net 0 for both."""
    assert user("hand", "start", "--hand", "d1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    assert user("void", "d1", "--reason", "misdeal", "--by", "host")[0] == 0
    code, out, err = user("replay", "--hand", "d1")
    assert (code, err) == (0, "")
    assert [line.strip() for line in out.splitlines() if "note:" in line] == [
        "note: voided: every contribution returned"]
    hand = json.loads(user("replay", "--hand", "d1", "--json")[1])
    assert (hand["status"], hand["notes"], hand["net"]) == (
        "voided", ["voided: every contribution returned"], {"Bob": 0, "Ann": 0})
