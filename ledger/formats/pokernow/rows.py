"""The CSV rows of a PokerNow game log, in log order, one list per table (FORMATS.md §2).

Rows are newest first in the file; :func:`read_tables` sorts them by ``at`` (to the millisecond),
then by the sequence number ``order − epoch_ms × 100``, then by reverse file position, and drops
exact duplicates. ``order`` must be an integer; one real file has an ``order`` a digit short
(``16302875682920`` at ``…:28.292Z``): its text still starts with the row's millisecond and the one
digit left is ``0``, so its sequence is 0. A row that cannot be placed (an ``order`` that does
not fit its ``at``, a time that cannot be read, too few columns) refuses the file: the lines
around it, a hand's or the session's book, would be read in a guessed order or without it.

A file may hold the logs of several tables one after the other (exports pasted together), each
under its own ``entry,at,order`` header: each is a table of its own, read apart.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ledger.formats.files import csv_error, cut_note, file_name, read_text
from ledger.formats.pokernow.lines import BookLineError, parse_line
from ledger.formats.pokernow.model import Row
from ledger.model.errors import MalformedInput

HEADER = ("entry", "at", "order")


@dataclass
class Table:
    """The rows of one table's log in a file: ``header_line`` is the CSV line of its header;
    ``book``: those of ``errors`` about a line of the session's book that cannot be read (one
    outside any hand, or an id change), which refuse the file whole; ``unplaced``: the rows
    that cannot be placed in the log (see the module doc)."""

    header_line: int
    keyed: list[tuple[tuple[int, int, int], tuple[int, str, str, str]]] = field(
        default_factory=list)
    errors: list[MalformedInput] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    book: list[MalformedInput] = field(default_factory=list)
    unplaced: list[MalformedInput] = field(default_factory=list)


def _millis(at: str) -> int | None:
    try:
        moment = datetime.fromisoformat(at.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def _sequence(ms: int | None, order: str) -> int | None:
    """Sequence number of ``order`` inside its millisecond; ``None`` when it cannot be placed."""
    if ms is None or not order.isdigit():
        return None
    rest = order[len(str(ms)) :] if order.startswith(str(ms)) else None
    if rest is not None and len(rest) == 2:
        return int(rest)
    if rest == "0":  # a digit short (FORMATS.md §2): …0 and …00 are the same sequence 0
        return 0
    return None


def _columns(cells: list[str]) -> dict[str, int] | None:
    """Where each column is, when ``cells`` is a log header (``entry,at,order`` in any order)."""
    # (exports pasted together keep the second one's byte-order mark)
    names = [cell.strip().lstrip("\ufeff").strip().lower() for cell in cells]
    if not set(HEADER) <= set(names):
        return None
    return {name: names.index(name) for name in HEADER}


def _key(table: Table, file: str, line: int, position: int, entry: str, at: str,
         order: str) -> None:
    ms = _millis(at)
    seq = _sequence(ms, order)
    if ms is None and order.isdigit():
        ms = int(order) // 100
    if ms is None:
        table.unplaced.append(MalformedInput(f"unreadable at {at!r} and order {order!r}",
                                             file=file, line=line, action=entry))
        return
    if seq is None:
        problem = "is not an integer" if not order.isdigit() else f"does not fit {at!r}"
        table.unplaced.append(MalformedInput(f"order {order!r} {problem}", file=file,
                                             line=line, action=entry))
    table.keyed.append(((ms, -1 if seq is None else seq, -position), (line, entry, at, order)))


def _parse(table: Table, file: str) -> None:
    open_hand = None
    for _, (line, entry, at, order) in sorted(table.keyed):
        try:
            parsed = parse_line(entry)
        except ValueError as exc:
            book = open_hand is None or isinstance(exc, BookLineError)
            error = MalformedInput(str(exc), file=file, line=line, action=entry,
                                   hand=None if book else f"#{open_hand}")
            table.errors.append(error)
            if book:
                table.book.append(error)
            continue
        if parsed.kind == "start":
            open_hand = parsed.number
        elif parsed.kind == "end":
            open_hand = None
        table.rows.append(Row(line=line, at=at, order=order, entry=entry, parsed=parsed))


def _tables(reader: Any, file: str) -> list[Table]:
    """Every table's rows of the CSV ``reader``, keyed for sorting, not yet parsed."""
    header = next(reader, [])
    col = _columns(header)
    if col is None:
        raise MalformedInput("not a PokerNow game log (the header must be entry,at,order)",
                             file=file, line=1)
    tables, width, seen, previous = [Table(1)], len(header), set(), reader.line_num
    for position, record in enumerate(reader):
        line, previous = previous + 1, reader.line_num
        if not any(cell.strip() for cell in record):
            continue
        again = _columns(record) if len(record) == len(HEADER) else None
        if again is not None:  # the next table's log
            col, width, seen = again, len(record), set()
            tables.append(Table(line))
            continue
        if len(record) < width:
            tables[-1].unplaced.append(MalformedInput("row has too few columns", file=file,
                                                      line=line))
            continue
        entry, at, order = (record[col[c]] for c in HEADER)
        order = order.strip()
        if (entry, at, order) not in seen:
            seen.add((entry, at, order))
            _key(tables[-1], file, line, position, entry, at, order)
    return tables


def read_tables(path: Path) -> list[Table]:
    """Every table's rows of a game log, read and parsed, in log order; a table of a second
    header with no rows is left out.

    Raises:
        MalformedInput: the file does not start with an ``entry,at,order`` header, is not
            UTF-8 or not CSV (naming the line), is not a regular file, or is over the caps of
            :mod:`ledger.formats.reading`; a row cannot be placed in the log (the first,
            naming its line and how many more).
        OSError: the file cannot be opened.
    """
    file = file_name(path)  # errors name the path as given, as the other formats' do
    reader = csv.reader(io.StringIO(read_text(path, name=file), newline=""))
    try:
        tables = _tables(reader, file)
    except csv.Error as exc:
        raise csv_error(file, reader.line_num, exc) from None
    unplaced = [e for t in tables for e in t.unplaced]
    if unplaced:
        first, more = unplaced[0], len(unplaced) - 1
        first.message += (f" (and {more} more row(s) like it)" if more else "") + (
            ": the row cannot be placed in the log, so nothing of the file was written (the "
            "lines around it would be read in a guessed order or without it; correct the row "
            "and import the file again)")
        first.message += cut_note(path, first.line, message=first.message)
        raise first
    for table in tables:
        _parse(table, file)
    return [t for i, t in enumerate(tables) if i == 0 or t.keyed or t.errors]
