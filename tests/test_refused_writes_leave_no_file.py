"""A write refused on a ledger path where there is no file leaves no file behind (README
"reads never write"; a write is all or nothing): the commands that create a ledger
(``init``, ``import``, ``run``, ``hand start``, ``session open``) check what they can without
the file before they make it, so that such a refusal never makes one; only a refusal that
cannot be known beforehand (a file a format reads, refused once read whole) removes the file
it made, still empty; the others never make one (``no ledger at``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

BAD = "x.phh"  # a file of the folder given to `run`, and imported: it is no hand history

WRITES = [
    ("hand", "start", "--game", "NTT", "--stakes", "1/2", "--seats", "A:1,B:2"),
    ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "A:1"),
    ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "A:1,B:2", "--button", "A",
     "--session", "x"),
    ("hand", "start", "--hand", " h1", "--game", "NT", "--stakes", "1/2", "--seats", "A:1,B:2",
     "--button", "A"),
    ("import", "/dev/null"),
    ("import", "{dir}/notes.txt"),
    ("import", "--session", " x", "{dir}/x.phh"),
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
    (folder / "notes.txt").write_text("not a hand history either\n")
    db = tmp_path / "new.duckdb"
    code, out, err = user("--db", str(db), *(a.format(dir=folder) for a in args))
    assert code == 2, (out, err)
    if args == ("run", "{dir}"):  # the folder's other file is named as skipped, after it
        error, note = err.splitlines()
        assert note.startswith(f"note: {folder / 'notes.txt'}: skipped: not a hand history")
        err = error + "\n"
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


#: Refused only once the file is read whole, after the ledger file was made: removed again.
LAST_RESORT = [("import", "{dir}/x.phh"), ("import", "{dir}/x.phh", "--strict"), ("run", "{dir}")]
CHECKED_FIRST = [a for a in WRITES if a not in LAST_RESORT]


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ledger files opened while the test runs (``Ledger._connect``, where a ledger file
    is opened, and so made when it is not there, spied)."""
    from ledger.store.store import Ledger

    seen: list[str] = []
    connect = Ledger._connect

    def spy(self: Ledger, read_only: bool) -> object:
        seen.append(str(self.path))
        return connect(self, read_only)

    monkeypatch.setattr(Ledger, "_connect", spy)
    return seen


@pytest.mark.parametrize("args", CHECKED_FIRST, ids=[" ".join(a) for a in CHECKED_FIRST])
def test_a_write_refused_by_its_checks_never_makes_the_file(
        user, tmp_path: Path, opened: list[str], args: tuple[str, ...]) -> None:  # noqa: ANN001
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / BAD).write_text("not a hand history\n")
    (folder / "notes.txt").write_text("not a hand history either\n")
    db = tmp_path / "new.duckdb"
    code, out, err = user("--db", str(db), *(a.format(dir=folder) for a in args))
    assert code == 2, (out, err)
    assert not [p for p in opened if Path(p).name.startswith("new.duckdb")], opened
    assert os.listdir(tmp_path) == ["in"]


def test_the_checks_refuse_in_their_own_words_and_a_good_write_opens_the_file(
        user, tmp_path: Path, opened: list[str]) -> None:  # noqa: ANN001
    """What the checks before the file refuse is the command's own refusal (as on a ledger
    that exists), and a write they pass does make the file (the spy sees it)."""
    db = tmp_path / "new.duckdb"
    assert user("--db", str(db), "hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:200,Bob:150", "--button", "Ann", "--session", "fri")[2] == (
        "error: no session 'fri' (open it with `handledger session open fri`)\n")
    assert user("--db", str(db), "import", "--session", "fri ", "/dev/null")[2] == (
        "error: session name 'fri ' has leading or trailing whitespace: names are kept as "
        "typed, never repaired (write 'fri')\n")
    assert opened == [] and not db.exists()
    assert user("--db", str(db), "session", "open", "fri", "--date", "2026-11-28")[0] == 0
    assert str(db) in opened and db.exists()
