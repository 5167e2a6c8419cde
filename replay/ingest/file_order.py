"""A file's batches appended in the order of its lines.

A JSON-lines export writes each row at its ledger position (README "JSON lines"), so a hand
corrected, voided or undone after later rows (a payment, a cash-out, another hand's) has its
amendment after them in the file, and two hands played at once have their rows interleaved.
The reader gives a hand whole, at its first line
(:func:`ledger.formats.jsonl.importer.items_of`); appended so, its later rows would be stored
before rows the file has before them: the books a row after them was written against (what a
payer still owes, RULES.md §1.1) would not be those the import judges it by, nor the new
ledger's export the file it came from. :func:`in_file_order` cuts such a hand's rows into
runs, each appended at its place among the file's other rows, so positions follow the file's
lines.
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
    first holds no source key (the hand's first piece holds it: the store takes a key met
    twice for a repeat) and its first row's line. Batches as they come when every hand's
    rows are on consecutive lines (the usual file: nothing is sorted then) or a batch has no
    line to place it by."""
    as_they_come = list(batches), list(range(len(batches)))
    apart = [i for i, b in enumerate(batches) if _spread(b)]
    if not apart or any(b.line is None for b in batches):
        return as_they_come
    lines = sorted(n for b in batches for n in _lines(b))  # every row's line
    keyed: list[tuple[int, int, Batch, int]] = []  # (line, order, piece, owner)
    spread = set(apart)
    for i, b in enumerate(batches):
        for piece in _runs(b, lines) if i in spread else [b]:
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


def _lines(b: Batch) -> Sequence[int]:
    """The file line of each row of ``b`` (its one line for a row without its own)."""
    if b.lines and b.events and len(b.lines) == len(b.events):
        return b.lines
    return [b.line] if b.line is not None else []


def _spread(b: Batch) -> bool:
    """Whether the hand ``b``'s rows are not on consecutive lines of the file."""
    lines = b.lines
    if not b.is_hand or not b.events or not lines or len(lines) != len(b.events):
        return False
    return lines[-1] - lines[0] != len(lines) - 1


def _runs(b: Batch, lines: list[int]) -> list[Batch]:
    """The hand ``b``'s rows cut where a row of another batch (``lines``: every row's line,
    sorted) comes between two of them."""
    assert b.events is not None and b.lines is not None
    events, own = list(b.events), list(b.lines)
    cuts = [0]
    for k in range(1, len(own)):  # another row between: more than its own line up to it
        if bisect.bisect_right(lines, own[k]) - bisect.bisect_right(lines, own[k - 1]) > 1:
            cuts.append(k)
    if len(cuts) == 1:
        return [b]
    cuts.append(len(own))
    return [b._replace(events=events[a:z], lines=own[a:z],
                       line=b.line if n == 0 else own[a],
                       source_key=b.source_key if n == 0 else None)
            for n, (a, z) in enumerate(zip(cuts, cuts[1:], strict=False))]
