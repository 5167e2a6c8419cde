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
