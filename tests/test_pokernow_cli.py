"""Every real PokerNow log imports, replays without a discrepancy, and its nets sum to zero."""

from __future__ import annotations

import json

import duckdb
import pytest

from tests.conftest import SHARED

LOGS = sorted((SHARED / "pokernow").glob("*.csv"))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_log_imports_and_replays_clean(run, db, log) -> None:  # noqa: ANN001
    out = run("import", str(log))
    assert out.exit_code == 0, out.output
    replay = run("replay", "--json")
    assert replay.exit_code == 0, replay.output
    hands = [json.loads(line) for line in replay.output.splitlines()]
    assert hands and all(h["discrepancies"] == [] for h in hands)
    for h in hands:
        assert sum(h["net"].values()) == 0, h["hand"]
    again = run("import", str(log))
    assert "imported 0 hand(s)" in again.output
    con = duckdb.connect(db)
    assert con.execute("SELECT count(DISTINCT hand_id) FROM results").fetchone()[0] == len(hands)


def test_run_it_twice_pays_to_the_cent(run) -> None:  # noqa: ANN001
    """Hand #30: 15.61 run twice → 7.81 on run 1 and 7.80 on run 2 (odd cent to run 1)."""
    run("import", str(SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"))
    hands = {json.loads(line)["hand"]: json.loads(line)
             for line in run("replay", "--json").output.splitlines()}
    (hand,) = [h for k, h in hands.items() if "-30-" in k]
    (pot,) = hand["pots"]
    assert pot["amount"] == 1561 and pot["awards"] == {"3r4cXeU7Dp": 1561}
    assert pot["explanation"][0].endswith("781 on run 1, 780 on run 2 (odd chip to run 1 first).")
    assert pot["explanation"][1].startswith("Run 1 (Js 4d 8d 3s 9s), 781: 3r4cXeU7Dp wins 781")
    assert pot["explanation"][2].startswith("Run 2 (Js 4d 8d 3s 2h), 780: 3r4cXeU7Dp wins 780")
    assert hand["recorded"] == {"3r4cXeU7Dp": 1561}
