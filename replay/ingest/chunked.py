"""A file read, checked and appended a chunk of hands at a time (a large ``.phhs``).

An importer with ``iter_read(path, session=…)`` hands out its items one at a time (a hand, or
an error for a hand it could not read). They are checked with the engine a chunk of
:data:`CHUNK_HANDS` hands at a time, counted in their session's chips, and appended by
:func:`replay.ingest.writing.write_chunks` inside the file's one transaction, so that memory
stays flat however large the file, and the file is still imported whole or not at all, with
the report, the errors and the rows of reading it whole. A chunk never ends after a hand
that may carry chips into the next hand of its session (RULES.md §2.2, §3.8, §7.1: the next hand's
``carry_over`` is added to it).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ledger.formats.files import file_name
from ledger.formats.reading import FileRead
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from replay import carry
from replay.ingest.derived import early_share
from replay.ingest.writing import Chunk, States, write_chunks

#: Hands checked and appended together.
CHUNK_HANDS = 1_000


def import_chunked(ledger: Any, path: Path, importer: Any, *, strict: bool,
                   session: str | None, tables: Any = None, stored: int | None = None) -> Any:
    """Import the file at ``path`` with ``importer`` a chunk at a time (module doc) and
    return its report (``files`` 0); ``stored``: see
    :func:`replay.ingest.writing.write_chunks`.

    Raises:
        OSError: the file cannot be read; LedgerError, pydantic.ValidationError: what
            reading it whole raises (nothing of the file is written).
    """
    read_errors: list[LedgerError] = []
    items = importer.iter_read(path, session=session)
    first = next(items, None)  # the file is read (or cannot be) before the session is looked up
    if session is not None:
        from replay.sessions import open_state

        open_state(ledger, session)  # an opened session that is not closed
    items = itertools.chain([] if first is None else [first], items)
    return write_chunks(ledger, path, _chunks(ledger, path, items, read_errors,
                                              keep_states=tables is not None),
                        strict=strict, read_errors=lambda: _sorted(read_errors),
                        tables=tables, stored=stored)


def _sorted(errors: list[LedgerError]) -> list[LedgerError]:
    """The reader's errors by line, as reading the whole file lists them."""
    return sorted(errors, key=lambda e: e.line or 0)


def _chunks(ledger: Any, path: Path, items: Iterator[Any], read_errors: list[LedgerError], *,
            keep_states: bool) -> Iterator[Chunk]:
    from replay.ingest.hand_checks import check_items
    from replay.ingest.names_apart import NamesApart
    from replay.ingest.session_units import in_session_units

    file = file_name(path)
    units: dict[str, Any] = {}
    closed: dict[str, bool] = {}
    carrying: set[str] = set()  # sessions whose last hand may carry chips into the next
    batches: list[Batch] = []
    errors: list[LedgerError] = []
    unit_errors: list[LedgerError] = []
    states: States = {}
    pending: list[Any] = []
    apart = NamesApart(ledger, file)  # the ledger's names, and those kept chunk by chunk

    def check() -> None:
        read = FileRead(file, pending[:])
        pending.clear()
        found, wrong = check_items(read, states=states if keep_states else None,
                                   keep=early_share)
        found, alike = apart.keep(found)
        wrong.extend(alike)
        found, more = in_session_units(ledger, read, found, [], units, closed)
        errors.extend(wrong)
        unit_errors.extend(more)
        for b in found:
            if b.is_hand and b.events and b.session is not None:
                (carrying.add if carry.may_pass_on(b.events) else carrying.discard)(b.session)
        batches.extend(found)

    for item in items:
        if isinstance(item, LedgerError):
            read_errors.append(item)
            continue
        pending.append(item)
        if len(pending) >= CHUNK_HANDS:
            check()
            if not carrying:
                yield batches, errors, states, unit_errors
                batches, errors, unit_errors, states = [], [], [], {}
    check()
    yield batches, errors, states, unit_errors
