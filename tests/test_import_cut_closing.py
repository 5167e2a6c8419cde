"""A JSON-lines export with a hand in play whose closing line no longer counts the lines
before it (a line taken out: the file was cut or edited) is refused whole, one error line,
exit 2, nothing written, with one process or two (README: a file cut short is refused;
:mod:`ledger.formats.jsonl.lines`). The file: README's "night at the table" up to the end of
hand f1 (:data:`tests.fri_night.NIGHT_JSONL`, lines 1-21), then hand f2 (Ann 350, Cy 300)
started and its blinds posted, left in play: ``export --format jsonl`` of that ledger gives
these bytes back (24 lines, then ``{"in_play":{"f2":3},"rows":24}``)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ledger.formats.jsonl.lines import closing_line
from tests.conftest import DATA
from tests.fri_night import NIGHT_JSONL
from tests.test_live_table import one_shot


def _in_play_export() -> list[str]:
    """The export's lines (each with its ``\\n``), the closing line last."""
    lines = NIGHT_JSONL.splitlines()[:21]  # session rows 1-4, hand f1 rows 1-17
    start = json.loads(lines[4])
    event = start["event"]
    start["hand"] = event["hand"] = "f2"
    event["button"] = "Ann"
    event["seats"] = [{"player": "Ann", "seat": None, "stack": 350},
                      {"player": "Cy", "seat": None, "stack": 300}]
    event["stakes"].update(antes=[0, 0], blinds_or_straddles=[1, 2])
    blinds = [{"hand": "f2", "seq": seq, "event": {
        "amount": amount, "kind": kind, "player": player, "schema_version": 1,
        "type": "forced_bet"}} for seq, amount, kind, player in (
            (2, 1, "small_blind", "Cy"), (3, 2, "big_blind", "Ann"))]
    body = [*lines, *(json.dumps(row, separators=(",", ":")) for row in (start, *blinds))]
    return [line + "\n" for line in body] + [closing_line({"f2": 3}, len(body))]


def _events(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        (count,), = con.execute("SELECT count(*) FROM events").fetchall()
    return count


def test_the_whole_export_imports_with_its_hand_in_play(tmp_path: Path) -> None:
    night = tmp_path / "night.jsonl"
    night.write_text("".join(_in_play_export()))
    db = tmp_path / "whole.duckdb"
    assert one_shot(db, "import", str(night))[:2] == (
        0, "imported 2 hand(s) (24 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n")
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(tmp_path / "again.jsonl")
                    )[0] == 0
    assert (tmp_path / "again.jsonl").read_text() == night.read_text()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_export_cut_by_a_line_is_refused_whole(tmp_path: Path, jobs: str) -> None:
    lines = _in_play_export()
    assert '"player":"Bob"' in lines[2] and '"kind":"buy_in"' in lines[2]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:2] + lines[3:]))  # Bob's buy-in taken out
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(DATA / "hands" / "five-card-draw.phh"))[0] == 0
    assert _events(db) == 24
    code, out, err = one_shot(db, "import", "--jobs", jobs, str(cut))
    assert (code, out, err) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
           "1 rejected; 2 other hand(s) not written, their file refused\n",
        f"error: {cut}:24: the closing line counts 24 lines before it, the file has 23: "
        "lines are missing or added (is the file cut or pasted together?); nothing of the "
        "file was written\n")
    assert _events(db) == 24  # neither f1 nor the session's rows written


def test_a_closing_line_naming_the_hand_elsewhere_refuses_the_file(tmp_path: Path) -> None:
    lines = _in_play_export()
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(lines[:-1]) + closing_line({"f2": 2}, len(lines) - 1))
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(DATA / "hands" / "five-card-draw.phh"))[0] == 0
    code, _, err = one_shot(db, "import", str(edited))
    assert (code, err) == (2, f"error: {edited}:25, hand f2: the closing line names the hand "
                              "in play at seq 2, but the file has it to seq 3; nothing of the "
                              "file was written\n")
    assert _events(db) == 24
