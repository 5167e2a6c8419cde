"""A home game's rake recorded live: ``act HAND "rake AMOUNT"`` (and the same line in
``handledger table``) appends a ``recorded_rake`` event, the event form of PHH's ``rake``
field (FORMATS.md §1); ``end`` then takes payouts + rake == pot, and the hand is audited as an
imported hand with a ``rake`` field is (replay/rake.py: one ``rake`` finding). Worked by hand:
Ann and Bob, 150 chips each, all in before the flop: a 300 pot, Ann's aces win it; the table
takes 10, Ann is paid 290. Nets: Ann +140, Bob -150, together -10, the rake."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.copies import build_ledger, copy_ledger

#: seqs 4-10: Ann and Bob all in preflop, the board dealt; phase showdown, a 300 pot.
SHOWN = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 150", "Bob cc", "d db 2c3d4h", "d db 9s",
         "d db Td")
RAKE_LINE = ("hand r1: the table paid 10 less than the pots and returns: the table kept 10 as "
             "rake (as recorded at the table)")


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session s, Ann and Bob bought in for 150, hand r1 played to its showdown (seq 10),
    built once for the module."""
    db = tmp_path_factory.mktemp("raked") / "t.duckdb"
    start = ("hand", "start", "--hand", "r1", "--session", "s", "--game", "NT", "--stakes",
             "1/2", "--seats", "Ann:150,Bob:150", "--button", "Ann")
    return build_ledger(db, [("session", "open", "s"), ("buyin", "s", "Ann", "150"),
                             ("buyin", "s", "Bob", "150"), start,
                             *(("act", "r1", a) for a in SHOWN)])


@pytest.fixture
def hand(shown: Path, db: str) -> Path:
    """The test's ledger: a copy of ``shown``."""
    return copy_ledger(shown, Path(db))


@pytest.fixture(scope="module")
def raked(shown: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``shown`` with ``rake 10``, ``pay Ann 290`` and ``end`` acted (seqs 11-13): Ann +140,
    Bob -150, built once for the module."""
    db = copy_ledger(shown, tmp_path_factory.mktemp("raked-ended") / "t.duckdb")
    return build_ledger(db, [("act", "r1", a) for a in ("rake 10", "pay Ann 290", "end")])


def _types(db: Path | str, hand: str = "r1") -> list[str]:
    """The types of ``hand``'s events; a hand the ledger does not hold: of every event."""
    with Ledger(str(db), read_only=True) as ledger:
        rows = ledger.query("SELECT type FROM events WHERE stream = $1 OR NOT EXISTS (SELECT 1"
                            " FROM events WHERE stream = $1) ORDER BY position", [hand])
    return [t for (t,) in rows]


def _refused(run, db: Path, action: str, hand: str = "r1") -> str:  # noqa: ANN001
    """``act HAND ACTION`` refused: exit 2, one line naming the hand (and the action, when
    the hand exists), nothing written."""
    before = _types(db, hand)
    out = run("act", hand, action)
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert out.output.startswith(f"error: hand {hand}") and "Traceback" not in out.output
    assert _types(db, hand) == before
    return out.output


def _nets(run) -> dict[str, int]:  # noqa: ANN001
    return {r["player"]: r["net"] for r in json.loads(run("balances", "--json").output)["players"]}


def test_a_raked_hand_ends_cleanly(run, hand: Path) -> None:  # noqa: ANN001
    out = run("act", "r1", "rake 10")
    assert (out.exit_code, out.output) == (
        0, "11 recorded_rake; phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), "
        "pay PLAYER AMOUNT (the pot less the rake of 10), then end\n")
    assert run("act", "r1", "pay Ann 290").exit_code == 0
    assert run("act", "r1", "end").output == "13 hand_ended; hand complete\n"
    assert _types(hand)[-3:] == ["recorded_rake", "recorded_payout", "hand_ended"]
    with Ledger(str(hand), read_only=True) as ledger:
        assert ledger.read("r1")[10].event.model_dump() == {
            "type": "recorded_rake", "schema_version": 1, "amount": 10}

    out = run("replay", "--hand", "r1", "--json")
    assert out.exit_code == 0  # paid the pot less the rake: as the rules give
    (r,) = [json.loads(line) for line in out.output.splitlines()]
    assert [(p["amount"], p["awards"]) for p in r["pots"]] == [(300, {"Ann": 300})]
    assert r["recorded"] == {"Ann": 290}
    assert r["discrepancies"] == [{"player": "Ann", "name": "Ann", "recorded": 290,
                                   "recomputed": 300,
                                   "diff": -10, "kind": "rake", "message": RAKE_LINE}]

    text = run("replay", "--hand", "r1").output
    assert f"  note: {RAKE_LINE}" in text.splitlines()  # one line: a pipe's is never wrapped
    assert "DISCREPANCY" not in text
    assert text.splitlines()[-1:] == [
        "1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not verifiable "
        "(the hash chain not checked: `handledger verify`)"]

    out = run("audit", "--json")
    assert (out.exit_code, out.output) == (0, '{"discrepancies": []}\n')
    assert _nets(run) == {"Ann": 140, "Bob": -150}  # together -10: the rake left the table

    # the cash-outs the hand leaves: 290 and 0 of the 300 bought in; no session finding
    for args in (("cashout", "s", "Ann", "290"), ("cashout", "s", "Bob", "0"),
                 ("session", "close", "s")):
        assert run(*args).exit_code == 0, args
    out = run("audit")  # clean; s, closed with nothing paid, still owes money
    assert (out.exit_code, out.output.splitlines()) == (0, [
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`); 1 closed session still owes money "
        "(s): `handledger audit --unsettled` names who, `handledger settle` who pays whom"])


def test_balances_name_the_rake_of_each_session(run, db: str, raked: Path) -> None:  # noqa: ANN001
    copy_ledger(raked, Path(db))  # r1 raked 10, Ann paid 290, ended
    text = run("balances").output
    assert text.splitlines()[-2:] == [
        "rake: 10 chips taken from the pots in session s (1 hand)",
        "note: the players' nets sum to -10 chips, not 0: the rake the table took (above)"]
    body = json.loads(run("balances", "--json").output)
    assert body["rake"] == [{"session": "s", "chips": 10, "hands": 1,
                             "chip_value_minor": 1, "decimals": 0, "currency": None}]
    out = run("settle", "--session", "s")  # the rake is owed to the house (plain chips)
    assert (out.exit_code, out.output.splitlines()) == (0, [
        "Bob pays Ann 140 chips", "Bob pays the house 10 chips",
        "2 transfer(s) settle 2 player(s) and the house",
        "the house: whoever keeps the rake the table took, 10 chips (10 chips in session s); "
        "`handledger pay s PLAYER rake AMOUNT` records a payment to it"])


@pytest.mark.parametrize(("action", "said"), [
    ("rake 0", "rake 0: a rake is a number of chips above 0"),
    ("rake -5", "'-5' is not a valid amount in this hand's units"),
    ("rake 1.5", "'1.5' is not a valid amount in this hand's units"),
    ("rake ten", "'ten' is not an amount"),
    ("rake 1e1", "'1e1' is not a whole number of chips written in digits"),
    ("rake", "'rake': expected 'rake AMOUNT'"),
    ("rake 5 5", "'rake 5 5': expected 'rake AMOUNT'"),
    ("rake 301", "a rake of 301 is more than the pot's 300 chips"),
])
def test_a_rake_that_is_no_amount_of_the_pot_is_refused(run, hand: Path, action: str,  # noqa: ANN001
                                                        said: str) -> None:
    assert f"error: hand r1, action '{action}': {said}" in _refused(run, hand, action)


def test_a_payout_beyond_what_the_rake_leaves_says_how_much_can_be_paid(run, hand: Path  # noqa: ANN001
                                                                        ) -> None:
    # the 300 pot less a rake of 5: 295 can be paid, 296 cannot
    assert run("act", "r1", "rake 5").exit_code == 0
    assert ("action 'pay Ann 296': the pot holds 300, 0 already paid and 5 raked: at most 295 "
            "more can be paid; now:" in _refused(run, hand, "pay Ann 296"))
    assert run("act", "r1", "pay Ann 200").exit_code == 0
    assert ("action 'pay Bob 96': the pot holds 300, 200 already paid and 5 raked: at most 95 "
            "more can be paid; now:" in _refused(run, hand, "pay Bob 96"))


def test_one_rake_a_hand_and_within_what_is_not_paid(run, hand: Path) -> None:  # noqa: ANN001
    assert run("act", "r1", "pay Ann 295").exit_code == 0
    assert ("a rake of 10 is more than the 5 chips of the pot's 300 not yet paid (295 paid)"
            in _refused(run, hand, "rake 10"))
    assert run("act", "r1", "rake 5").exit_code == 0
    for again in ("rake 5", "rake 1"):  # never summed: a line given twice is caught
        assert ("the hand already records a rake of 5: a hand records one rake"
                in _refused(run, hand, again))
    assert "the pot holds 300, 295 already paid and 5 raked: nothing more can be paid; now:" \
        in _refused(run, hand, "pay Ann 1")
    assert run("act", "r1", "end").exit_code == 0
    assert "the hand is complete: a change now is a correction" in _refused(run, hand, "rake 1")
    assert _nets(run) == {"Ann": 145, "Bob": -150}


def test_end_refuses_payouts_and_rake_short_of_the_pot(run, hand: Path) -> None:  # noqa: ANN001
    assert run("act", "r1", "rake 10").exit_code == 0
    assert ("cannot end with 0 of the pot's 300 chips paid and 10 raked: 290 would go to nobody"
            in _refused(run, hand, "end"))  # a raked hand records its payouts
    assert run("act", "r1", "pay Ann 280").exit_code == 0
    assert ("cannot end with 280 of the pot's 300 chips paid and 10 raked: 10 would go to "
            "nobody" in _refused(run, hand, "end"))
    assert run("act", "r1", "pay Ann 10").exit_code == 0
    assert run("act", "r1", "end").exit_code == 0


def test_a_rake_before_the_showdown_or_of_no_hand_is_refused(run, db: str) -> None:  # noqa: ANN001
    steps = [("hand", "start", "--hand", "r1", "--game", "NT", "--stakes", "1/2", "--seats",
              "Ann:150,Bob:150", "--button", "Ann"), ("act", "r1", "d dh Ann AsAh")]
    build_ledger(Path(db), steps)
    assert ("the rake is taken from the pot once the betting is over: at the showdown, or "
            "while the players declare when no betting round follows the declarations (phase "
            "deal now)" in _refused(run, Path(db), "rake 3"))
    assert _refused(run, Path(db), "rake 3", hand="r9") == (
        f"error: hand r9: ledger {db} holds no such hand\n")


def test_the_table_reads_rake_as_act_does(run, hand: Path) -> None:  # noqa: ANN001
    out = run("table", "r1", "--keep-going", input="rake 10\nrake 10\npay Ann 290\nend\n")
    assert out.exit_code == 2
    assert out.stdout.splitlines() == [
        "11 recorded_rake; phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), "
        "pay PLAYER AMOUNT (the pot less the rake of 10), then end",
        "12 recorded_payout; phase showdown, next: pay PLAYER AMOUNT or end",
        "13 hand_ended; hand complete"]
    assert out.stderr.startswith("error: line 2, hand r1, action 'rake 10': the hand already "
                                 "records "
                                 "a rake of 10") and out.stderr.count("\n") == 1
    assert _nets(run) == {"Ann": 140, "Bob": -150}


def test_a_player_cannot_be_named_rake(run) -> None:  # noqa: ANN001
    out = run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "rake:100,Bob:100",
              "--button", "Bob")
    assert out.exit_code == 2 and "player name 'rake' cannot be used at the table: 'rake " \
        "AMOUNT' records what the table took from the pot" in out.output


def test_the_raked_hand_round_trips_through_its_exports(run, db: str, tmp_path: Path,  # noqa: ANN001
                                                        raked: Path) -> None:
    from click.testing import CliRunner

    from cli.main import cli

    hand = copy_ledger(raked, Path(db))  # r1 raked 10, Ann paid 290, ended

    def other(target: Path, *args: str):  # noqa: ANN202
        return CliRunner().invoke(cli, ["--db", str(target), *args], catch_exceptions=False)

    def findings(target: Path) -> list[tuple]:
        body = json.loads(other(target, "audit", "--json").output)
        return [(d["kind"], d["hand"], d["player"], d["expected"], d["actual"])
                for d in body["discrepancies"]]

    lines, phh = tmp_path / "r.jsonl", tmp_path / "r.phh"
    assert run("export", "--format", "jsonl", "-o", str(lines)).exit_code == 0
    assert run("export", "--format", "phh", "r1", "-o", str(phh)).exit_code == 0
    assert "\nwinnings = [0, 290]\nrake = 10\n" in phh.read_text()  # FORMATS.md §1's field

    again = tmp_path / "again.duckdb"
    assert other(again, "import", str(lines)).exit_code == 0
    assert other(again, "export", "--format", "jsonl").output == lines.read_text()
    assert findings(again) == findings(hand) == []  # paid the pot less the rake

    # PHH keeps the rake in the hand's file fields, as any imported PHH hand with a rake
    from_phh = tmp_path / "phh.duckdb"
    assert other(from_phh, "import", str(phh)).exit_code == 0
    assert findings(from_phh) == []  # paid the pot less the file's rake
    nets = json.loads(other(from_phh, "balances", "--json").output)["players"]
    assert {p["player"]: p["net"] for p in nets} == {"Ann": 140, "Bob": -150}
    assert other(from_phh, "export", "--format", "phh").output == phh.read_text()


def test_the_engine_takes_one_rake_a_hand() -> None:
    """A stream read from a file holds one rake at most, and none beside its file's own."""
    from engine.errors import IllegalAction
    from ledger.formats.phh.read import read_phh_text
    from ledger.model import events as ev
    from replay.build import events_from_phh
    from replay.fold import replay_events
    from tests.test_rake import HAND

    (phh,) = read_phh_text(HAND + "winnings = [31, 0, 0]\n").check()
    events = events_from_phh(phh)
    raked = [*events[:-1], ev.RecordedRake(amount=1), events[-1]]
    r = replay_events(raked)
    assert [(d.kind, d.player, d.diff) for d in r.discrepancies] == [("rake", "p1", -1)]
    assert "the table kept 1 as rake (as recorded at the table)" in r.discrepancies[0].message
    with pytest.raises(IllegalAction, match="already records a rake of 1"):
        replay_events([*raked[:-1], ev.RecordedRake(amount=1), raked[-1]])
    (filed,) = read_phh_text(HAND + "winnings = [31, 0, 0]\nrake = 1\n").check()
    events = events_from_phh(filed)
    with pytest.raises(IllegalAction, match="the hand's file already records its rake"):
        replay_events([*events[:-1], ev.RecordedRake(amount=1), events[-1]])


def test_a_showdown_of_unknown_cards_raked(run, db: str) -> None:  # noqa: ANN001
    """Cards never seen: the rules cannot award the 300 pot, so the payouts are taken as the
    split; short of it by exactly the rake recorded, the one finding is that rake."""
    start = ("hand", "start", "--hand", "r1", "--game", "NT", "--stakes", "1/2", "--seats",
             "Ann:150,Bob:150", "--button", "Ann")
    unseen = ("d dh Ann ????", "d dh Bob ????", *SHOWN[2:], "rake 10", "pay Ann 290", "end")
    build_ledger(Path(db), [start, *(("act", "r1", a) for a in unseen)])
    assert run("audit", "--json").output == '{"discrepancies": []}\n'  # the rake alone
    (r,) = [json.loads(line) for line in run("replay", "--hand", "r1", "--json").output
            .splitlines()]
    assert [(d["kind"], d["player"], d["recomputed"], d["recorded"], d["message"])
            for d in r["discrepancies"]] == [
        ("rake", None, 300, 290, f"{RAKE_LINE}; the showdown cannot be checked (unknown cards)")]
    assert _nets(run) == {"Ann": 140, "Bob": -150}


def test_state_names_the_rake_and_standings_leave_it_out(run, hand: Path) -> None:  # noqa: ANN001
    assert run("act", "r1", "rake 10").exit_code == 0
    assert run("state", "r1").output.splitlines()[2:5] == [
        "Main pot: 300 (Bob, Ann)", "rake: 10 taken from the pot",
        "by the rules: Main pot 300, 290 after the rake of 10 (Bob, Ann): Ann wins 290 with pair "
        "of aces, T-9-4 kickers."]  # what `end` holds the payouts to: the pot less the rake
    assert "\nstacks: Bob 0, Ann 0\n" in run("state", "r1").output
    for action in ("pay Ann 290", "end"):
        assert run("act", "r1", action).exit_code == 0
    body = json.loads(run("standings", "--json").output)
    assert {p["player"]: p["total"] for p in body["players"]} == {"Ann": 140, "Bob": -150}


def test_a_rake_is_corrected_and_undone_as_any_action(run, hand: Path) -> None:  # noqa: ANN001
    for action in ("pay Ann 300", "end"):  # seq 11, 12: paid in full, no rake
        assert run("act", "r1", action).exit_code == 0
    fix = ("correct", "r1", "--reason", "the food", "--by", "Cy")
    out = run(*fix, "--insert-after", "11", "rake 10")
    assert (out.exit_code, out.output) == (
        2, "error: hand r1: correction insert_after 11 'rake 10': the corrected hand pays out "
        "310 (a rake of 10 with it): the pot "
        "holds 300\n")
    out = run(*fix, "--replace", "11", "pay Ann 290", "--insert-after", "11", "rake 10")
    assert out.exit_code == 0, out.output
    assert _nets(run) == {"Ann": 140, "Bob": -150}
    assert "insert_after seq 11 recorded_rake 10" in run("history", "r1").output
    assert run("undo", "r1", "--by", "Cy").exit_code == 0
    assert _nets(run) == {"Ann": 150, "Bob": -150}
    assert "rake" not in run("balances").output


def test_undo_takes_a_wrong_rake_back(run, hand: Path) -> None:  # noqa: ANN001
    assert run("act", "r1", "rake 5").exit_code == 0
    assert run("undo", "r1", "--by", "Cy").exit_code == 0
    for action in ("rake 10", "pay Ann 290", "end"):
        assert run("act", "r1", action).exit_code == 0, action
    assert _nets(run) == {"Ann": 140, "Bob": -150}


def test_a_rake_is_counted_in_the_sessions_chips() -> None:
    """A hand in cents imported into a session of 0.25 USD chips: its rake of 50 cents is 2
    of the session's chips, as its payouts are (replay/ingest/units.py)."""
    from ledger.model import events as ev
    from replay.ingest.units import SessionUnit, to_session
    from replay.live import LiveHand, build_started

    started, forced = build_started(LiveHand(game="NT", seats="Ann:1000,Bob:1000",
                                             stakes="25/50", button="Ann"), hand="c1", session=None)
    cents = started.model_copy(update={"unit": ev.Unit(currency="USD", decimals=2)})
    out = to_session([cents, *forced, ev.RecordedRake(amount=50),
                      ev.RecordedPayout(player="Ann", amount=950)], SessionUnit(25, "USD", 2), "s")
    assert [(e.type, e.amount) for e in out[-2:]] == [("recorded_rake", 2),
                                                      ("recorded_payout", 38)]


def test_a_files_rake_of_unknown_cards_is_that_rake_too() -> None:
    """The same reading for a PHH hand's own ``rake`` (FORMATS.md §1): cards never shown, a
    200 pot, 195 paid and a rake of 5 is the rake; 194 paid is a payout finding."""
    from ledger.formats.phh.read import read_phh_text
    from replay.build import events_from_phh
    from replay.fold import replay_events

    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [100, 100]\nactions = ['d dh p1 ????', 'd dh p2 ????', "
            "'p2 cbr 100', 'p1 cc', 'd db 2c3d4h', 'd db 9s', 'd db Td']\nrake = 5\n")

    def kinds(paid: int) -> list[tuple[str, str, int, int]]:
        (hand,) = read_phh_text(text + f"winnings = [{paid}, 0]\n").check()
        r = replay_events(events_from_phh(hand))
        return [(d.kind, d.player, d.recorded, d.recomputed) for d in r.discrepancies]

    assert kinds(195) == [("rake", "*", 195, 200)]
    assert kinds(194) == [("infeasible", "*", 194, 200)]


#: Three-handed, 1/2, button Ann (Bob posts 1, Cy 2); the hole cards dealt Bob, Cy, Ann.
THREE = ("hand", "start", "--hand", "t1", "--session", "s", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Ann")
DEALT = ("d dh Bob KsKh", "d dh Cy 7c2d", "d dh Ann AsAh")


def _three(db: str, *actions: str) -> Path:
    buyins = [("buyin", "s", p, "100") for p in ("Ann", "Bob", "Cy")]
    return build_ledger(Path(db), [("session", "open", "s"), *buyins, THREE,
                                   *(("act", "t1", a) for a in (*DEALT, *actions))])


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_three(db)``: session s, the three bought in, t1 started and its hole cards dealt,
    built once for the module."""
    return _three(str(tmp_path_factory.mktemp("dealt") / "t.duckdb"))


@pytest.fixture(scope="module")
def folded(dealt: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_three(db, "Ann cbr 10", "Bob f", "Cy f")``, built once for the module."""
    db = copy_ledger(dealt, tmp_path_factory.mktemp("folded") / "t.duckdb")
    return build_ledger(db, [("act", "t1", a) for a in ("Ann cbr 10", "Bob f", "Cy f")])


@pytest.fixture(scope="module")
def checked(dealt: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_three(db, *CHECKED)``: the three check it down, built once for the module."""
    db = copy_ledger(dealt, tmp_path_factory.mktemp("checked") / "t.duckdb")
    return build_ledger(db, [("act", "t1", a) for a in CHECKED])


def test_a_rake_comes_out_of_the_pots_never_out_of_an_uncalled_bet(  # noqa: ANN001
        run, db: str, folded: Path) -> None:
    """Ann raises to 10, Bob and Cy fold: a pot of 5 (Bob's 1, Cy's 2 and the 2 of Ann's
    that Cy's blind matched) and her uncalled 8 returned. At most the 5 of the pot can be
    raked; the 8 is hers, returned before the end. A rake above the 13 chips in the middle
    (14) is refused naming the pot of 5 and her bet apart, never a pot of 13; and so is the
    end short of her bet (13 to pay: the pot's 5 and her 8)."""
    copy_ledger(folded, Path(db))  # _three(db, "Ann cbr 10", "Bob f", "Cy f")
    assert "Main pot: 5 (Ann)\nreturned: Ann 8\n" in run("state", "t1").output
    for rake in ("rake 6", "rake 13", "rake 14"):
        assert (f"action '{rake}': a rake of {rake[5:]} is more than the pots: they hold 5 "
                "(Ann's uncalled bet of 8 is returned to Ann, it is in no pot; RULES.md "
                "§1.2-1.4): at most 5 can be raked; now:" in _refused(run, Path(db), rake, "t1"))
    assert run("act", "t1", "rake 5").exit_code == 0  # the whole pot: legal
    assert ("action 'end': cannot end: 0 of the 13 chips to pay are paid and 5 raked (the "
            "pot's 5, and Ann's uncalled bet of 8 to return, RULES.md §1.4): 8 would go to "
            "nobody (an uncalled bet is returned, never raked: returned Ann 8)"
            in _refused(run, Path(db), "end", "t1"))
    assert ("action 'pay Ann 9': the pots hold 5 (Ann's uncalled bet of 8 is returned to Ann, "
            "it is in no pot; RULES.md §1.2-1.4), 5 raked: nothing more can be paid out of "
            "them; Ann's uncalled bet is paid back with `returned Ann 8`; now:"
            in _refused(run, Path(db), "pay Ann 9", "t1"))
    for action in ("returned Ann 8", "end"):
        assert run("act", "t1", action).exit_code == 0, action
    assert _nets(run) == {"Ann": -2, "Bob": -1, "Cy": -2}  # -5 in all: the rake
    assert json.loads(run("balances", "--json").output)["rake"] == [
        {"session": "s", "chips": 5, "hands": 1,
         "chip_value_minor": 1, "decimals": 0, "currency": None}]


def test_a_rake_after_the_uncalled_bet_is_paid_back_counts_it_in_no_pot(
        run, db: str, folded: Path) -> None:  # noqa: ANN001
    """The same hand, Ann's uncalled 8 paid back first (`returned Ann 8`): 13 chips were in
    the middle and 8 are paid, but the 8 were never in the pot, so a rake of 6 is refused
    as more than the pot of 5, her bet named apart (before: "more than the 5 chips of the
    pot's 13 not yet paid (8 paid)"); a rake of 5, the whole pot, goes in, and the end with
    it."""
    copy_ledger(folded, Path(db))  # _three(db, "Ann cbr 10", "Bob f", "Cy f")
    assert run("act", "t1", "returned Ann 8").exit_code == 0
    assert _refused(run, Path(db), "rake 6", "t1").startswith(
        "error: hand t1, action 'rake 6': a rake of 6 is more than the pots: they hold 5 "
        "(Ann's uncalled bet of 8 is returned to Ann, it is in no pot; RULES.md §1.2-1.4): at "
        "most 5 can be raked; now:")
    for action in ("rake 5", "end"):
        assert run("act", "t1", action).exit_code == 0, action
    assert _nets(run) == {"Ann": -2, "Bob": -1, "Cy": -2}


def test_a_pay_after_the_rake_beyond_the_pot_is_refused_naming_the_uncalled_bet(
        run, db: str, folded: Path) -> None:  # noqa: ANN001
    """The folded-to raise above: a pot of 5 and Ann's uncalled 8. Raked 1, the pot has 4
    left to pay: `pay Ann 4` pays it, and a plain `pay` of one chip more would pay her
    uncalled bet as pot chips (before: it went in, and `returned Ann 8` was then refused
    with `at most 7 more can be paid`). Refused naming the bet and its notation; the bet
    returned, the hand ends: Ann put in 10 and gets 4 + 8 = 12, +2; Bob -1, Cy -2; -1 in
    all, the rake."""
    copy_ledger(folded, Path(db))  # _three(db, "Ann cbr 10", "Bob f", "Cy f")
    for action in ("rake 1", "pay Ann 4"):
        assert run("act", "t1", action).exit_code == 0, action
    for action in ("pay Ann 1", "pay Ann 8"):
        assert _refused(run, Path(db), action, "t1") == (
            f"error: hand t1, action '{action}': the pots hold 5 (Ann's uncalled bet of 8 is "
            "returned to Ann, it is in no pot; RULES.md §1.2-1.4), 1 raked, 4 of them paid: "
            "nothing more can be paid out of them; Ann's uncalled bet is paid back with "
            "`returned Ann 8`; now: phase no showdown, next: returned Ann 8 (the uncalled "
            "bet, in no pot: RULES.md §1.4), then end\n")
    for action in ("returned Ann 8", "end"):
        assert run("act", "t1", action).exit_code == 0, action
    assert _nets(run) == {"Ann": 2, "Bob": -1, "Cy": -2}


def test_a_payout_after_the_rake_cannot_take_an_uncalled_bet(run, db: str) -> None:  # noqa: ANN001
    """Cy (20 chips) calls Ann's raise to 30 all in, Bob folds: a pot of 41 (Cy 20, Ann 20,
    Bob 1) for Ann and Cy, Ann's uncalled 10 returned. Raked 5, the pot has 36 left to pay:
    Cy's aces may not be paid 41, which would take 5 of Ann's 10."""
    buyins = [("buyin", "s", p, c) for p, c in (("Ann", "100"), ("Bob", "100"), ("Cy", "20"))]
    start = (*THREE[:-3], "Ann:100,Bob:100,Cy:20", "--button", "Ann")
    actions = ("d dh Bob 7c2d", "d dh Cy AsAh", "d dh Ann KsKh", "Ann cbr 30", "Bob f", "Cy cc",
               "d db 2c3d4h", "d db 9s", "d db Td", "rake 5")
    build_ledger(Path(db), [("session", "open", "s"), *buyins, start,
                            *(("act", "t1", a) for a in actions)])
    assert ("action 'pay Cy 41': the pots hold 41 (Ann's uncalled bet of 10 is returned to "
            "Ann, it is in no pot; RULES.md §1.2-1.4), 5 raked: at most 36 more can be paid out "
            "of them" in _refused(run, Path(db), "pay Cy 41", "t1"))
    for action in ("pay Cy 36", "returned Ann 10", "end"):
        assert run("act", "t1", action).exit_code == 0, action
    assert _nets(run) == {"Ann": -20, "Bob": -1, "Cy": 16}


#: The three check it down; Ann's aces win the pot of 6.
CHECKED = ("Ann cc", "Bob cc", "Cy cc", *(a for card in ("d db 2c3d4h", "d db 9s", "d db Td")
                                          for a in (card, "Bob cc", "Cy cc", "Ann cc")))


def test_a_rake_of_the_whole_pot_pays_nobody_and_is_counted(  # noqa: ANN001
        run, db: str, checked: Path) -> None:
    """Each puts in 2; the table takes the whole pot of 6 and pays nobody: a legal end, and
    the hand's payouts are "none paid", not unknown. Nets -2 each (not Ann +4 by the rules),
    the rake of 6 is the house's: each pays it 2."""
    copy_ledger(checked, Path(db))  # _three(db, *CHECKED)
    out = run("act", "t1", "rake 6")
    assert out.output == ("22 recorded_rake; phase showdown, next: end (the rake of 6 took "
                          "the pot)\n")
    assert run("act", "t1", "end").exit_code == 0
    out = run("replay", "--hand", "t1", "--json")
    (r,) = [json.loads(line) for line in out.output.splitlines()]
    assert (out.exit_code, r["recorded"], r["notes"]) == (0, {}, [])
    assert [(d["player"], d["recorded"], d["recomputed"], d["kind"]) for d in
            r["discrepancies"]] == [("Ann", 0, 6, "rake")]
    assert "paid: nobody (the rake of 6 took the pot)" in run("state", "t1").output
    assert run("audit", "--json").output == '{"discrepancies": []}\n'  # the rake alone
    assert _nets(run) == {"Ann": -2, "Bob": -2, "Cy": -2}
    assert json.loads(run("balances", "--json").output)["rake"] == [
        {"session": "s", "chips": 6, "hands": 1,
         "chip_value_minor": 1, "decimals": 0, "currency": None}]
    assert run("settle", "--session", "s").output.splitlines()[:4] == [
        "Ann pays the house 2 chips", "Bob pays the house 2 chips", "Cy pays the house 2 chips",
        "3 transfer(s) settle 3 player(s) and the house"]


def test_a_rake_of_the_whole_pot_round_trips_through_phh(  # noqa: ANN001
        run, db: str, tmp_path: Path, checked: Path) -> None:
    """The hand above exported as PHH has ``rake = 6`` and no ``winnings`` (nobody paid): it
    is already in the ledger it came from, and imported into another it is the same rake of
    the whole pot (a file's rake with no payouts is refused unless it took the pot,
    replay/ingest/rakes.py), nets -2 each."""
    from tests.test_live_table import one_shot

    copy_ledger(checked, Path(db))  # _three(db, *CHECKED)
    for action in ("rake 6", "end"):
        assert run("act", "t1", action).exit_code == 0
    phh = tmp_path / "t1.phh"
    assert run("export", "--format", "phh", "t1", "-o", str(phh)).exit_code == 0
    text = phh.read_text()
    assert "\nrake = 6\n" in text and "winnings" not in text
    assert run("import", str(phh)).output == ("imported 0 hand(s) (0 events) from 1 file(s); 1 "
                                              "already in the ledger; 0 rejected\n")
    other = tmp_path / "o.duckdb"
    assert one_shot(other, "import", str(phh))[0] == 0
    assert one_shot(other, "audit", "--json")[:2] == (0, '{"discrepancies": []}\n')
    nets = json.loads(one_shot(other, "balances", "--json")[1])
    assert {p["player"]: p["net"] for p in nets["players"]} == {"Ann": -2, "Bob": -2, "Cy": -2}
    assert nets["rake"] == [{"session": "s", "chips": 6, "hands": 1,
                             "chip_value_minor": 1, "decimals": 0, "currency": None}]


def test_a_correction_cannot_rake_an_uncalled_bet(run, db: str, folded: Path) -> None:  # noqa: ANN001
    """The folded-to raise above, paid in full (seq 10 Ann's 8 returned, 11 the pot of 5): a
    correction that rakes 13 in their place is refused; one that rakes the pot's 5 goes in."""
    copy_ledger(folded, Path(db))  # _three(db, "Ann cbr 10", "Bob f", "Cy f")
    for action in ("returned Ann 8", "pay Ann 5", "end"):
        assert run("act", "t1", action).exit_code == 0, action
    fix = ("correct", "t1", "--reason", "the food", "--by", "host")
    out = run(*fix, "--replace", "10", "rake 13", "--delete", "11")
    assert (out.exit_code, out.output) == (2, (
        "error: hand t1: correction replace 10 'rake 13', delete 11: a rake of 13 is more than "
        "the pots: they hold 5 (Ann's uncalled bet of 8 is returned to Ann, it is in no pot; "
        "RULES.md §1.2-1.4): at most 5 can be raked\n"))
    assert run(*fix, "--replace", "11", "rake 5").exit_code == 0
    assert _nets(run) == {"Ann": -2, "Bob": -1, "Cy": -2}


def test_a_correction_is_held_to_the_bound_on_a_pay_after_the_rake(  # noqa: ANN001
        run, db: str, folded: Path) -> None:
    """The folded-to raise above (a pot of 5, Ann's uncalled 8), paid `pay Ann 13` (seq 10)
    and ended with no rake. A correction that rakes 1 before the payout and pays 12 after it
    puts a plain pay after the rake that takes 5 pot chips with the 1 raked: the live `pay
    Ann 12` after `rake 1` is refused, and so is the correction, in the same words after its
    changes, exit 2, nothing written (before: it went in). Paid back with `returned Ann 8`
    after `pay Ann 4`, or the rake put after `pay Ann 12` (as live: the rake then takes the
    pot's last chip), it goes in: Ann put in 10 and gets 12, +2; Bob -1, Cy -2."""
    copy_ledger(folded, Path(db))  # _three(db, "Ann cbr 10", "Bob f", "Cy f")
    for action in ("pay Ann 13", "end"):
        assert run("act", "t1", action).exit_code == 0, action
    words = ("the pots hold 5 (Ann's uncalled bet of 8 is returned to Ann, it is in no pot; "
             "RULES.md §1.2-1.4), 1 raked: at most 4 more can be paid out of them; Ann's "
             "uncalled bet is paid back with `returned Ann 8`")
    fix = ("correct", "t1", "--reason", "the food", "--by", "host")
    before = _types(db, "t1")
    out = run(*fix, "--insert-after", "9", "rake 1", "--replace", "10", "pay Ann 12")
    assert (out.exit_code, out.output) == (2, (
        f"error: hand t1: correction replace 10 'pay Ann 12', insert_after 9 'rake 1': {words}"
        "\n"))
    assert _types(db, "t1") == before
    assert _nets(run) == {"Ann": 3, "Bob": -1, "Cy": -2}  # as paid: 13 for his 10
    good = copy_ledger(Path(db), Path(db).with_name("good.duckdb"))
    out = run(*fix, "--replace", "10", "pay Ann 12", "--insert-after", "10", "rake 1")
    assert out.exit_code == 0, out.output
    assert _nets(run) == {"Ann": 2, "Bob": -1, "Cy": -2}
    copy_ledger(good, Path(db))
    out = run(*fix, "--insert-after", "9", "rake 1", "--replace", "10", "pay Ann 4",
              "--insert-after", "10", "returned Ann 8")
    assert out.exit_code == 0, out.output
    assert _nets(run) == {"Ann": 2, "Bob": -1, "Cy": -2}
    # the live action, for the words: the same hand to its showdown, raked 1
    copy_ledger(folded, Path(db))
    assert run("act", "t1", "rake 1").exit_code == 0
    assert _refused(run, Path(db), "pay Ann 12", "t1").startswith(
        f"error: hand t1, action 'pay Ann 12': {words}; now:")


def test_a_split_pot_raked_is_one_rake(run, db: str) -> None:  # noqa: ANN001
    """Ann and Bob all in for 51 each, the board a royal flush: the pot of 102 is split 51
    and 51 by the rules; the table takes 5 before splitting and pays the 97 left 49 to Bob
    (the odd chip: first left of the button Ann, RULES.md §2.2) and 48 to Ann. One rake
    finding for the hand (the whole table's: 97 paid of 102), 5 chips of rake taken, counted
    once everywhere."""
    from replay.rake_taken import rake_taken

    start = ("hand", "start", "--hand", "sp", "--session", "s", "--game", "NT", "--stakes",
             "1/2", "--seats", "Ann:51,Bob:51", "--button", "Ann")
    actions = ("d dh Ann 2c3d", "d dh Bob 4h5c", "Ann cbr 51", "Bob cc", "d db AsKsQs",
               "d db Js", "d db Ts", "rake 5", "pay Bob 49", "pay Ann 48", "end")
    build_ledger(Path(db), [("session", "open", "s"), ("buyin", "s", "Ann", "51"),
                            ("buyin", "s", "Bob", "51"), start,
                            *(("act", "sp", a) for a in actions)])
    (r,) = [json.loads(line) for line in run("replay", "--hand", "sp", "--json").output
            .splitlines()]
    said = ("hand sp: the table paid 5 less than the pots and returns: the table kept 5 as rake "
            "(as recorded at the table)")
    assert r["discrepancies"] == [{"player": None, "name": None, "recorded": 97,
                                   "recomputed": 102,
                                   "diff": -5, "kind": "rake", "message": said}]
    out = run("audit")
    assert out.output.splitlines() == [
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)"]
    # the rake finding names no player (README) in the discrepancies table; no audit finding
    assert json.loads(run("sql", "--json", "SELECT player, kind FROM discrepancies").output
                      ) == [{"player": None, "kind": "rake"}]
    assert json.loads(run("audit", "--json").output)["discrepancies"] == []
    assert json.loads(run("balances", "--json").output)["rake"] == [
        {"session": "s", "chips": 5, "hands": 1,
         "chip_value_minor": 1, "decimals": 0, "currency": None}]
    assert _nets(run) == {"Ann": -3, "Bob": -2}
    with Ledger(db, read_only=True) as ledger:
        assert rake_taken(ledger, "s") == 5


def test_standings_and_report_say_the_sum_row_is_the_rake(run, db: str, raked: Path,  # noqa: ANN001
                                                          tmp_path: Path) -> None:
    """The (sum) row of ``standings`` and the report's Sum row are -10, not 0: both say it is
    the rake, in the lines ``balances`` gives (Ann +140, Bob -150, the table took 10)."""
    copy_ledger(raked, Path(db))
    rake = ["rake: 10 chips taken from the pots in session s (1 hand)",
            "note: the players' nets sum to -10 chips, not 0: the rake the table took (above)"]
    out = run("standings")
    assert (out.exit_code, out.output.splitlines()) == (0, [
        "player              s        total",
        "Ann               140          140",
        "Bob              -150         -150",
        "(sum)             -10          -10", *rake])
    assert run("balances").output.splitlines()[-2:] == rake
    grid = json.loads(run("standings", "--json").output)  # the same facts, balances' keys
    assert grid["rake"] == [{"session": "s", "chips": 10, "hands": 1,
                             "chip_value_minor": 1, "decimals": 0, "currency": None}]
    assert grid["unbalanced"] == [
        {"chip_value_minor": 1, "decimals": 0, "currency": None, "net_sum": -10}]
    books = json.loads(run("balances", "--json").output)
    assert (grid["rake"], grid["unbalanced"]) == (books["rake"], books["unbalanced"])
    site = tmp_path / "site"
    assert run("report", str(site)).exit_code == 0
    index = (site / "index.html").read_text(encoding="utf-8")
    assert ("The last row sums each column: 0 when every chip is accounted for, less the "
            "rake the table took (below).") in index
    assert [html.unescape(n) for n in re.findall(r'<p class="note sum-note">(.*?)</p>',
                                                 index)] == rake
