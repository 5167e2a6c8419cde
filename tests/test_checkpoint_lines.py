"""`verify --against` takes the lines of a file that hold a checkpoint and passes over the
chat around them, takes a whole chat line pasted as the argument, and names the first position
where the ledger parts from a pasted line when the ledger's own checkpoints file marks the
rows (README, "Anchoring it"; :mod:`ledger.store.checkpoint`, :mod:`ledger.store.anchor`).

The ledger: hand h1 of :func:`tests.test_import_signatures.hand` (9 rows) checkpointed, then
hand h2 (rows 10-18) checkpointed; an older copy (9 rows) put back."""

from __future__ import annotations

import shutil
from pathlib import Path

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


def test_chat_around_a_pasted_line_is_passed_over(tmp_path: Path) -> None:
    db, line = _rolled_back(tmp_path)
    chat = write(tmp_path / "chat.txt", f"Ann: the books\n[23:41] Ann: {line}\nBob: nice hand\n")
    code, out, err = cli(db, "verify", "--against", str(chat))
    assert (code, err) == (1, "")
    assert out.splitlines()[1:] == [
        "derived tables: as the events' replay gives them (13 rows)",
        f"checkpoint {chat}:2 b {line.split()[3][:19]}… at {line.split()[4]}{ROLLED}",
        "the ledger parts from its checkpoints at position 10"]
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
        "the ledger parts from its checkpoints at position 10"]
    Path(f"{db}.checkpoints").unlink()  # no record marks the rows: the line only bounds it
    code, out, err = cli(db, "verify", "--against", line)
    assert code == 1 and out.splitlines()[-1] == (
        "the ledger parts from its checkpoints between positions 1 and 10 (no record given or "
        "beside the ledger marks the rows between: a pasted line or POS:HASH only bounds it; "
        "the records `checkpoint` appends name the row)")
