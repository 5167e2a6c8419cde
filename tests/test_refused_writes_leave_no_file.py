"""A write refused on a ledger path where there is no file leaves no file behind (README
"reads never write"; a write is all or nothing): the commands that create a ledger
(``init``, ``import``, ``run``, ``hand start``, ``session open``) remove the file they made
when they are refused with it still empty, and the others never make one (``no ledger at``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

BAD = "x.phh"  # a file of the folder given to `run`, and imported: it is no hand history

WRITES = [
    ("hand", "start", "--game", "NTT", "--stakes", "1/2", "--seats", "A:1,B:2"),
    ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "A:1"),
    ("import", "/dev/null"),
    ("import", "{dir}/x.phh"),
    ("import", "{dir}/x.phh", "--strict"),
    ("run", "{dir}"),
    ("session", "open", "x", "--currency", "usd"),
    ("session", "open", "x", "--date", "2026-13-01"),
    ("session", "open", " x"),
    ("session", "open", "x", "--chip-value", "1e-2"),
    ("session", "close", "x"),
    ("session", "set", "x", "--chip-value", "0.25"),
    ("buyin", "x", "Ann", "-5"),
    ("cashout", "x", "Ann", "1.5"),
    ("pay", "x", "Ann", "Bob", "$5"),
    ("entry", "retract", "x", "1", "--reason", "r", "--by", "b"),
    ("entry", "amend", "x", "1", "5", "--reason", "r", "--by", "b"),
    ("player", "alias", "Ann", "Ann"),
    ("act", "h1", "Bob cbr 20"),
    ("correct", "h1", "--delete", "3", "--reason", "r", "--by", "b"),
    ("void", "h1", "--reason", "r", "--by", "b"),
    ("undo", "h1", "--by", "b"),
]


@pytest.mark.parametrize("args", WRITES, ids=[" ".join(a) for a in WRITES])
def test_a_refused_write_leaves_no_ledger_file(user, tmp_path: Path,  # noqa: ANN001
                                               args: tuple[str, ...]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / BAD).write_text("not a hand history\n")
    db = tmp_path / "new.duckdb"
    code, out, err = user("--db", str(db), *(a.format(dir=folder) for a in args))
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert os.listdir(tmp_path) == ["in"]  # no ledger, no write-ahead log, no side file


def test_a_write_that_went_in_keeps_its_new_file(user, tmp_path: Path) -> None:  # noqa: ANN001
    db = tmp_path / "new.duckdb"
    assert user("--db", str(db), "session", "open", "x", "--date", "2026-11-28")[0] == 0
    assert db.exists()
    # a refusal on the ledger now there leaves it as it is
    assert user("--db", str(db), "session", "open", "x")[2] == (
        "error: session 'x' already exists\n")
    assert db.exists()
