"""The scripted bad night (data/badnight/badnight.sh): every mistake of the evening is refused
with one line or put right with an appended event, and the books end right to the cent."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.conftest import DATA

SCRIPT = DATA / "badnight" / "badnight.sh"


def steps() -> list[tuple[list[str], bool]]:
    """The script's ``handledger`` lines: (arguments, refused?)."""
    out = []
    for line in SCRIPT.read_text(encoding="utf-8").splitlines():
        if not line.startswith("handledger "):
            continue
        refused = line.rstrip().endswith("# refused")
        out.append((shlex.split(line.split("  # ")[0])[1:], refused))
    return out


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Run the whole script on a new ledger; keep every command's result."""
    folder = tmp_path_factory.mktemp("badnight")
    db = str(folder / "badnight.duckdb")
    runner = CliRunner()
    results = []
    here = os.getcwd()
    os.chdir(folder)  # the script writes its export beside the ledger
    try:
        for args, refused in steps():
            result = runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)
            results.append((args, refused, result))
    finally:
        os.chdir(here)

    def run(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)

    return {"results": results, "run": run, "db": db}


def test_every_mistake_is_refused_with_one_line_and_the_rest_goes_in(night: dict) -> None:
    refused = 0
    for args, expect_refusal, result in night["results"]:
        if expect_refusal:
            refused += 1
            assert result.exit_code == 2, (args, result.output)
            assert result.output.count("\n") == 1 and "Traceback" not in result.output, args
        else:
            assert result.exit_code == 0, (args, result.output)
    assert refused == 7


def test_the_refusals_say_what_to_do(night: dict) -> None:
    said = [result.output for _, refused, result in night["results"] if refused]
    assert [next(i for i, line in enumerate(said) if text in line) for text in (
        "did you mean 'saturday'?", "a change now is a correction", "hand 's1' is already "
        "in the ledger", "a payout comes at the showdown", "Ann already cashed out 230",
        "Dee has no buy-in", "more than Bob still owes")] == [0, 1, 2, 3, 4, 5, 6]


def test_the_books_end_right_to_the_cent(night: dict) -> None:
    run = night["run"]
    audit = run("audit", "--unsettled")
    assert audit.exit_code == 0 and "audit clean: 3 hand(s) in 1 session(s)" in audit.output
    assert json.loads(run("settle", "--session", "saturday", "--json").output)[
        "transfers"] == []
    money = {p["player"]: p for p in json.loads(
        run("balances", "--money", "--json").output)["players"]}
    assert {p: (v["net"], v["buy_in"], v["cash_out"], v["paid_minor"], v["received_minor"])
            for p, v in money.items()} == {
        "Ann": (750, 5000, 5750, 0, 750),  # +30 chips of 0.25: 7.50, paid by Bob and Cy
        "Bob": (-350, 5000, 4650, 350, 0),
        "Cy": (-400, 5000, 4600, 400, 0)}
    assert "closed, settled" in run("session", "list").output
    verify = run("verify")
    assert verify.exit_code == 0 and verify.output.startswith("ok: 65 events")


def test_the_ledger_still_holds_every_original_event(night: dict) -> None:
    run = night["run"]
    rows = json.loads(run("sql", "--json", "SELECT stream, seq, type, payload FROM events "
                                            "ORDER BY position").output)
    payloads = {(r["stream"], r["seq"]): r["payload"] for r in rows}
    assert payloads[("session:saturday", 4)]["chips"] == 300  # the wrong buy-in, amended
    assert payloads[("session:saturday", 8)]["chips"] == 148  # the wrong count, amended
    assert payloads[("s1", 21)] == {"amount": 60, "player": "Bob", "pot": None,
                                    "returned": False, "run": None, "schema_version": 1,
                                    "type": "recorded_payout"}  # the wrong payout, corrected
    assert [r["type"] for r in rows if r["stream"] == "s2"][-1] == "hand_voided"
    history = json.loads(run("history", "s3", "--json").output)
    (undo,) = history["amendments"]
    assert undo["reason"] == "Bob bet 10, he did not check"
    assert [c["op"] for c in undo["changes"]] == ["delete"]
    assert Path(night["db"]).exists()


def test_the_corrected_hand_s3_has_its_page(night: dict, tmp_path) -> None:  # noqa: ANN001
    # s3's correction deleted Bob's check (seq 11): the corrected hand replays, the original
    # (Bob's bet at seq 13 with Cy to act) does not, and the page says so instead of failing
    page = tmp_path / "s3.html"
    out = night["run"]("view", "s3", "-o", str(page))
    assert out.exit_code == 0, out.output
    assert ("This version does not replay: event 13 (bet_raise by Bob): out of turn: Cy is "
            "to act, not Bob.") in page.read_text(encoding="utf-8")
