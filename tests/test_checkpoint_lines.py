"""`verify --against` takes the lines of a file that hold a checkpoint and passes over the
chat around them, takes a whole chat line pasted as the argument, and names the first position
where the ledger parts from a pasted line when the ledger's own checkpoints file marks the
rows (docs/LEDGER.md, "Anchoring it"; :mod:`ledger.store.checkpoint`, :mod:`ledger.store.anchor`).

The ledger: hand h1 of :func:`tests.test_import_signatures.hand` (9 rows) checkpointed, then
hand h2 (rows 10-18) checkpointed; an older copy (9 rows) put back. A signed chat line is
checked over a whole hash at hand, since its signature covers the whole hash and the line gives
24 digits of it: its record's in the ledger's checkpoints file, or the ledger's own row's (the
line altered); with neither it says what was checked and what was not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ledger.store.checkpoint import Checkpoint
from tests.test_import_signatures import hand, write
from tests.test_live_table import one_shot as cli


def _rolled_back(tmp_path: Path) -> tuple[Path, str]:
    """The ledger rolled back to 9 rows, and the chat line of its checkpoint at 18."""
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    assert cli(db, "checkpoint")[0] == 0
    shutil.copy(db, tmp_path / "old.duckdb")
    assert cli(db, "import", str(write(tmp_path / "h2.jsonl", hand("h2"))))[0] == 0
    code, line, _ = cli(db, "checkpoint")
    assert code == 0 and " 18:" in line
    shutil.copy(tmp_path / "old.duckdb", db)  # the older copy put back
    return db, line.strip()


ROLLED = ": FAILS: the ledger ends at position 9, before 18: an older copy put back, or cut short"
#: the ledger (head 9) rolled back from its checkpoint at 18: no row 10 to part at
AFTER_HEAD = ("the ledger parts from its checkpoints after its head (position 9): checkpoint "
              "18 is beyond it, rows 10-18 missing (an older copy put back, or cut short)")


def test_chat_around_a_pasted_line_is_passed_over(tmp_path: Path) -> None:
    db, line = _rolled_back(tmp_path)
    chat = write(tmp_path / "chat.txt", f"Ann: the books\n[23:41] Ann: {line}\nBob: nice hand\n")
    code, out, err = cli(db, "verify", "--against", str(chat))
    assert (code, err) == (1, "")
    assert out.splitlines()[1:] == [
        "derived tables: as the events' replay gives them (13 rows)",
        f"checkpoint {chat}:2 b {line.split()[3][:19]}… at {line.split()[4]}{ROLLED}",
        AFTER_HEAD]
    none = write(tmp_path / "none.txt", "Bob: nice hand\nAnn: handledger checkpoint, later\n")
    assert cli(db, "verify", "--against", str(none)) == (
        2, "", f"error: {none}: holds no checkpoint (a JSON record, a chat line or POS:HASH)\n")


def test_a_whole_line_pasted_as_the_argument(tmp_path: Path) -> None:
    db, line = _rolled_back(tmp_path)
    code, out, err = cli(db, "verify", "--against", line)
    assert (code, err) == (1, "")
    assert out.splitlines()[1:] == [
        "derived tables: as the events' replay gives them (13 rows)",
        f"checkpoint (the line given) b {line.split()[3][:19]}… at {line.split()[4]}{ROLLED}",
        AFTER_HEAD]
    Path(f"{db}.checkpoints").unlink()  # no record marks the rows: the line only bounds it
    code, out, err = cli(db, "verify", "--against", line)
    assert code == 1 and out.splitlines()[-1] == (
        "the ledger parts from its checkpoints between positions 1 and 9, or after its head "
        "(position 9): checkpoint 18 is beyond it, rows 10-18 missing (an older copy put "
        "back, or cut short) (no record given or beside the ledger marks the rows between: a "
        "pasted line or POS:HASH only bounds it; the records `checkpoint` appends name the "
        "row)")


def _signed_rolled_back(tmp_path: Path, monkeypatch) -> tuple[Path, str]:  # noqa: ANN001
    """As :func:`_rolled_back`, the checkpoint at 18 signed by ann (key ``ann`` made in
    ``tmp_path``/keys, given as ``$HANDLEDGER_KEYS``)."""
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    db = tmp_path / "b.duckdb"
    assert cli(db, "key", "new", "ann")[0] == 0
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    shutil.copy(db, tmp_path / "old.duckdb")
    assert cli(db, "import", str(write(tmp_path / "h2.jsonl", hand("h2"))))[0] == 0
    code, line, _ = cli(db, "checkpoint", "--sign", "ann")
    assert code == 0 and " 18:" in line and " signed ann " in line
    shutil.copy(tmp_path / "old.duckdb", db)  # the older copy put back
    return db, line.strip()


def test_a_signed_line_is_checked_over_the_whole_hash_its_record_gives(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    db, line = _signed_rolled_back(tmp_path, monkeypatch)
    record = json.loads(Path(f"{db}.checkpoints").read_text())
    assert record["hash"].startswith(line.split()[3][3:])  # the line's 24 digits, of 64
    code, out, err = cli(db, "verify", "--against", line)
    assert (code, err) == (1, "")
    assert out.splitlines()[2] == (
        f"checkpoint (the line given) b {line.split()[3][:19]}… at {line.split()[4]}{ROLLED}; "
        "signed by ann, over the whole hash b.duckdb.checkpoints records for position 18: the "
        "checkpoint is as signed")


def test_a_signed_line_no_record_completes_says_what_was_and_was_not_checked(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    db, line = _signed_rolled_back(tmp_path, monkeypatch)
    Path(f"{db}.checkpoints").unlink()  # only the pasted line: 24 digits of the hash
    key = line.split(" signed ann ")[1][:12]
    code, out, err = cli(db, "verify", "--against", line)
    assert (code, err) == (1, "")
    assert out.splitlines()[2] == (
        f"checkpoint (the line given) b {line.split()[3][:19]}… at {line.split()[4]}{ROLLED}; "
        f"signature of 'ann' (key {key}, 'ann' here) not checked: it covers the head's whole "
        "hash, and the line gives its first 24 hex digits only: the ledger has no row 18 and "
        "no record of position 18 in b.duckdb.checkpoints gives the rest; checked: the "
        "position and those digits, against the ledger; not checked: who signed, nor whether "
        "the line was altered")
    (tmp_path / "none").mkdir()
    code, out, _ = cli(db, "verify", "--against", line, "--keys", str(tmp_path / "none"))
    assert code == 1 and f"signature of 'ann' (key {key}, which the key directory does not " \
        "hold) not checked: " in out


def test_a_signed_line_whose_hash_digits_were_altered_fails_as_altered(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    db, line = _signed_rolled_back(tmp_path, monkeypatch)
    shutil.copy(tmp_path / "old.duckdb", tmp_path / "older.duckdb")
    Path(f"{db}.checkpoints").unlink()  # the fork is written without the file it leaves
    assert cli(db, "import", str(tmp_path / "h2.jsonl"))[0] == 0  # h2 again: another row 18
    code, _, _ = cli(db, "checkpoint", "--sign", "ann", "-o", str(tmp_path / "mine.txt"))
    assert code == 0
    mine = json.loads((tmp_path / "mine.txt").read_text())
    ours = Checkpoint(**mine).line()
    digits = mine["hash"][:24]
    forged = ours.replace(f"18:{digits}", f"18:{'0' if digits[0] != '0' else '1'}{digits[1:]}")
    code, out, err = cli(db, "verify", "--against", forged)
    assert (code, err) == (1, "")
    said = out.splitlines()[2]
    assert said.startswith(f"checkpoint (the line given) b 18:{forged.split(':')[1][:16]}… at ")
    assert said.endswith(
        f": FAILS: row 18 hashes {mine['hash'][:16]}…, not {forged.split()[3][3:19]}…: rewritten "
        "at or before it, or another ledger; signed by ann, but over the ledger's own row 18 "
        f"hash {mine['hash'][:16]}…, not the line's {forged.split()[3][3:19]}…: the line's hash "
        "digits were altered after it was signed")
