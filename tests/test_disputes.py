"""Disputed hands through the CLI: live recording, what-if, corrections, voids, history."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.conftest import DATA

WRONG_PUSH = DATA / "dispute" / "wrong-push.phh"
RIGHT_SPLIT = ("--replace", "23", "pay Bob 100", "--insert-after", "23", "pay Ann 300")


def _events(db: str, hand: str) -> list[dict]:
    from ledger.store.store import Ledger

    with Ledger(db, read_only=True) as ledger:
        return [r.event.model_dump(mode="json") for r in ledger.read(hand)]


def _replay(run, hand: str) -> tuple[int, dict]:  # noqa: ANN001
    out = run("replay", "--hand", hand, "--json")
    lines = [json.loads(x) for x in out.output.splitlines() if x.startswith("{")]
    return out.exit_code, lines[0]


def _play(run, hand: str, *actions: str) -> None:  # noqa: ANN001
    for action in actions:
        out = run("act", hand, action)
        assert out.exit_code == 0, (action, out.output)


def _nets(run) -> dict[str, int]:  # noqa: ANN001
    return {p["player"]: p["net"] for p in json.loads(run("balances", "--json").output)["players"]}


def test_scripted_dispute_is_flagged_then_corrected(run, db) -> None:  # noqa: ANN001
    assert run("import", str(WRONG_PUSH)).exit_code == 0
    code, hand = _replay(run, "dispute-1")
    assert code == 1
    assert {(d["player"], d["recorded"], d["recomputed"]) for d in hand["discrepancies"]} == {
        ("Ann", 0, 300), ("Bob", 400, 100)}
    what = json.loads(run("whatif", "dispute-1", *RIGHT_SPLIT, "--json").output)
    assert what["hand"] == "dispute-1"
    assert what["before"] == what["after"] == {"Ann": 200, "Bob": -50, "Cy": -150}
    assert what["paid_before"] == {"Ann": -100, "Bob": 250, "Cy": -150}
    assert what["paid_after"] == {"Ann": 200, "Bob": -50, "Cy": -150}
    assert what["paid_diff"] == {"Ann": 300, "Bob": -300, "Cy": 0}
    assert len(_events(db, "dispute-1")) == 24  # whatif wrote nothing
    audit = json.loads(run("audit", "--json").output)["discrepancies"]
    assert {(d["kind"], d["hand"], d["player"]) for d in audit} == {
        ("payout", "dispute-1", "Ann"), ("payout", "dispute-1", "Bob")}
    before = _nets(run)
    out = run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "main pot to the wrong player",
              "--by", "floor")
    assert out.exit_code == 0, out.output
    assert "change in net: Ann +300, Bob -300; by the rules: unchanged" in out.output
    code, hand = _replay(run, "dispute-1")
    assert code == 0 and hand["discrepancies"] == []
    assert hand["recorded"] == {"Ann": 300, "Bob": 100}
    assert run("audit").exit_code == 0
    after = _nets(run)
    assert {p: after[p] - before[p] for p in after} == {"Ann": 300, "Bob": -300, "Cy": 0}
    stored = _events(db, "dispute-1")
    assert len(stored) == 25 and stored[22]["amount"] == 400  # the original stays
    assert stored[24]["type"] == "correction" and stored[24]["positions"] == [23]
    hist = json.loads(run("history", "dispute-1", "--json").output)
    assert len(hist["events"]) == 24
    (amend,) = hist["amendments"]
    assert amend["by"] == "floor" and amend["reason"] == "main pot to the wrong player"
    assert [(c["op"], c["seq"], c["event"]["player"]) for c in amend["changes"]] == [
        ("replace", 23, "Bob"), ("insert_after", 23, "Ann")]
    text = run("history", "dispute-1").output
    assert "correction by floor: main pot to the wrong player" in text
    assert "replace seq 23 recorded_payout Bob 100 (seq 23 was: recorded_payout Bob 400)" in text
    assert ("insert_after seq 23 recorded_payout Ann 300 (after seq 23 as this correction "
            "changes it; before it: recorded_payout Bob 400)") in text
    assert run("verify").exit_code == 0


def test_delete_change_and_refused_illegal_correction(run, db) -> None:  # noqa: ANN001
    run("import", str(WRONG_PUSH))
    what = json.loads(run("whatif", "dispute-1", "--delete", "23", "--json").output)
    # with no recorded payout left, the paid nets are the engine's
    assert what["paid_after"] == what["after"] == {"Ann": 200, "Bob": -50, "Cy": -150}
    # Cy folding to Bob's flop bet instead of calling: Bob's 50 comes back, Ann's aces
    # take the only pot (300), nets move
    deletes = [x for seq in (15, 16, 18, 19, 22) for x in ("--delete", str(seq))]
    what = json.loads(run("whatif", "dispute-1", "--replace", "13", "Cy f",
                          "--replace", "23", "returned Bob 50", "--insert-after", "23",
                          "pay Ann 300", *deletes, "--json").output)
    assert what["after"] == {"Ann": 200, "Bob": -100, "Cy": -100}
    assert what["diff"] == {"Ann": 0, "Bob": -50, "Cy": 50}
    assert what["discrepancies_after"] == []
    # an action may also be given as a JSON event
    payout = json.dumps({"type": "recorded_payout", "player": "Ann", "amount": 300})
    what = json.loads(run("whatif", "dispute-1", "--replace", "23", "pay Bob 100",
                          "--insert-after", "23", payout, "--json").output)
    assert what["paid_diff"] == {"Ann": 300, "Bob": -300, "Cy": 0}
    # a raise to more than Ann's stack is refused with the engine's reason, nothing written
    out = run("correct", "dispute-1", "--replace", "8", "Ann cbr 300", "--reason", "x",
              "--by", "floor")
    assert out.exit_code == 2
    assert "not legal" in out.output and "only" in out.output
    out = run("correct", "dispute-1", "--delete", "15", "--reason", "x", "--by", "floor")
    assert out.exit_code == 2 and "out of turn" in out.output
    assert len(_events(db, "dispute-1")) == 24


def test_void_returns_every_contribution(run, db) -> None:  # noqa: ANN001
    run("import", str(WRONG_PUSH))
    out = run("void", "dispute-1", "--reason", "misdeal: exposed card", "--by", "floor")
    assert out.exit_code == 0, out.output
    code, hand = _replay(run, "dispute-1")
    assert code == 0
    assert hand["status"] == "voided"
    assert hand["returned"] == {"Ann": 100, "Bob": 150, "Cy": 150}
    assert hand["net"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    hist = json.loads(run("history", "dispute-1", "--json").output)
    assert [a["type"] for a in hist["amendments"]] == ["correction", "hand_voided"]
    assert run("void", "dispute-1", "--reason", "again", "--by", "x").exit_code == 2


def _session_hand(run, hand: str, seats: str, *actions: str) -> None:  # noqa: ANN001
    out = run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", seats,
              "--button", "Cy", "--session", "s1", "--hand", hand)
    assert out.exit_code == 0 and out.stdout.strip() == hand, out.output  # warnings: stderr
    _play(run, hand, *actions)


def test_correction_in_an_early_hand_leaves_a_later_hand_as_played(run) -> None:  # noqa: ANN001
    assert run("session", "open", "s1").exit_code == 0  # a hand goes only to an opened session
    for player, chips in (("Ann", "200"), ("Bob", "150"), ("Cy", "300")):
        assert run("buyin", "s1", player, chips).exit_code == 0
    _session_hand(run, "s1-1", "Ann:200,Bob:150,Cy:300",
                  "d dh Ann AsAd", "d dh Bob KsKd", "d dh Cy 7c2d", "Cy f",
                  "Ann cbr 10", "Bob cc", "d db 2c3h9s", "Ann cc", "Bob cc", "d db Td",
                  "Ann cc", "Bob cc", "d db 4s", "Ann cc", "Bob cc", "Ann sm AsAd",
                  "Bob sm KsKd", "pay Ann 20", "end")
    # hand 2 follows hand 1's final stacks (Ann 210, Bob 140, Cy 300)
    _session_hand(run, "s1-2", "Ann:210,Bob:140,Cy:300",
                  "d dh Ann 8s8d", "d dh Bob 5s5d", "d dh Cy 7h2h", "Cy f", "Ann f")
    run("act", "s1-2", "returned Bob 1")
    out = run("act", "s1-2", "pay Bob 2")
    assert out.exit_code == 0, out.output
    assert run("act", "s1-2", "end").exit_code == 0
    # what if Bob had raised all-in on the river and Ann had folded (seq 18 is Bob's check)
    what = json.loads(run("whatif", "s1-1", "--replace", "18", "Bob cbr 140",
                          "--insert-after", "18", "Ann f", "--delete", "19", "--delete", "20",
                          "--replace", "21", "pay Bob 160", "--json").output)
    assert what["diff"] == {"Ann": -20, "Bob": 20, "Cy": 0}
    assert what["downstream"] == [
        {"hand": "s1-2", "player": "Ann", "name": "Ann", "starting": 210, "expected": 190,
         "was": 210, "diff": 20, "as_played": True},
        {"hand": "s1-2", "player": "Bob", "name": "Bob", "starting": 140, "expected": 160,
         "was": 140, "diff": -20, "as_played": True},
    ]  # s1-2 was dealt on s1-1 as it stood: it stands as played, the 20 chips owed
    assert what["session"]["diff"] == {"Ann": -20, "Bob": 20, "Cy": 0}
    text = run("whatif", "s1-1", "--replace", "21", "pay Bob 20").output
    assert "nothing written" in text and "session s1 results" in text
    out = run("correct", "s1-1", "--replace", "18", "Bob cbr 140", "--insert-after", "18",
              "Ann f", "--delete", "19", "--delete", "20", "--replace", "21", "pay Bob 160",
              "--reason", "the river was misrecorded", "--by", "floor")
    assert out.exit_code == 0, out.output
    assert ("warning: hand s1-2 started Ann with 210, on hand s1-1 as it stood (it left Ann 210); "
            "now it leaves Ann 190: Ann -20 chips in settle") in out.output
    found = json.loads(run("audit", "--json").output)
    assert found["discrepancies"] == [] and found["corrected_late"][0]["owed"] == {
        "Ann": -20, "Bob": 20}
    code, hand = _replay(run, "s1-1")
    assert code == 0 and hand["net"] == {"Ann": -10, "Bob": 10, "Cy": 0}


def test_act_refuses_an_illegal_action_with_what_is_legal(run, db) -> None:  # noqa: ANN001
    run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150,Cy:300",
        "--button", "Cy", "--hand", "h")
    _play(run, "h", "d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 7c2d")
    out = run("act", "h", "Cy cbr 3")
    assert out.exit_code == 2
    assert "Cy to act: to call 2, raise to 4..300" in out.output
    assert len(_events(db, "h")) == 6
    state = run("state", "h").output
    assert "Cy to act" in state and "current bet 2" in state and "Ann 199" in state
    assert run("act", "h", "end").exit_code == 2  # not at showdown


def test_heads_up_button_posts_the_small_blind(run, db) -> None:  # noqa: ANN001
    run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100",
        "--button", "Ann", "--hand", "hu")
    forced = [(e["player"], e["kind"]) for e in _events(db, "hu")[1:]]
    assert sorted(forced) == [("Ann", "small_blind"), ("Bob", "big_blind")]


def _comparable(events: list[dict]) -> list[dict]:
    first = {k: v for k, v in events[0].items() if k not in ("hand", "source", "session")}
    return [first, *events[1:]]


def test_live_recording_gives_the_same_events_as_the_phh_import(run, db) -> None:  # noqa: ANN001
    phh = DATA / "hands" / "plo-three-way.phh"
    run("import", str(phh))
    from ledger.store.store import Ledger

    with Ledger(db, read_only=True) as ledger:
        (imported,) = ledger.streams(kind="hand")
    out = run("hand", "start", "--game", "PO", "--stakes", "5/10", "--button", "Quin",
              "--seats", "Quin:1000,Ona:1000,Pia:180", "--hand", "live")
    assert out.exit_code == 0, out.output
    actions = tomllib.loads(Path(phh).read_text())["actions"]
    _play(run, "live", *actions, "pay Quin 1100", "end")
    assert _comparable(_events(db, "live")) == _comparable(_events(db, imported))


def test_stud_limit_and_declare_options_at_hand_start(run, db) -> None:  # noqa: ANN001
    out = run("hand", "start", "--game", "F7S", "--antes", "1", "--bring-in", "2",
              "--small-bet", "5", "--big-bet", "10", "--seats", "Ann:100,Bob:100,Cy:100",
              "--hand", "st")
    assert out.exit_code == 0, out.output
    assert [e["kind"] for e in _events(db, "st")[1:]] == ["ante"] * 3
    _play(run, "st", "d dh p1 AsKs7h", "d dh p2 2c3c4d", "d dh p3 QdQh9c", "p2 pb", "Cy cbr 5")
    assert "Ann to act: to call 5, raise to 10..10" in run("state", "st").output
    assert "at 8: Cy to act, to call 2, complete to 5..5" in run("show", "st", "--at", "8").output
    # voided: d seats the same players (one hand at a time, RULES.md §1.1)
    assert run("void", "st", "--reason", "a new deal", "--by", "host").exit_code == 0
    out = run("hand", "start", "--game", "FO/8", "--stakes", "1/2", "--small-bet", "2",
              "--big-bet", "4", "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Ann",
              "--hand", "d", "--declare-options", "method=in_turn,swing_ties=allowed")
    assert out.exit_code == 0, out.output
    declare = _events(db, "d")[0]["options"]["declare"]
    assert declare["method"] == "in_turn" and declare["swing_ties"] == "allowed"
    out = run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:1,Bob:1",
              "--button", "Ann", "--declare-options", "method=bogus")
    assert out.exit_code == 2 and "--declare-options: method" in out.output
    out = run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:1,Bob:1",
              "--button", "Zed")
    assert out.exit_code == 2 and "--button" in out.output


def test_the_scripted_dispute_runs(tmp_path) -> None:  # noqa: ANN001
    """The script builds its ledger at the path given, deleting a file there first."""
    import os
    import subprocess
    import sys

    from tests.test_live_table import one_shot

    script = DATA / "dispute" / "dispute.sh"
    env = {**os.environ, "HANDLEDGER": str(Path(sys.executable).with_name("handledger"))}
    ledger = tmp_path / "d.duckdb"
    ledger.write_text("an old file at the path given\n")  # docs/LIVE.md: deleted first
    out = subprocess.run(["sh", str(script), str(ledger)], env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "replay exit 1" in out and "replay exit 0" in out and "verify exit 0" in out
    assert "change in net: Ann +300, Bob -300; by the rules: unchanged" in out
    code, out, _ = one_shot(ledger, "replay")  # the ledger is the one at the path given
    assert (code, out.splitlines()[-1]) == (0, "1 hand(s) replayed: 0 paid differently from "
                                               "the rules, 0 showdown(s) not verifiable")


def test_payout_correction_downstream_follows_what_was_paid(run) -> None:  # noqa: ANN001
    """A payout moved between players changes the stacks the next hand should start with,
    even though the rules' nets do not move (data/series s01, hand 3: seq 20 pays Alice 120);
    s01-004 was dealt on s01-003 as it stood, so it stands as played (Alice, with 0 by the
    change, could not even post its blind): the chips are owed in settle, no advice given."""
    from tests.conftest import DATA

    assert run("import", str(DATA / "series" / "s01.jsonl")).exit_code == 0
    what = json.loads(run("whatif", "s01-003", "--replace", "20", "pay Carol 120",
                          "--json").output)
    assert what["diff"] == {"Bob": 0, "Carol": 0, "Alice": 0, "Erin": 0}
    assert what["paid_diff"]["Carol"] == 120 and what["paid_diff"]["Alice"] == -120
    assert what["downstream"] == [
        {"hand": "s01-004", "player": "Carol", "name": "Carol", "starting": 92, "expected": 212,
         "was": 92, "diff": -120, "as_played": True},
        {"hand": "s01-004", "player": "Alice", "name": "Alice", "starting": 120, "expected": 0,
         "was": 120, "diff": 120, "as_played": True},
    ]


def test_whatif_text_labels_the_rules_result_and_the_net(run) -> None:  # noqa: ANN001
    """The what-if's two sets of columns say which is the rules' result and which the net
    (what the table paid minus what was put in, the net of balances)."""
    assert run("import", str(WRONG_PUSH)).exit_code == 0
    # Ann's 300 of the main pot, Bob's 100 of the side pot (all 400 to Ann is refused: she
    # can win the main pot of 300 at most)
    out = run("whatif", "dispute-1", "--replace", "23", "pay Bob 100", "--insert-after", "23",
              "pay Ann 300")
    assert out.exit_code == 0
    assert out.output.splitlines()[:4] == [
        "what if, hand dispute-1 (nothing written):",
        "                          by the rules           net (what the table paid)",
        "  player        before   after    diff       before       after       diff",
        "  Ann             +200    +200      +0         -100        +200       +300"]


def test_a_row_a_correction_inserted_is_named_with_the_way_to_reach_it(user, db) -> None:  # noqa: ANN001
    """Correction 25 replaces seq 23 (pay Bob 100) and inserts pay Ann 300 after it, which
    ``show`` numbers 23+. A correction names original rows: ``--replace 23+`` and ``--delete
    23+`` are refused in one line naming correction 25 and ``undo``, nothing written (they
    were refused as no integer before), ``--delete 23+2``, a row the hand does not have, naming
    it; ``--insert-after 23+`` is ``--insert-after 23``."""
    assert user("import", str(WRONG_PUSH))[0] == 0
    assert user("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "x", "--by", "floor")[0] == 0
    assert "23+ pay Ann 300" in user("show", "dispute-1")[1]
    refusal = ("seq 23+ is a row correction 25 inserted after seq 23, and a correction names "
               "the hand's original rows (those `handledger show` numbers without +): to "
               "change it, take correction 25 back (`handledger undo dispute-1 --by …` takes "
               "back the last correction or void appended to the hand, an undo after it the "
               "one before) and correct again\n")
    assert user("correct", "dispute-1", "--replace", "23+", "pay Ann 301", "--reason", "x",
                "--by", "floor") == (2, "", f"error: hand dispute-1: replace 23+: {refusal}")
    assert user("correct", "dispute-1", "--delete", "23+", "--reason", "x", "--by",
                "floor") == (2, "", f"error: hand dispute-1: delete 23+: {refusal}")
    assert user("whatif", "dispute-1", "--delete", "22+") == (
        2, "", "error: hand dispute-1: delete 22+: no correction in force inserted a row after "
               "seq 22 (`handledger show dispute-1` numbers such a row 22+)\n")
    assert user("correct", "dispute-1", "--delete", "23+2", "--reason", "x", "--by",
                "floor") == (
        2, "", "error: hand dispute-1: delete 23+2: the hand has no row 23+2: the corrections "
               "in force inserted one row, which `handledger show dispute-1` numbers 23+, "
               "after seq 23\n")
    assert len(_events(db, "dispute-1")) == 25
    # after 23+ is after 23: the payouts then pay 401 of the 400 in the pots either way
    after = user("whatif", "dispute-1", "--insert-after", "23+", "pay Ann 1")
    assert after == user("whatif", "dispute-1", "--insert-after", "23", "pay Ann 1")
    assert after == (2, "", "error: hand dispute-1: what-if insert_after 23 'pay Ann 1': the "
                            "hand with these changes pays out 401: the pot holds 400\n")
