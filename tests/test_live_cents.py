"""A hand kept in cents (an imported file in dollars and cents, FORMATS.md §1) takes its
amounts at the table as its notation writes them, ``pay Ann 2.19`` (replay/action_text.py
``parse_action``), and everything a live command shows the host gives its amounts the same
way (replay/typed.py ``as_typed``, ``reason_as_typed``): ``state``, the ``now:`` of ``act``
and ``table``, the engine's refusals (``raise to 3.00 is below the minimum 4.00``, never its
300 and 400 cents), those of ``whatif`` and ``correct``, and the payout and rake refusals
(``the pot holds 273.00``). A hand of whole chips reads as it always did."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.store.store import Ledger

#: Ann (button) 73.00 all in, Bob and Cy call; on the flop Bob bets his last 27.00 and Cy
#: calls. Pot 0: 219.00 (Ann, Bob, Cy); pot 1: 54.00 (Bob, Cy); 273.00 in all. Amounts as
#: the hand writes them, in dollars.
ACTIONS = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy QsQh", "Ann cbr 73.00", "Bob cc",
           "Cy cc", "d db 2c3d4h", "Bob cbr 27.00", "Cy cc", "d db 9s", "d db Td",
           "Ann sm AsAh", "Bob sm KsKh", "Cy sm QsQh")


def _in_play(tmp_path: Path) -> Path:
    """A JSON lines export of hand c1 taken while it was played (its closing ``in_play`` line):
    stacks 73.00, 100.00 and 100.00, blinds 0.50/1.00, kept in cents, up to the showdown."""
    return _exported(tmp_path, "c1", "Ann:7300,Bob:10000,Cy:10000", "50/100", ACTIONS)


def _exported(tmp_path: Path, hand: str, seats: str, stakes: str,
              actions: tuple[str, ...]) -> Path:
    """A JSON lines export of no-limit hold'em ``hand`` (button Ann) kept in cents, taken
    while it was played (its closing ``in_play`` line) after ``actions``: how a hand in
    dollars and cents comes to be live (``hand start`` counts whole chips). ``seats`` and
    ``stakes`` in cents."""
    from engine.notation import to_event
    from engine.state import HandState
    from ledger.model import events as ev
    from replay.live import LiveHand, build_started

    started, forced = build_started(LiveHand(game="NT", seats=seats, stakes=stakes,
                                             button="Ann"), hand=hand, session=None)
    started = started.model_copy(update={"unit": ev.Unit(currency="USD", decimals=2)})
    state = HandState.start(started)
    events = [started]
    for event in forced:
        state.apply(event)
        events.append(event)
    for action in actions:
        event = to_event(state, action)
        state.apply(event)
        events.append(event)
    path = tmp_path / f"{hand}.jsonl"
    lines = [json.dumps({"hand": hand, "seq": k, "event": e.model_dump(mode="json")})
             for k, e in enumerate(events, 1)]
    path.write_text("\n".join([*lines, json.dumps({"in_play": {hand: len(lines)},
                                                   "rows": len(lines)})]) + "\n")
    return path


def test_a_hand_in_cents_is_refused_in_its_own_amounts(run, db: str,  # noqa: ANN001
                                                       tmp_path: Path) -> None:
    assert run("import", str(_in_play(tmp_path))).exit_code == 0
    now = "; now: phase showdown, next: pay PLAYER AMOUNT or end"

    def refused(action: str) -> str:
        with Ledger(db, read_only=True) as ledger:
            rows = ledger.count()
        out = run("act", "c1", action)
        with Ledger(db, read_only=True) as ledger:
            assert ledger.count() == rows
        assert out.exit_code == 2
        return out.output

    # 273.00 is in the pot, but Ann is eligible for the main pot alone
    assert refused("pay Ann 273.00") == (
        "error: hand c1, action 'pay Ann 273.00': Ann can win at most 219.00 (the pots Ann is "
        "eligible for: the main pot of 219.00; RULES.md §1.2-1.5): 273.00 would be paid to Ann; "
        "now: phase showdown, next: pay PLAYER AMOUNT, end\n")  # every hand shown
    assert run("act", "c1", "pay Ann 200.00").exit_code == 0
    assert refused("pay Ann 19.01") == (
        "error: hand c1, action 'pay Ann 19.01': Ann can win at most 219.00 (the pots Ann is "
        f"eligible for: the main pot of 219.00; RULES.md §1.2-1.5): 219.01 would be paid to Ann "
        f"(200.00 already){now}\n")
    assert refused("pay Bob 73.01") == (
        "error: hand c1, action 'pay Bob 73.01': the pot holds 273.00, 200.00 already paid: "
        f"at most 73.00 more can be paid{now}\n")
    assert refused("rake 73.50") == (
        "error: hand c1, action 'rake 73.50': a rake of 73.50 is more than the 73.00 of the "
        f"pot's 273.00 not yet paid (200.00 paid){now}\n")
    assert refused("end") == (
        "error: hand c1, action 'end': cannot end with 200.00 of the pot's 273.00 paid: 73.00 "
        "would go to nobody (by the rules: pay Bob 54.00, pay Ann 19.00); record the rest (pay "
        "PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) first\n")
    assert run("act", "c1", "rake 0.50").exit_code == 0
    assert refused("rake 0.50") == (
        "error: hand c1, action 'rake 0.50': the hand already records a rake of 0.50: a hand "
        "records one rake, the whole of what the table took (`handledger undo` takes it back "
        f"to record another){now}\n")
    assert run("act", "c1", "pay Ann 19.00").exit_code == 0
    assert refused("end") == (
        "error: hand c1, action 'end': cannot end with 219.00 of the pot's 273.00 paid and "
        "0.50 raked: 53.50 would go to nobody; record the rest (pay PLAYER AMOUNT, returned "
        "PLAYER AMOUNT for an uncalled bet) first\n")
    for action in ("pay Bob 53.50", "end"):  # Bob's kings take the side pot, less the rake
        assert run("act", "c1", action).exit_code == 0, action
    # over: its pots explained as `show` explains them, in chips of 0.01, and it says so
    assert run("state", "c1").output.splitlines()[:4] == [
        "hand c1: NT, phase showdown, status complete",
        "hand complete",
        "(stacks and pots in the hand's smallest unit, 100 = 1.00; actions as its notation "
        "writes them)",
        # the rules take the rake from the main pot first (docs/LIVE.md, "A home game's rake")
        "Main pot 21900, 21850 after the rake of 50 (Bob, Cy, Ann): Ann wins 21850 with pair "
        "of aces, T-9-4 kickers."]
    assert run("state", "c1").output.splitlines()[-1] == (
        "stacks after the hand: Bob 5350, Cy 0, Ann 21900")


def test_a_correction_of_a_hand_in_cents_is_refused_in_its_own_amounts(
        run, tmp_path: Path) -> None:  # noqa: ANN001
    assert run("import", str(_in_play(tmp_path))).exit_code == 0
    for action in ("pay Ann 219.00", "pay Bob 54.00", "end"):
        assert run("act", "c1", action).exit_code == 0, action
    # seqs 1-17 the start, the blinds and ACTIONS; 18 Ann's 219.00, 19 Bob's 54.00, 20 the end
    out = run("whatif", "c1", "--replace", "18", "pay Ann 200.00")
    assert (out.exit_code, out.output) == (2, (
        "error: hand c1: what-if replace 18 'pay Ann 200.00': cannot end with 254.00 of the "
        "pot's 273.00 paid: 19.00 would go to nobody (by the rules: pay Ann 19.00); record the "
        "rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) first\n"))
    out = run("whatif", "c1", "--replace", "19", "pay Ann 54.00")
    assert (out.exit_code, out.output) == (2, (
        "error: hand c1: what-if replace 19 'pay Ann 54.00': Ann can win at most 219.00 (the "
        "pots Ann is eligible for: the main pot of 219.00; RULES.md §1.2-1.5): 273.00 would be "
        "paid to Ann\n"))
    out = run("whatif", "c1", "--replace", "19", "pay Bob 54.01")
    assert (out.exit_code, out.output) == (2, (
        "error: hand c1: what-if replace 19 (recorded_payout by Bob) 'pay Bob 54.01': the "
        "hand with these changes pays out 273.01: the pot holds 273.00\n"))
    # what it moves is the books' nets, chips of 0.01 as `balances` counts them: said so
    out = run("whatif", "c1", "--replace", "19", "pay Bob 53.00", "--insert-after", "19",
              "pay Cy 1.00")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[:2] == [
        "what if, hand c1 (nothing written):",
        "  (nets and payouts in the hand's smallest unit, 100 = 1.00; actions as its notation "
        "writes them)"]
    # Bob's net as paid: 54.00 - 100.00 = -4600, then 53.00 - 100.00 = -4700
    assert [line.split() for line in out.output.splitlines()[4:]][0] == [
        "Bob", "-4600", "-4600", "+0", "-4600", "-4700", "-100"]


#: Hand d1 dealt, blinds 1.00/2.00 (Bob, Cy), Ann on the button first to act: in cents, seats
#: 200.00, 150.00 and 300.00; seqs 1 the start, 2-3 the blinds, 4-6 the deal.
DEALT = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy QsQh")
SEATS = ("seats as pN: p1 Bob, p2 Cy, p3 Ann (p1 sits left of the button: PHH's order, "
         "not --seats')")


def _refused(run, db: str, *args: str) -> str:  # noqa: ANN001
    """What a refused command printed (exit 2), the ledger unchanged."""
    with Ledger(db, read_only=True) as ledger:
        rows = ledger.count()
    out = run(*args)
    with Ledger(db, read_only=True) as ledger:
        assert ledger.count() == rows
    assert out.exit_code == 2, out.output
    return out.output


def test_a_live_hand_in_cents_speaks_in_dollars(run, db: str,  # noqa: ANN001
                                                tmp_path: Path) -> None:
    path = _exported(tmp_path, "d1", "Ann:20000,Bob:15000,Cy:30000", "100/200", DEALT)
    assert run("import", str(path)).exit_code == 0
    # Ann faces the big blind's 2.00: a raise is to twice it, 4.00, at most her 200.00
    now = "now: Ann to act: to call 2.00, raise to 4.00..200.00"
    assert run("state", "d1").output == (
        "hand d1: NT, phase bet, status open\n"
        "Ann to act: to call 2.00, raise to 4.00..200.00\n"
        "current bet 2.00\n"
        "Main pot: 3.00 (Bob, Cy, Ann)\n"
        "stacks: Bob 149.00 bet 1.00, Cy 298.00 bet 2.00, Ann 200.00\n"
        f"{SEATS}\n")
    assert _refused(run, db, "act", "d1", "Ann cbr 3") == (
        f"error: hand d1, action 'Ann cbr 3': raise to 3.00 is below the minimum 4.00; {now}\n")
    assert _refused(run, db, "act", "d1", "Ann cbr 300") == (
        f"error: hand d1, action 'Ann cbr 300': Ann cannot raise to 300.00: only 200.00 behind, "
        f"so at most to 200.00 (all in); {now}\n")
    # to 4.50, a raise of 2.50: Bob (1.00 in) calls 3.50 or raises to 4.50 + 2.50 = 7.00
    out = run("act", "d1", "Ann cbr 4.50")
    assert (out.exit_code, out.output) == (
        0, "7 bet_raise; Bob to act: to call 3.50, raise to 7.00..150.00\n")
    now = "now: Bob to act: to call 3.50, raise to 7.00..150.00"
    assert _refused(run, db, "act", "d1", "Bob cbr 6.99") == (
        f"error: hand d1, action 'Bob cbr 6.99': raise to 6.99 is below the minimum 7.00; "
        f"{now}\n")
    assert _refused(run, db, "act", "d1", "Bob cbr 151") == (
        f"error: hand d1, action 'Bob cbr 151': Bob cannot raise to 151.00: only 149.00 behind, "
        f"so at most to 150.00 (all in); {now}\n")
    # `table` prints what `state` and `act` print, and stops at a refused line of a pipe
    out = run("table", "d1", input="state\nBob cbr 5\nBob cc\n")
    assert (out.exit_code, out.stdout, out.stderr) == (2, (
        "hand d1: NT, phase bet, status open\n"
        "Bob to act: to call 3.50, raise to 7.00..150.00\n"
        "current bet 4.50\n"
        "Main pot: 7.50 (Bob, Cy, Ann)\n"
        "stacks: Bob 149.00 bet 1.00, Cy 298.00 bet 2.00, Ann 195.50 bet 4.50\n"
        f"{SEATS}\n"), (
        f"error: line 2, hand d1, action 'Bob cbr 5': raise to 5.00 is below the minimum "
        f"7.00; {now}\n"))
    # a correction is refused in the same amounts (seq 7: Ann's raise to 4.50)
    assert _refused(run, db, "whatif", "d1", "--replace", "7", "Ann cbr 3") == (
        "error: hand d1: the hand with these changes is not legal: event 7 (bet_raise by Ann): "
        "raise to 3.00 is below the minimum 4.00\n")
    assert _refused(run, db, "correct", "d1", "--insert-after", "7", "Bob cbr 151",
                    "--reason", "typo", "--by", "Dee") == (
        "error: hand d1: the corrected hand is not legal: the event inserted after seq 7 "
        "(bet_raise by Bob): Bob cannot raise to 151.00: only 149.00 behind, so at most to 150.00 "
        "(all in)\n")


def test_a_live_hand_in_chips_reads_as_before(run, db: str) -> None:  # noqa: ANN001
    """The same hand in whole chips: the same lines, its chips as they are."""
    assert run("hand", "start", "--hand", "d1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:200,Bob:150,Cy:300", "--button", "Ann").exit_code == 0
    for action in DEALT:
        assert run("act", "d1", action).exit_code == 0
    now = "now: Ann to act: to call 2, raise to 4..200"
    assert run("state", "d1").output == (
        "hand d1: NT, phase bet, status open\n"
        "Ann to act: to call 2, raise to 4..200\n"
        "current bet 2\n"
        "Main pot: 3 (Bob, Cy, Ann)\n"
        "stacks: Bob 149 bet 1, Cy 298 bet 2, Ann 200\n"
        f"{SEATS}\n")
    assert _refused(run, db, "act", "d1", "Ann cbr 3") == (
        f"error: hand d1, action 'Ann cbr 3': raise to 3 is below the minimum 4; {now}\n")
    assert _refused(run, db, "act", "d1", "Ann cbr 300") == (
        f"error: hand d1, action 'Ann cbr 300': Ann cannot raise to 300: only 200 behind, so at "
        f"most to 200 (all in); {now}\n")
    out = run("act", "d1", "Ann cbr 5")
    assert (out.exit_code, out.output) == (0, "7 bet_raise; Bob to act: to call 4, raise to "
                                              "8..150\n")
    assert _refused(run, db, "whatif", "d1", "--replace", "7", "Ann cbr 3") == (
        "error: hand d1: the hand with these changes is not legal: event 7 (bet_raise by Ann): "
        "raise to 3 is below the minimum 4\n")


def test_the_engine_keeps_its_refusal_in_chips() -> None:
    """The engine's refusal says chips; the amounts it keeps apart are written in the hand's
    unit only where the refusal reaches the host, and survive a pickle (import workers)."""
    import pickle

    from engine.errors import IllegalAction
    from engine.notation import to_event
    from engine.state import HandState
    from replay.live import LiveHand, build_started
    from replay.typed import reason_as_typed

    started, forced = build_started(LiveHand(game="NT", seats="Ann:20000,Bob:15000,Cy:30000",
                                             stakes="100/200", button="Ann"),
                                    hand="d1", session=None)
    state = HandState.start(started)
    for event in forced:
        state.apply(event)
    for action in DEALT:
        state.apply(to_event(state, action))
    try:
        state.apply(to_event(state, "Ann cbr 300"))
    except IllegalAction as exc:
        caught = pickle.loads(pickle.dumps(exc))
    assert caught.reason == "raise to 300 is below the minimum 400"
    assert reason_as_typed(caught, 2) == "raise to 3.00 is below the minimum 4.00"
    assert reason_as_typed(caught, 0) == "raise to 300 is below the minimum 400"


def test_a_raise_below_the_minimum_that_covers_every_opponent_in_cents(user,  # noqa: ANN001
                                                                      tmp_path: Path) -> None:
    """Blinds 1.00/2.00: Ann (button) folds, Bob (small blind, 100.00 in all) raises to 60.00,
    so Cy's minimum raise is to 118.00 (60.00 + the 58.00 raise) but 100.00 covers Bob's whole
    stack (RULES.md §1.7): the hint offers it and the note says it in dollars, as typed."""
    path = _exported(tmp_path, "k1", "Ann:50000,Bob:10000,Cy:50000", "100/200",
                     ("d dh Bob AsAh", "d dh Cy KsKh", "d dh Ann QsQh", "Ann f", "Bob cbr 60.00"))
    assert user("import", str(path))[0] == 0
    assert user("state", "k1")[1].splitlines()[1] == (
        "Cy to act: to call 58.00, raise to 118.00..500.00, or to 100.00 covering every opponent")
    assert user("act", "k1", "Cy cbr 100.00") == (
        0, "9 bet_raise; Bob to act: to call 40.00 (no raise: not enough chips to raise)\n",
        "note: Cy's raise to 100.00 is below the minimum 118.00 but covers every opponent (each "
        "is all-in or covered by it): accepted: no chip changes hands otherwise (RULES.md §1.7)\n")
