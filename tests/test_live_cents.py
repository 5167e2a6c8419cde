"""A hand kept in cents (an imported file in dollars and cents, FORMATS.md §1) takes its
amounts at the table as its notation writes them, ``pay Ann 2.19`` (replay/whatif.py
``parse_action``), and its payout and rake refusals give their amounts the same way
(replay/payout_rules.py ``as_typed``): ``the pot holds 273.00``, never its 27300 cents."""

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
    from engine.notation import to_event
    from engine.state import HandState
    from ledger.model import events as ev
    from replay.live import LiveHand, build_started

    started, forced = build_started(LiveHand(game="NT", seats="Ann:7300,Bob:10000,Cy:10000",
                                             stakes="50/100", button="Ann"),
                                    hand="c1", session=None)
    started = started.model_copy(update={"unit": ev.Unit(currency="USD", decimals=2)})
    state = HandState.start(started)
    events = [started]
    for event in forced:
        state.apply(event)
        events.append(event)
    for action in ACTIONS:
        event = to_event(state, action)
        state.apply(event)
        events.append(event)
    path = tmp_path / "c1.jsonl"
    lines = [json.dumps({"hand": "c1", "seq": k, "event": e.model_dump(mode="json")})
             for k, e in enumerate(events, 1)]
    path.write_text("\n".join([*lines, json.dumps({"in_play": {"c1": len(lines)},
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

    # 273.00 is in the pot, but Ann is eligible for pot 0 alone
    assert refused("pay Ann 273.00") == (
        "error: hand c1, action 'pay Ann 273.00': Ann can win at most 219.00 (the pots he is "
        "eligible for: pot 0 of 219.00; RULES.md §1.2-1.5): 273.00 would be paid to him; now: "
        "phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER AMOUNT, "
        "end\n")
    assert run("act", "c1", "pay Ann 200.00").exit_code == 0
    assert refused("pay Ann 19.01") == (
        "error: hand c1, action 'pay Ann 19.01': Ann can win at most 219.00 (the pots he is "
        f"eligible for: pot 0 of 219.00; RULES.md §1.2-1.5): 219.01 would be paid to him "
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


def test_a_correction_of_a_hand_in_cents_is_refused_in_its_own_amounts(
        run, tmp_path: Path) -> None:  # noqa: ANN001
    assert run("import", str(_in_play(tmp_path))).exit_code == 0
    for action in ("pay Ann 219.00", "pay Bob 54.00", "end"):
        assert run("act", "c1", action).exit_code == 0, action
    # seqs 1-17 the start, the blinds and ACTIONS; 18 Ann's 219.00, 19 Bob's 54.00, 20 the end
    out = run("whatif", "c1", "--replace", "18", "pay Ann 200.00")
    assert (out.exit_code, out.output) == (2, (
        "error: hand c1: correction replace 18 'pay Ann 200.00': cannot end with 254.00 of the "
        "pot's 273.00 paid: 19.00 would go to nobody (by the rules: pay Ann 19.00); record the "
        "rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) first\n"))
    out = run("whatif", "c1", "--replace", "19", "pay Ann 54.00")
    assert (out.exit_code, out.output) == (2, (
        "error: hand c1: correction replace 19 'pay Ann 54.00': Ann can win at most 219.00 (the "
        "pots he is eligible for: pot 0 of 219.00; RULES.md §1.2-1.5): 273.00 would be paid "
        "to him\n"))
    out = run("whatif", "c1", "--replace", "19", "pay Bob 54.01")
    assert (out.exit_code, out.output) == (2, (
        "error: hand c1: the corrected hand pays out 273.01: the pot holds 273.00\n"))
