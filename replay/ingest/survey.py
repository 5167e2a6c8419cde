"""What an import of a directory reads, and a note for each file it leaves (README, "import").

An import of a directory reads, recursively and in path order, every file an importer
identifies by its content (:func:`replay.ingest.registry.find_importer`). Any other file is
named in a ``note:`` line saying why it was left (empty: no byte, or only whitespace, whatever
its suffix; no format handledger reads, a
PokerNow ledger statement not given with ``--ledger``, not a regular file, unreadable),
except what nobody means as hands: a hidden file or one in a hidden directory (a name that
starts with ``.``), documentation and scripts (``.md``, ``.rst``, ``.sh``:
:data:`QUIET_SUFFIXES`) and the ledger statement given with ``--ledger``. A file named on
the command line is never surveyed: one no format reads is refused (``error:``). A folder
(or folders, named alone) with no file an importer identifies is refused in one line
(:func:`nothing_to_import`): nothing was there to import.
"""

from __future__ import annotations

import os
from pathlib import Path

from ledger.formats.files import check_file, file_name, text_head
from ledger.formats.reading import read_head
from ledger.model.errors import MalformedInput
from ledger.model.shell import shell_arg
from replay.ingest.registry import find_importer, formats

#: Files left without a note: documentation and scripts beside the hands.
QUIET_SUFFIXES = (".md", ".rst", ".sh")
#: The header of PokerNow's ledger statement (FORMATS.md §2, "PokerNow ledger CSV").
_STATEMENT = b"player_nickname,player_id,"
#: The first bytes of every Parquet file (its magic number): what `export --format parquet`
#: writes, one file a table.
_PARQUET = b"PAR1"


def survey(directory: Path, statement: Path | None = None, kinds: list[str] | None = None
           ) -> tuple[list[Path], list[str], int]:
    """``(the files under directory an importer identifies, sorted by path; a note line for
    each other file, without its "note: "; how many files were skipped)``, see the module
    doc. ``statement``: the ledger statement given with ``--ledger``, left without a note.
    The Parquet files (known by their first bytes, whatever their names) are one note
    between them: ``DIR: 2 Parquet file(s) skipped: tables …``.

    A note reads ``DIR/x.csv: skipped: not a hand history handledger reads (…)``.
    ``kinds``: a list the kind of each file skipped is appended to (:data:`KINDS`'s keys),
    for :func:`nothing_to_import`.

    Raises:
        MalformedInput: ``directory`` holds Parquet files and no file an importer
            identifies: a Parquet export (``export --format parquet``), which import does
            not read (:func:`parquet_folder`); nothing is imported.
    """
    files: list[Path] = []
    notes: list[str] = []
    parquet = 0
    for path in sorted(directory.rglob("*")):
        if any(part.startswith(".") for part in path.relative_to(directory).parts):
            continue  # hidden, or in a hidden directory (.git, .DS_Store …)
        if path.is_dir() or path.suffix.lower() in QUIET_SUFFIXES:
            continue
        if statement is not None and _same(path, statement):
            continue
        head = read_head(path) if path.is_file() else b""
        if _blank(path, head):
            notes.append(f"{file_name(path)}: skipped: an empty file")
            _kind(kinds, "empty")
            continue
        if path.is_file() and head.startswith(_PARQUET):  # whatever its name (`x.jsonl`)
            parquet += 1
            continue
        if path.is_file() and find_importer(path, head) is not None:
            files.append(path)
            continue
        why = _why(path)
        notes.append(f"{file_name(path)}: skipped: {why}")
        _kind(kinds, next((k for k, (start, _) in KINDS.items() if why.startswith(start)),
                          "unreadable"))
    if parquet and not files:
        raise MalformedInput(parquet_folder(directory, parquet))
    if parquet:
        notes.append(f"{file_name(directory)}: {parquet} Parquet file(s) skipped: tables "
                     f"{_TABLES}, which import does not read")
    return files, notes, len(notes) - 1 + parquet if parquet else len(notes)


#: The kinds of files a survey skips, for :func:`nothing_to_import`: how a note's reason
#: begins, and the words counting them.
KINDS = {
    "empty": ("an empty file", "empty"),
    "format": ("not a hand history", "of no format handledger reads"),
    "statement": ("a PokerNow ledger statement", "PokerNow ledger statement(s) (imported "
                  "with --ledger beside their log)"),
    "parquet": ("a Parquet file", "Parquet"),
    "ledger": ("a DuckDB database", "DuckDB database(s) (a ledger: import its JSON-lines "
               "export)"),
    "events": ("the events table", "events table(s) of a CSV export (import the JSON-lines "
               "export)"),
    "unreadable": ("", "unreadable (not a regular file, too large or not readable)"),
}


def _kind(kinds: list[str] | None, kind: str) -> None:
    if kinds is not None:
        kinds.append(kind)


def nothing_to_import(directories: list[Path], kinds: list[str]) -> str:
    """The one line that refuses an import (or ``run``) of ``directories`` when no file under
    them is one an importer identifies (hands or session rows): each folder named, the files
    skipped counted by kind (``kinds``, as :func:`survey` appends them; hidden files and
    :data:`QUIET_SUFFIXES` are not counted), and what handledger reads (README "import")."""
    from collections import Counter

    where = ", ".join(file_name(d) for d in directories)
    counted = Counter(kinds)
    if not kinds:
        said = ("no file in it that import reads (hidden files and .md, .rst, .sh files are "
                "left unread)")
    else:
        said = f"{len(kinds)} file(s) skipped, " + ", ".join(
            f"{counted[k]} {KINDS[k][1]}" for k in KINDS if counted[k])
    return (f"{where}: nothing to import: {said}; handledger reads {formats()}; nothing "
            "written")


def _same(path: Path, other: Path) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _blank(path: Path, head: bytes) -> bool:
    """Whether the regular file ``path`` (its first bytes: ``head``) holds no byte, or only
    whitespace (after a UTF-8 byte order mark): nothing for any format to read."""
    if head.removeprefix(b"\xef\xbb\xbf").strip():
        return False
    try:
        size = check_file(path)
        if size <= len(head):
            return True
        with path.open("rb") as f:  # only whitespace so far: read on (rare)
            f.seek(len(head))
            while chunk := f.read(1 << 20):
                if chunk.strip():
                    return False
    except (MalformedInput, OSError):
        return False  # _why says why it cannot be read
    return True


def _why(path: Path) -> str:
    """Why no importer reads ``path``, in a few words."""
    try:
        check_file(path)
        with path.open("rb"):
            pass
    except MalformedInput as exc:
        return exc.message
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    head = read_head(path)
    return (statement_said(head) or parquet_said(head) or ledger_said(head, str(path))
            or events_csv_said(head) or f"not a hand history handledger reads ({formats()})")


def statement_said(head: bytes) -> str | None:
    """What is said of a file whose first bytes ``head`` are a PokerNow ledger statement's
    (its header, FORMATS.md §2), which no importer reads alone: it goes with its log
    (``import LOG --ledger STATEMENT``); None for any other file."""
    if text_head(head).lstrip(b"\xef\xbb\xbf").startswith(_STATEMENT):
        return ("a PokerNow ledger statement, not a game log (import it with --ledger beside "
                "its log)")
    return None


def parquet_said(head: bytes) -> str | None:
    """What is said of a file whose first bytes ``head`` are a Parquet file's (a table of
    `export --format parquet`, which no import reads: README "Formats", exports), pointing
    to the export that imports; None for any other file."""
    if not head.startswith(_PARQUET):
        return None
    return ("a Parquet file (a table `handledger export --format parquet` writes), which "
            f"import does not read: {_JSONL}")


def ledger_said(head: bytes, name: str = "LEDGER") -> str | None:
    """What is said of a file whose first bytes ``head`` are a DuckDB database's (DuckDB's
    mark at byte 8: another ledger's file, which no import reads), pointing to how a ledger's
    hands and books go into another (docs/LEDGER.md: its JSON-lines export imported), the
    file's ``name`` in the command; None for any other file."""
    from ledger.store.ledgerfile import MAGIC, MAGIC_AT

    if head[MAGIC_AT:MAGIC_AT + len(MAGIC)] != MAGIC:
        return None
    return ("a DuckDB database (a ledger's file), which import does not read: to bring a "
            "ledger's hands and books into this one, export them as JSON lines (`handledger "
            f"--db {shell_arg(name)} export --format jsonl -o FILE.jsonl`) and import that "
            "file")


def events_csv_said(head: bytes) -> str | None:
    """What is said of a file whose first bytes ``head`` are the events table as `export
    --format csv` writes it (its header: the ledger's columns), which no import reads,
    pointing to the export that imports; None for any other file."""
    from ledger.store.store import COLUMNS

    header = COLUMNS.replace(", ", ",").encode()
    if not text_head(head).lstrip(b"\xef\xbb\xbf").startswith(header):
        return None
    return ("the events table as `handledger export --format csv` writes it, which import "
            f"does not read: {_JSONL}")


#: What Parquet files are (docs/FORMATS-IMPORT.md "Formats", exports).
_TABLES = "`handledger export --format parquet` writes"
#: The export that imports (docs/FORMATS-IMPORT.md "Formats", exports).
_JSONL = ("export the ledger as JSON lines (`handledger export --format jsonl -o "
          "FILE.jsonl`) and import that file")


def parquet_folder(directory: Path, count: int) -> str:
    """The one line that refuses the import of ``directory``, which holds ``count`` Parquet
    files and no file an importer identifies: a Parquet export (``export --format parquet``;
    docs/FORMATS-IMPORT.md "Formats", exports, and "dask-replay"), with what imports instead."""
    name = file_name(directory)
    return (f"{name}: a Parquet export ({count} Parquet file(s), tables {_TABLES}), which "
            "import does not read: nothing imported; to restore a ledger, import its JSON-"
            "lines export instead (`handledger export --format jsonl -o FILE.jsonl`); "
            f"`handledger dask-replay {shell_arg(name)} OUT` replays and audits the Parquet export")
