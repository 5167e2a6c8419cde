"""Checkpoints that tell the truth (README "Anchoring it"): a close whose checkpoint the ledger
no longer extends is a rewrite, never a checkpoint missing to take again; a ledger copied
without its checkpoints file is said to be so; ``checkpoint`` and ``session close`` append to
no checkpoints file holding a checkpoint the ledger does not extend, or a damaged last line;
``verify --against`` names the first row where any checkpoint disagrees (one taken on a copy
put back bounds no other), and checks the intact records of a file with a damaged line.

The ledger of the first tests: session s1 (0.25 USD a chip), Ann and Bob buy in 100, Bob
rebuys 100, Ann cashes out 100 and Bob 200, s1 closed: rows 1-7, the close's checkpoint at 7.
The forgery deletes Bob's rebuy (row 4), renumbers the rows after it and makes the chain and
the books again, as a host with DuckDB could."""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.ledger_files import rewrite, stored
from tests.test_live_table import one_shot

NIGHT = (("session", "open", "s1", "--date", "2026-12-05", "--chip-value", "0.25",
          "--currency", "USD"),
         ("buyin", "s1", "Ann", "100"), ("buyin", "s1", "Bob", "100"),
         ("buyin", "s1", "Bob", "100", "--kind", "rebuy"),
         ("cashout", "s1", "Ann", "100"), ("cashout", "s1", "Bob", "200"),
         ("session", "close", "s1"))
AGAINST = "`handledger verify --against {}.checkpoints`"


def _night(user) -> None:  # noqa: ANN001
    for step in NIGHT:
        assert user(*step)[0] == 0, step


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``built(make)`` → a ledger t.duckdb (its checkpoints file beside it) made by
    ``make(user, db)`` (``user`` runs a command on it as the ``user`` fixture does), once for
    the module (the first time a test asks for it); copy it (:func:`_copied`), never change
    it."""
    made: dict[object, Path] = {}

    def ledger(make: Callable[..., object]) -> Path:
        if make not in made:
            db = tmp_path_factory.mktemp(make.__name__.strip("_")) / "t.duckdb"
            make(lambda *args: one_shot(db, *args), str(db))
            made[make] = db
        return made[make]

    return ledger


def _copied(built: Callable[..., Path], make: Callable[..., object], db: str) -> None:
    """The ledger ``built(make)`` and its checkpoints file copied to ``db``."""
    copy_ledger(built(make), Path(db))


def _night_of(user, db: str) -> None:  # noqa: ANN001, ARG001
    """:func:`_night`, as :func:`built` makes a ledger."""
    _night(user)


def _rebuy_deleted(user, db: str) -> None:  # noqa: ANN001
    """Row 4 (Bob's rebuy) deleted, the rows after it renumbered (position and seq), the
    chain, the head and the derived tables made again: ``replay`` refuses to save them
    beside the checkpoints file the ledger no longer extends, so the forger moves it away
    meanwhile."""
    rows = stored(db)
    rewrite(db, [(r[0] - 1, *r[1:4], r[4] - 1, *r[5:]) for r in rows[4:]], start=4)
    code, _, err = user("replay")
    assert (code, err.split(": the books")[0]) == (2, (
        f"error: {db}.checkpoints:1: this ledger does not extend the checkpoint of position 7 "
        "(the ledger ends at position 6, before 7)"))
    kept = Path(f"{db}.checkpoints")
    kept.rename(f"{kept}.aside")
    assert user("replay")[0] == 0
    Path(f"{kept}.aside").rename(kept)


def test_a_close_the_ledger_parts_from_fails_verify_and_is_not_taken_again(
        user, db: str, built) -> None:  # noqa: ANN001
    _copied(built, _night_of, db)  # the night of the module doc
    record = Path(f"{db}.checkpoints").read_text()
    assert json.loads(record)["position"] == 7
    _rebuy_deleted(user, db)
    code, out, _ = user("verify")
    assert code == 1
    assert out.splitlines()[-1] == (
        f"checkpoints FAIL: {db}.checkpoints:1 holds a checkpoint of position 7 this ledger "
        "does not extend (the ledger ends at position 6, before 7), and none of the close of "
        "session s1 (entry 6, position 6): rewritten since it was taken, not a checkpoint to "
        f"take again; run {AGAINST.format(db)}")
    assert user("session", "list") == (0, (
        "s1  2026-12-05  0 hand(s)  2 buy-in(s)  closed, settled, but its audit has 1 "
        "finding(s) (session_balance 1: `handledger audit --session s1`), its close's "
        "checkpoint not "
        "found: its checkpoints file holds one this ledger does not extend "
        f"({AGAINST.format(db)})\n"), "")
    listed = json.loads(user("session", "list", "--json")[1])["sessions"][0]
    assert (listed["close_checkpoint_missing"], listed["close_checkpoint_why"]) == (
        True, "parted")
    assert user("session", "close", "s1") == (2, "", (
        f"error: {db}.checkpoints:1: this ledger does not extend the checkpoint of position 7 "
        "(the ledger ends at position 6, before 7): session s1 is closed already (entry 6, "
        "position 6), and no checkpoint of its close is taken over that; run "
        f"{AGAINST.format(db)}\n"))
    assert Path(f"{db}.checkpoints").read_text() == record  # nothing appended
    code, out, _ = user("verify", "--against", f"{db}.checkpoints")
    assert code == 1 and out.splitlines()[-1] == (
        "the ledger parts from its checkpoints at position 4 (session:s1 seq 4)")


def test_a_ledger_copied_without_its_checkpoints_file_is_said_so(
        user, db: str, built) -> None:  # noqa: ANN001
    _copied(built, _night_of, db)  # the night of the module doc
    copy = str(Path(db).with_name("b.duckdb"))
    shutil.copy(db, copy)
    code, out, _ = user("--db", copy, "verify")
    assert (code, out.splitlines()[-1]) == (
        0, f"close checkpoint missing: session s1 (entry 7, position 7): there is no "
        f"checkpoints file {copy}.checkpoints (the ledger copied without it?): put it back "
        "beside the ledger; if it never was, `handledger session close s1` takes the "
        "checkpoint")
    assert user("--db", copy, "session", "list")[1] == (
        "s1  2026-12-05  0 hand(s)  3 buy-in(s)  closed, settled, its close's checkpoint "
        "missing: there is no checkpoints file (copied without it?) (`handledger session "
        "close s1` takes one)\n")
    code, out, _ = user("--db", copy, "session", "close", "s1")
    assert (code, out.splitlines()[0]) == (
        0, "session s1 was closed already (entry 7, position 7), but there was no checkpoints "
        "file b.duckdb.checkpoints (the ledger copied without it, or its close stopped before "
        "writing it): taken now, of the head as the close left it")
    assert "close checkpoint missing" not in user("--db", copy, "verify")[1]


def _forked(user, db: str) -> tuple[str, str]:  # noqa: ANN001
    """Session s1, Ann in for 100; the file copied; Bob and Cy in for 100, checkpoint (at 4);
    the copy put back and Bob in for 50 (row 3 now differs), written with the checkpoints
    file moved away (a write beside it is refused) and put back after. (the record of
    position 4, the checkpoints file as it was)."""
    for step in (NIGHT[0], NIGHT[1]):
        assert user(*step)[0] == 0
    old = Path(db).with_name("old.duckdb")
    shutil.copy(db, old)
    for step in (("buyin", "s1", "Bob", "100"), ("buyin", "s1", "Cy", "100"), ("checkpoint",)):
        assert user(*step)[0] == 0
    shutil.copy(old, db)
    kept = Path(db).with_name("kept.checkpoints")
    Path(f"{db}.checkpoints").rename(kept)
    assert user("buyin", "s1", "Bob", "50")[0] == 0
    kept.rename(f"{db}.checkpoints")
    return _read_forked(db)


def _read_forked(db: str) -> tuple[str, str]:
    """(the first record, the text) of the checkpoints file of ``db``."""
    text = Path(f"{db}.checkpoints").read_text()
    return text.splitlines()[0], text


def _forked_copy(built, db: str) -> tuple[str, str]:  # noqa: ANN001
    """:func:`_forked`, built once for the module, copied to ``db``."""
    _copied(built, _forked, db)
    return _read_forked(db)


def test_no_checkpoint_is_appended_after_one_the_ledger_parts_from(
        user, db: str, built) -> None:  # noqa: ANN001
    _, text = _forked_copy(built, db)
    refused = (f"error: {db}.checkpoints:1: this ledger does not extend the checkpoint of "
               "position 4 (the ledger ends at position 3, before 4): {}; run "
               f"{AGAINST.format(db)}\n")
    assert user("checkpoint") == (2, "", refused.format("no checkpoint appended"))
    assert user("session", "close", "s1") == (2, "", refused.format(
        "session s1 not closed (its checkpoint could not be appended); nothing written"))
    assert Path(f"{db}.checkpoints").read_text() == text
    assert user("session", "list")[1].endswith("  open\n")
    other = Path(db).with_name("elsewhere.checkpoints")  # another file takes it
    assert user("checkpoint", "-o", str(other))[0] == 0
    assert json.loads(other.read_text())["position"] == 3


def test_the_parting_is_the_first_row_any_checkpoint_disagrees_at(
        user, db: str, built) -> None:  # noqa: ANN001
    """A record of the fork at 3 (as `checkpoint` appended one before it checked the file):
    the ledger extends it, and parts from the record at 4 at row 3, not 4."""
    first = json.loads(_forked_copy(built, db)[0])
    rows = stored(db)
    fork = {**first, "position": 3, "hash": rows[2][11], "marks_from": 1,
            "marks": base64.b64encode(b"".join(bytes.fromhex(r[11][:8]) for r in rows)).decode()}
    with Path(f"{db}.checkpoints").open("a") as file:
        file.write(json.dumps(fork) + "\n")
    code, out, _ = user("verify", "--against", f"{db}.checkpoints")
    assert code == 1
    assert out.splitlines()[2:] == [
        f"checkpoint {db}.checkpoints:1 t 4:{first['hash'][:16]}… at {first['at']}: FAILS: "
        "the ledger ends at position 3, before 4, and parts from it at row 3 (by its marks): "
        "rewritten there, or another ledger",
        f"checkpoint {db}.checkpoints:2 t 3:{rows[2][11][:16]}… at {first['at']}: ok: "
        "extended",
        "the ledger parts from its checkpoints at position 3 (session:s1 seq 3)"]


def _cut_short(user, db: str) -> tuple[Path, str]:  # noqa: ANN001
    """Sessions s1 and s2 opened, each followed by a checkpoint (rows 1 and 2); the second
    record cut short by 40 bytes. (the checkpoints file, its text)."""
    for step in (("session", "open", "s1"), ("checkpoint",), ("session", "open", "s2"),
                 ("checkpoint",)):
        assert user(*step)[0] == 0
    path = Path(f"{db}.checkpoints")
    path.write_bytes(path.read_bytes()[:-40])
    return path, path.read_text()


def _cut_short_copy(built, db: str) -> tuple[Path, str]:  # noqa: ANN001
    """:func:`_cut_short`, built once for the module, copied to ``db``."""
    _copied(built, _cut_short, db)
    path = Path(f"{db}.checkpoints")
    return path, path.read_text()


def test_no_checkpoint_is_appended_to_a_record_cut_short(
        user, db: str, built) -> None:  # noqa: ANN001
    path, text = _cut_short_copy(built, db)
    assert user("checkpoint") == (2, "", (
        f"error: {path}:2: a damaged checkpoint record (not JSON), the file's last line: a "
        "write cut short (disk full, killed): no checkpoint appended; keep a copy of the file, "
        f"remove that line (`handledger verify --against {path}` checks the others), then try "
        "again\n"))
    assert path.read_text() == text
    code, out, _ = user("verify", "--against", str(path))
    assert code == 0
    assert out.splitlines()[3:] == [
        f"checkpoint {path}:2: not checked: a damaged checkpoint record (not JSON), the file's "
        "last line: a write cut short (disk full, killed)",
        # row 2: s2's opening, which the record cut short would have vouched for
        "the ledger extends all 1 checkpoint(s); 1 row(s) after the latest (2-2), which none "
        "vouches for: 1 session opening; 1 damaged line(s) not checked"]
    path.write_text(text.rsplit("\n", 1)[0] + "\n")  # the damaged line removed
    assert user("checkpoint")[0] == 0
    assert [json.loads(line)["position"] for line in path.read_text().splitlines()] == [1, 2]


def test_a_last_line_without_its_newline_is_refused(user, db: str) -> None:  # noqa: ANN001
    assert user("session", "open", "s1")[0] == 0 and user("checkpoint")[0] == 0
    path = Path(f"{db}.checkpoints")
    path.write_text(path.read_text().rstrip("\n"))
    assert user("checkpoint") == (2, "", (
        f"error: {path}:1: the file's last line ends without a newline (a write cut short?): "
        "no checkpoint appended; end it with a newline, then try again\n"))


def test_a_damaged_line_before_others_fails_verify_against(
        user, db: str, built) -> None:  # noqa: ANN001
    path, _ = _cut_short_copy(built, db)
    whole = Path(db).with_name("whole.checkpoints")
    assert user("checkpoint", "-o", str(whole))[0] == 0
    lines = whole.read_text().splitlines()
    whole.write_text("\n".join([lines[0][:-40], *lines]) + "\n")  # a damaged line 1
    code, out, _ = user("verify", "--against", str(whole))
    assert code == 1
    assert out.splitlines()[3] == (
        f"checkpoint {whole}:1: FAILS: a damaged checkpoint record (not JSON), with "
        "checkpoints after it: the file altered after it was written")
    assert out.splitlines()[4] == (  # never "extends all" of a file altered
        "the ledger extends the 1 intact checkpoint(s), but the file was altered after it was "
        "written: 1 damaged line(s) before a later checkpoint")
    assert user("checkpoint", "-o", str(whole)) == (2, "", (
        f"error: {whole}:1: a damaged checkpoint record (not JSON), with checkpoints after "
        "it: the file altered after it was written: no checkpoint appended; run "
        f"`handledger verify --against {whole}`\n"))


def test_a_close_whose_record_was_cut_short_is_taken_once_the_line_is_removed(
        user, db: str) -> None:  # noqa: ANN001
    for step in (("session", "open", "s1", "--date", "2026-12-05"), ("checkpoint",),
                 ("session", "close", "s1")):
        assert user(*step)[0] == 0
    path = Path(f"{db}.checkpoints")
    whole = path.read_text()
    path.write_text(whole[:-40])  # the close's record cut short
    cut = ("a damaged checkpoint record (not JSON), the file's last line: a write cut short "
           "(disk full, killed)")
    code, out, _ = user("verify")
    assert (code, out.splitlines()[-1]) == (
        0, f"close checkpoint missing: session s1 (entry 2, position 2): {path} holds none of "
        f"it, and its line 2 is damaged ({cut}): run {AGAINST.format(db)}")
    assert user("session", "list")[1] == (
        "s1  2026-12-05  0 hand(s)  0 buy-in(s)  closed, settled, its close's checkpoint "
        f"missing: its checkpoints file has a damaged line ({AGAINST.format(db)})\n")
    assert user("session", "close", "s1") == (2, "", (
        f"error: {path}:2: {cut}: session s1 is closed already (entry 2, position 2), and no "
        "checkpoint of its close is taken over that; keep a copy of the file, remove that line "
        f"({AGAINST.format(db)} checks the others), then try again\n"))
    path.write_text(whole.splitlines()[0] + "\n")
    code, out, _ = user("session", "close", "s1")
    assert (code, out.splitlines()[0]) == (
        0, f"session s1 was closed already (entry 2, position 2), but {path.name} held no "
        "checkpoint of its close (the close stopped before writing it): taken now, of the "
        "head as the close left it")
    assert path.read_text().splitlines()[1].startswith('{"at"')
    assert "close checkpoint missing" not in user("verify")[1]


def test_a_file_holding_no_checkpoint_is_not_taken_for_one_cut_short(
        user, db: str) -> None:  # noqa: ANN001
    """Another file under the checkpoints file's name (an export of another ledger, two
    lines): no line of it is a checkpoint, so none is "a write cut short" to remove."""
    assert user("session", "open", "s1")[0] == 0
    path = Path(f"{db}.checkpoints")
    path.write_text('{"position": 1, "type": "session_opened"}\n{"position": 2}\n')
    why = "a checkpoint record with unknown fields"
    assert user("checkpoint") == (2, "", (
        f"error: {path}: holds no checkpoint, so it is no checkpoints file (its line 1: {why}):"
        " no checkpoint appended; move it away, then try again\n"))
    assert user("session", "close", "s1")[0] == 2
    assert path.read_text().count("\n") == 2
