"""``audit`` on a hand still being played: named as in progress (ledger/audit/checks.py
``hand_in_progress``), never as a chip-conservation finding; once it ends it is checked."""

from __future__ import annotations

import json


def test_an_open_hand_is_in_progress_not_a_conservation_finding(run) -> None:  # noqa: ANN001
    assert run("hand", "start", "--hand", "a1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    assert run("act", "a1", "d dh Ann AsAh").exit_code == 0
    out = run("audit")
    assert out.exit_code == 1
    assert "chip_conservation" not in out.output
    assert out.output.splitlines()[0] == (
        "in_progress: hand a1 is in progress (not ended): 3 chips in the pot so far, checked "
        "once it ends (`handledger act a1 end`) or is voided [hand a1]")
    found = json.loads(run("audit", "--json").output)["discrepancies"]
    assert [(d["kind"], d["hand"]) for d in found] == [("in_progress", "a1")]
    for action in ("d dh Bob KsKh", "Ann f", "end"):
        assert run("act", "a1", action).exit_code == 0
    out = run("audit")
    assert out.exit_code == 0 and out.output.startswith("audit clean: 1 hand(s)")


_SHOWN = ("d dh Ann AsAd", "d dh Bob 7c2d", "Ann cbr 100", "Bob cc", "d db 3c4c9h", "d db Th",
          "d db Js", "pay Bob 200")  # Ann's aces win the 200-chip pot; Bob recorded as paid


def _kinds(run, sql: str) -> list[list]:  # noqa: ANN001
    out = run("sql", "--json", sql)
    assert out.exit_code == 0, out.output
    return [list(row.values()) for row in json.loads(out.output)]


def test_payouts_of_a_hand_in_progress_count_once_it_ends(run) -> None:  # noqa: ANN001
    """A hand in play paid wrong so far: only ``in_progress`` (no ``payout`` finding, no
    discrepancy row, ``replay`` exits 0 with a preview note); once ended, the two payouts."""
    assert run("hand", "start", "--hand", "q1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    for action in _SHOWN:
        assert run("act", "q1", action).exit_code == 0, action
    out = run("audit")
    assert out.exit_code == 1
    assert out.output.splitlines() == [
        "in_progress: hand q1 is in progress (not ended): 200 chips in the pot so far, checked "
        "once it ends (`handledger act q1 end`) or is voided [hand q1]",
        "audit: 1 discrepancy (in_progress 1); 1 hand(s) in 0 session(s) checked"]
    assert _kinds(run, "SELECT kind, hand_id, player FROM audit_discrepancies") == [
        ["in_progress", "q1", None]]
    assert _kinds(run, "SELECT count(*) AS n FROM discrepancies") == [[0]]
    note = ("in progress (not ended), checked once it ends (`handledger act q1 end`); the "
            "payouts recorded so far differ from the rules: Bob was paid 200, the rules give 0 "
            "(+200); Ann was paid 0, the rules give 200 (-200)")
    for args in (("replay", "--hand", "q1"), ("replay",)):
        out = run(*args, "--json")
        assert out.exit_code == 0, args
        hand = json.loads(out.output)  # one hand: one JSON line
        assert (hand["status"], hand["discrepancies"], hand["notes"]) == ("open", [], [note])
        out = run(*args)
        assert out.exit_code == 0 and "DISCREPANCY" not in out.output
        unchecked = " (the hash chain not checked: `handledger verify`)" if args[1:] else ""
        assert out.output.splitlines()[-1] == (  # a replay that saves nothing says so
            "1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not "
            f"verifiable{unchecked}")
    players = json.loads(run("balances", "--json").output)["players"]
    assert {p["player"]: (p["net"], p["rules_net"]) for p in players} == {
        "Ann": (-100, -100), "Bob": (-100, -100)}

    assert run("act", "q1", "end").exit_code == 0
    out = run("audit")
    assert out.exit_code == 1
    assert out.output.splitlines() == [
        "payout: hand q1: Bob was paid 200, the rules give 0 (+200) [hand q1, player Bob; "
        "expected 0, actual 200]",
        "payout: hand q1: Ann was paid 0, the rules give 200 (-200) [hand q1, player Ann; "
        "expected 200, actual 0]",
        "audit: 2 discrepancies (payout 2); 1 hand(s) in 0 session(s) checked"]
    assert _kinds(run, "SELECT kind, player, expected, actual FROM audit_discrepancies") == [
        ["payout", "Bob", 0, 200], ["payout", "Ann", 200, 0]]
    out = run("replay", "--hand", "q1")
    assert out.exit_code == 1 and "note: in progress" not in out.output
    assert out.output.splitlines()[-3:] == [
        "  DISCREPANCY: hand q1: Bob was paid 200, the rules give 0 (+200)",
        "  DISCREPANCY: hand q1: Ann was paid 0, the rules give 200 (-200)",
        "1 hand(s) replayed: 1 paid differently from the rules, 0 showdown(s) not verifiable "
        "(the hash chain not checked: `handledger verify`)"]
    players = json.loads(run("balances", "--json").output)["players"]
    assert {p["player"]: (p["net"], p["rules_net"]) for p in players} == {
        "Ann": (-100, 100), "Bob": (100, -100)}
