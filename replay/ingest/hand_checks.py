"""Every hand of a read file checked with the engine, in file order: the batches and the
errors (:func:`check_items`); the same for one file without a ledger (:func:`read_batches`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ledger.formats.phh.base import PhhHand
from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model.batch import Batch
from ledger.model.errors import (
    LedgerError,
    MalformedEvent,
    MalformedInput,
    StoredFinding,
)
from replay.build import check_events, phh_fold
from replay.ingest.faults import hand_faults
from replay.ingest.registry import find_importer, formats
from replay.ingest.stacks import told_stacks


def check_items(read: FileRead, *, known: Callable[[list[str]], set[str]] | None = None,
                states: dict[str, Any] | None = None,
                keep: Callable[[list[Any], Any, Any], Any] | None = None
                ) -> tuple[list[Batch], list[LedgerError]]:
    """The batches of a read file, in file order, every hand checked with the engine, and the
    errors: the reader's, then the engine's refusals in file order (and a hand whose id or a
    seated player's name a command would refuse: ledger/model/names.py; a rake above the pot
    or one the books could not count, and one the payouts do not leave out as a
    :class:`StoredFinding` of a hand kept:
    :func:`replay.ingest.rakes.rake_finding`). ``known(keys)``: those
    source keys the ledger holds; a session entry whose session stream an earlier version
    stored whole (its ``legacy_key``, or that with ``:0``) is then left out, and a hand the
    ledger holds as an earlier version read it (its ``earlier`` key) is that reading, so it
    is found known. ``states``: gets
    each good hand's events, the engine state their check left and its settlement when the
    check made one (``engine.settle.settle(state)``, of a hand that records chips returned;
    else None), by hand id (or what ``keep(events, state, settled)`` makes of them)."""
    errors: list[LedgerError] = list(read.errors)
    warned = {e.hand for e in read.errors if isinstance(e, StoredFinding)}
    skip = _legacy_skips(read.items, known)
    held = _earlier_held(read.items, known)
    batches: list[Batch] = []
    for item in read.items:
        if isinstance(item, SessionEntry):
            if item.legacy_key not in skip:
                batches.append(Batch(f"session:{item.session}", [item.event], None,
                                     item.session, item.source_key, item.line))
            continue
        try:
            if isinstance(item, HandEvents):
                if item.earlier is not None and item.earlier[0] in held:
                    item = dataclasses.replace(item, source_key=item.earlier[0],
                                               events=item.earlier[1])
                events = item.events
                state = check_events(events, file=read.file, lines=item.lines,
                                     in_play=item.in_play)
            elif isinstance(item, PhhHand):
                events, state = phh_fold(item)
            else:
                raise MalformedInput(f"an importer gave {type(item).__name__}, not a hand")
        except LedgerError as exc:
            errors.append(exc)
            continue
        except ValidationError as exc:  # an action amount beyond MAX_CHIPS
            errors.append(invalid_value(exc).located(hand=getattr(item, "hand", None)))
            continue
        hand = events[0].hand
        found, settled = hand_faults(events, state, file=read.file,
                                     line=getattr(item, "line", None),
                                     rake_line=getattr(item, "rake_line", None),
                                     check_paid=hand not in warned,
                                     finishing=told_stacks(item),
                                     phh=isinstance(item, PhhHand))
        if found is not None:
            errors.append(found)
            if not isinstance(found, StoredFinding):  # a warning keeps the hand
                continue
        batches.append(Batch(hand, events, hand, events[0].session, item.source_key,
                             item.line, item.lines if isinstance(item, HandEvents) else None))
        if states is not None:
            states[hand] = ((events, state, settled) if keep is None
                            else keep(events, state, settled))
    return batches, errors


def _earlier_held(items: Sequence[Any], known: Callable[[list[str]], set[str]] | None
                  ) -> set[str]:
    """The keys of the hands' ``earlier`` readings (:class:`HandEvents`) the ledger holds:
    those hands are taken as the ledger holds them, as read then (a stored hand keeps
    reading as it was written), so the import finds them known."""
    keys = [i.earlier[0] for i in items if isinstance(i, HandEvents) and i.earlier]
    return known(keys) if keys and known is not None else set()


def _legacy_skips(items: Sequence[Any], known: Callable[[list[str]], set[str]] | None
                  ) -> set[str]:
    legacy = {i.legacy_key for i in items if isinstance(i, SessionEntry) and i.legacy_key}
    if not legacy or known is None:
        return set()
    seen = known([*legacy, *(f"{k}:0" for k in legacy)])
    return {k for k in legacy if k in seen or f"{k}:0" in seen}


def read_batches(path: Path, *, session: str | None = None
                 ) -> tuple[list[Batch], list[LedgerError]]:
    """The checked batches and errors of one file, without a ledger (no lookups).

    Raises:
        MalformedInput: no importer identifies the file; OSError: it cannot be read.
    """
    importer = find_importer(path)
    if importer is None:
        raise MalformedInput(f"not a hand history handledger reads ({formats()})",
                             file=str(path))
    return check_items(importer.read(path, session=session))


def invalid_value(exc: ValidationError) -> MalformedEvent:
    """The :class:`MalformedEvent` for a pydantic error raised while a reader built events
    (as :func:`ledger.model.events.parse_event` words it: the first error's place and
    message)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return MalformedEvent(f"invalid event ({where}: {first.get('msg')})")
