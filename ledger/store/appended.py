"""The streams appended in the open transaction, with their tails (``Ledger._tails``).

An append continues each of its streams from the stream's stored tail, its last seq and that
row's session (:func:`ledger.store.chain.check_tail`). Looking a tail up in the ``events``
table scans the stream column of every row group: a stream name's min/max per row group
rarely rules it out, and the rows appended in the open transaction are not yet compressed.
An import appends part after part in one transaction, so it paid that scan per part over a
table growing with the import (bench/PROFILE.md "The tails of an append").

Every append path of the store (``Ledger.append``, ``append_many``, ``append_columns``) notes
here the tails it wrote, once its rows are inserted; the transaction's appended rows are then
those from :attr:`Appended.first` on, and every stream among them is in :attr:`Appended.tails`.
A tail is looked up in the table only among the rows stored before (positions below
``first``). Nothing is kept across transactions: :meth:`Appended.begin` starts empty, and an
append that fails after its insert began leaves the record unknown (:meth:`Appended.writing`)
for the rest of the transaction, whose lookups then read the whole table again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Appended:
    """The tails written by the open transaction's appends (module doc)."""

    def __init__(self) -> None:
        #: {stream: (last seq, session of that row)} of the streams appended so far
        self.tails: dict[str, tuple[int, str | None]] = {}
        #: the position of the transaction's first appended row (None: nothing appended yet)
        self.first: int | None = None
        #: False outside a transaction, or after an append failed part way: not to be used
        self.known = False

    def begin(self) -> None:
        """An outer transaction begins: nothing appended in it yet."""
        self.tails, self.first, self.known = {}, None, True

    def end(self) -> None:
        """The outer transaction committed or rolled back: nothing known."""
        self.tails, self.first, self.known = {}, None, False

    @contextmanager
    def writing(self, first_position: int) -> Iterator[dict[str, tuple[int, str | None]]]:
        """Around one append's insert of rows from ``first_position`` on: yields the dict
        where the append puts its streams' new tails, taken into the record when the block
        ends without an error. An error inside leaves the record unknown until the
        transaction ends (rows may be in the table that it does not list)."""
        known, self.known = self.known, False
        written: dict[str, tuple[int, str | None]] = {}
        yield written
        if known:
            self.tails.update(written)
            if self.first is None:
                self.first = first_position
            self.known = True
