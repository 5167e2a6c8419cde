"""A file's batches appended in the order of its lines.

A JSON-lines export writes each row at its ledger position (README "JSON lines"), so a hand
corrected, voided or undone after later rows (a payment, a cash-out, another hand) has its
amendment after them in the file. The reader gives a hand whole, at its first line
(:func:`ledger.formats.jsonl.importer.items_of`); appended so, its amendment would be stored
before those rows, and the books the rows after it were written against (what a payer still
owes, RULES.md §1.1) would not be those the import judges them by, nor the ledger's export
the file it came from. :func:`in_file_order` cuts such a hand's rows into runs, each appended
at its place among the file's other rows, so positions follow the file's lines.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from ledger.model.batch import Batch


def in_file_order(batches: Sequence[Batch]) -> tuple[list[Batch], list[int]]:
    """``(pieces, owner)``: ``batches`` (a chunk's, in file order of their first lines) with
    each hand's rows cut where a row of another batch of the chunk comes between two of them
    in the file, the pieces ordered by their first line (a batch's own order kept), and for
    each piece the index in ``batches`` of the batch it comes from. A piece after a hand's
    first holds no source key (the hand's first piece holds it: one key per batch, which the
    store would otherwise take for a repeat) and its first row's line. A batch without a line
    for each row is left whole."""
    as_they_come = list(batches), list(range(len(batches)))
    if len(batches) < 2 or any(b.line is None for b in batches):  # nothing to place by
        return as_they_come
    starts = sorted(b.line for b in batches if b.line is not None)
    if not any(_gapped(b, starts) for b in batches):
        return as_they_come
    keyed: list[tuple[int, int, Batch, int]] = []  # (line, order, piece, owner)
    for i, b in enumerate(batches):
        for piece in _runs(b, starts) if _gapped(b, starts) else [b]:
            keyed.append((piece.line or 0, len(keyed), piece, i))
    keyed.sort(key=lambda t: (t[0], t[1]))
    return [t[2] for t in keyed], [t[3] for t in keyed]


def positions_of(written: Sequence[Sequence[int]], owner: Sequence[int], count: int
                 ) -> list[list[int]]:
    """The positions of each of ``count`` batches, its pieces' (``written``, as
    :func:`in_file_order`'s ``owner`` maps them) joined in order."""
    out: list[list[int]] = [[] for _ in range(count)]
    for positions, i in zip(written, owner, strict=True):
        out[i].extend(positions)
    return out


def _gapped(b: Batch, starts: list[int]) -> bool:
    """Whether another batch of the chunk starts between two rows of the hand ``b``."""
    lines = b.lines
    if not b.is_hand or not b.events or not lines or len(lines) != len(b.events):
        return False
    return bisect.bisect_right(starts, lines[-1]) - bisect.bisect_right(starts, lines[0]) > 0


def _runs(b: Batch, starts: list[int]) -> list[Batch]:
    """The hand ``b``'s rows cut where another batch starts between two of them."""
    assert b.events is not None and b.lines is not None
    events, lines = list(b.events), list(b.lines)
    cuts = [0]
    for k in range(1, len(lines)):
        if bisect.bisect_right(starts, lines[k]) - bisect.bisect_right(starts, lines[k - 1]):
            cuts.append(k)
    cuts.append(len(lines))
    pieces = []
    for n, (a, z) in enumerate(zip(cuts, cuts[1:], strict=False)):
        pieces.append(b if len(cuts) == 2 else b._replace(
            events=events[a:z], lines=lines[a:z], line=b.line if n == 0 else lines[a],
            source_key=b.source_key if n == 0 else None))
    return pieces
