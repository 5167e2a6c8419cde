"""`export --format phh` writes hands that import back to the same events and that pokerkit
loads to the same final stacks, for every real hand of every standard variant."""

from __future__ import annotations

import json
from decimal import Decimal

import duckdb
from click.testing import CliRunner
from pokerkit import HandHistory

from cli.main import cli
from ledger.formats.phh.read import read_phh
from tests.conftest import SHARED


def _events(db: str) -> list[tuple]:
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("SELECT hand_id, seq, type, payload FROM events ORDER BY position")
    out = []
    for hand, seq, kind, payload in rows.fetchall():
        event = json.loads(payload)
        event.pop("source", None)  # provenance: which file and line it was read from
        out.append((hand, seq, kind, event))
    con.close()
    return out


def test_phh_export_round_trips_every_real_hand(tmp_path) -> None:  # noqa: ANN001
    runner = CliRunner()
    first, second = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    out = runner.invoke(cli, ["--db", first, "import", str(SHARED / "phh"),
                              str(SHARED / "rules")])
    assert out.exit_code == 0, out.output
    dump = tmp_path / "all.phhs"
    assert runner.invoke(cli, ["--db", first, "export", "--format", "phh", "-o",
                               str(dump)]).exit_code == 0
    assert runner.invoke(cli, ["--db", second, "import", str(dump)]).exit_code == 0
    assert _events(first) == _events(second)
    assert len({row[0] for row in _events(first)}) == 130

    exported = read_phh(dump).check()
    with dump.open("rb") as fh:
        histories = list(HandHistory.load_all(fh))
    checked = 0
    for hand, hh in zip(exported, histories, strict=True):
        if hand.started.options.declare is not None:
            continue  # our declaration extension: pokerkit cannot play it
        *_, final = hh
        scale = Decimal(10) ** hand.started.unit.decimals
        pokerkit_stacks = [int(Decimal(x) * scale) for x in final.stacks]
        assert sum(pokerkit_stacks) == sum(s.stack for s in hand.started.seats)
        checked += 1
    assert checked == 127


def test_single_hand_export_is_a_phh_file(run) -> None:  # noqa: ANN001
    run("import", str(SHARED / "rules" / "ex04.phh"))
    hand = json.loads(run("replay", "--json").output.splitlines()[0])["hand"]
    text = run("export", "--format", "phh", hand).output
    assert text.startswith("variant = 'FO/8'")
    assert "'p3 cbr 4'" in text and "players = ['P1', 'P2', 'P3', 'P4', 'P5']" in text
    *_, final = HandHistory.loads(text)
    assert list(final.stacks) == [97, 117, 101, 100, 85]
