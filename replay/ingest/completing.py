"""Completing a hand that an earlier, shorter export cut off (a PokerNow log, FORMATS.md §2).

A log exported mid-hand is imported with that hand ``incomplete`` (``hand_ended`` with status
``incomplete``: every chip goes back, the audit names it). When a longer export of the same
game comes, its copy of the hand goes on where the stored one stops. History is not rewritten:
the stored events stay and a ``correction`` is appended to the hand's stream that replaces the
``incomplete`` ending with the rest of the hand (RULES.md's correction model, as ``handledger
correct`` writes it). It is done only when the stored hand has no correction yet, is cut
(``incomplete``), and its events are, one for one, the start of the longer copy, which is
complete (provenance aside: file and line differ between exports), but for what the cut copy
could not know and the longer one tells, which the correction replaces too: the exporter's
hole cards (``??`` until a later show proves whose ``Your hand is`` lines they are), and the
blinds of a copy cut before they were all posted (PokerNow logs a hand's start, seats and
posts as lines of their own, FORMATS.md §2, and its ``hand_started`` counts the blinds and
antes its posts show: :func:`replay.ingest.cut_posts.posts_lacked`), whose stakes the
correction replaces and whose posts it inserts after those it has. When the
stored copy has a correction or a void, or the file's copy is cut too, the hand stays as it
is and counts as already in the ledger; when the two copies disagree otherwise,
:func:`disagreement` says where (the import refuses the file). A hand the earlier export
stored complete but before the shows PokerNow logs after its ending line gets them the same
way (:func:`late_shows`); an earlier export met after the longer one adds nothing
(:func:`earlier_cut`). A JSON-lines export whose stream goes on past the stored one, row for
row, adds the rows it has more (:func:`continuation`): the events of a hand in play, or the
amendments another ledger made to a hand that is over here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.model import events as ev
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.events import event_json
from ledger.store.streams import cut_hands
from replay.ingest.cut_posts import facts as _facts
from replay.ingest.cut_posts import from_pokernow as _pokernow
from replay.ingest.cut_posts import posts_lacked as _posts_lacked
from replay.ingest.cut_posts import set_aside

__all__ = ["AMENDED", "BY", "amends", "completes", "completion", "continuation", "cut_hands",
           "disagreement", "earlier_cut", "in_play", "late_shows", "same_row", "unstored_row",
           "writes"]

BY = "import"
#: What the source key of a batch :func:`completion` or :func:`late_shows` makes ends with.
_COMPLETED, _SHOWN = ":completed", ":shown"
#: What the source key of a batch :func:`continuation` makes for a stored hand that is over
#: (its amendments made in another ledger) holds before the seq it starts at.
AMENDED = ":amended:from:"


def completes(batch: Batch) -> bool:
    """Whether ``batch`` is the correction :func:`completion` or :func:`late_shows` made (a
    stored hand completed), not the rows :func:`continuation` adds to a hand in play, which
    may begin with a correction too (an ``undo``)."""
    return bool(batch.events) and (batch.source_key or "").endswith((_COMPLETED, _SHOWN))


def completion(ledger: Any, batch: Batch, source: str) -> Batch | None:
    """The batch that completes the stored, cut copy of ``batch``'s hand with the longer copy
    in ``batch`` (``source``: the file it comes from), or None when there is nothing to
    complete (see the module doc).

    Raises:
        IllegalAction: the completed hand is not legal (it was checked as a whole already, so
            this would mean the two copies disagree).
    """
    from replay.corrected_hand import check_replays

    stream, events, hand, session, key = batch[:5]
    rows = ledger.read(hand)
    stored = [r.event for r in rows]
    if not _completable(stored, events):
        return None
    n = len(stored)
    lacked = _posts_lacked(stored[:-1], events)
    posts: list[Any] = []
    if lacked is not None:  # cut before its blinds were all posted: those it lacks go in
        at, posts = lacked
        events = set_aside(events, lacked)
    known = _known_later(stored[:-1], events, lacked is not None) if len(events) >= n else ""
    if isinstance(known, str):
        return None
    changes = [ev.Change(op="replace", seq=i + 1, event=events[i].model_dump(mode="json"))
               for i in known]
    if posts:
        changes += [ev.Change(op="insert_after", seq=at, event=e.model_dump(mode="json"))
                    for e in posts]
    changes.append(ev.Change(op="replace", seq=n, event=events[n - 1].model_dump(mode="json")))
    changes += [ev.Change(op="insert_after", seq=n, event=e.model_dump(mode="json"))
                for e in events[n:]]
    correction = ev.Correction(
        changes=changes, positions=[rows[-1].position], by=BY,
        reason=f"completed from a longer export ({source}): the stored copy was cut off")
    check_replays([*stored, correction])
    return Batch(stream, [correction], hand, session, f"{key}{_COMPLETED}", batch.line)


def late_shows(ledger: Any, batch: Batch, source: str) -> Batch | None:
    """The batch that adds to the stored hand of ``batch`` the shows logged after its
    ``-- ending hand --`` line (FORMATS.md §2), which an earlier export, taken before them,
    did not have: a correction inserting them before its end, as the whole log stores them
    (and the exporter's cards, ``??`` in the stored copy, when the longer log proves them).
    Only when the stored hand, uncorrected and complete, is the copy in ``batch`` but for those
    shows; None otherwise.

    Raises:
        IllegalAction: the hand with the shows is not legal (it was checked as a whole
            already).
    """
    from replay.corrected_hand import check_replays

    stream, events, hand, session, key = batch[:5]
    if not _pokernow(events):
        return None
    rows = ledger.read(hand)
    stored = [r.event for r in rows]
    if any(e.type in ("correction", "hand_voided") for e in stored):
        return None
    known = _without_late_shows(stored, events)
    if known is None:
        return None
    n = len(stored)  # its hand_ended: the shows go before it
    changes = [ev.Change(op="replace", seq=i + 1, event=events[i].model_dump(mode="json"))
               for i in known]
    changes += [ev.Change(op="insert_after", seq=n - 1, event=e.model_dump(mode="json"))
                for e in events[n - 1:-1]]
    correction = ev.Correction(
        changes=changes, positions=[rows[-1].position], by=BY,
        reason=f"completed from a longer export ({source}): the shows logged after the "
               "hand's end were not in the stored copy")
    check_replays([*stored, correction])
    return Batch(stream, [correction], hand, session, f"{key}{_SHOWN}", batch.line)


def _without_late_shows(short: list[Any], long: list[Any]) -> list[int] | None:
    """The indexes of the events of ``short`` that ``long`` tells the cards of (see
    :func:`_known_later`) when ``short`` is ``long`` without some shows (``reveal``) just
    before its end, both ending complete; None otherwise."""
    n = len(short)
    if not (len(long) > n > 1 and short[-1].type == long[-1].type == "hand_ended"
            and short[-1].status == long[-1].status == "complete"
            and all(e.type == "reveal" for e in long[n - 1:-1])):
        return None
    known = _known_later(short[:-1], long)
    return None if isinstance(known, str) else known


def disagreement(ledger: Any, batch: Batch) -> str | None:
    """Where the stored, cut copy of ``batch``'s hand and the longer, complete copy in
    ``batch`` disagree (``its event 5 is … here, … in the ledger``), which
    :func:`completion` cannot settle; None when they agree, or when there is nothing to
    complete (a stored copy corrected or voided, or ``batch``'s copy cut too)."""
    stored = [r.event for r in ledger.read(batch.hand_id)]
    if not _completable(stored, batch.events):
        return None
    events, lacked = batch.events, _posts_lacked(stored[:-1], batch.events)
    if lacked is not None:
        events = set_aside(events, lacked)
    if len(events) < len(stored):  # no more than the cut copy once its posts are put aside
        return ("it has no more events than the ledger's cut copy once the posts that copy "
                "lacks are set aside")
    known = _known_later(stored[:-1], events, lacked is not None)
    return known if isinstance(known, str) else None


def earlier_cut(ledger: Any, batch: Batch) -> bool:
    """Whether ``batch`` holds a cut copy of a hand the ledger holds further on: an earlier
    export of the log, met after a longer one. So it is when its events but its ending
    (``incomplete``) are, one for one, the start of the stored hand's (as its corrections
    make it: a hand completed from a longer export), or its events are the stored hand's
    without the shows logged after its end (:func:`late_shows`), but for cards it did not
    know (``??``)."""
    from replay.fold import effective_events

    events = batch.events
    if not events or events[-1].type != "hand_ended" or not _pokernow(events):
        return False
    stored, _ = effective_events([r.event for r in ledger.read(batch.hand_id)])
    if events[-1].status != "incomplete":  # the hand without the shows logged after its end
        return _without_late_shows(events, stored) is not None
    cut = events[:-1]
    if len(stored) <= len(cut) or stored[-1].type == "hand_voided":
        return False
    lacked = _posts_lacked(cut, stored)
    if lacked is not None:  # cut before its blinds were all posted
        stored = set_aside(stored, lacked)
        if len(stored) <= len(cut):
            return False
    return (lacked is not None or _facts(cut[0]) == _facts(stored[0])) and all(
        event_json(mine) == event_json(theirs) or _cards_told(mine, theirs)
        for mine, theirs in zip(cut[1:], stored[1:], strict=False))


def _completable(stored: list[Any], events: list[Any]) -> bool:
    """Whether ``stored`` (a hand's rows) is a cut copy, uncorrected, and ``events`` a complete
    copy as long at least."""
    if any(e.type in ("correction", "hand_voided") for e in stored):
        return False
    last, end = events[-1], stored[-1]
    if last.type == "hand_ended" and last.status == "incomplete":
        return False  # this copy is cut too
    return (end.type == "hand_ended" and end.status == "incomplete"
            and len(events) >= len(stored))


def _known_later(cut: list[Any], events: list[Any], posts: bool = False) -> list[int] | str:
    """The indexes of the events of ``cut`` (a stored copy without its ending) that the longer
    copy ``events`` tells more of (see the module doc), or where the two disagree, as
    :func:`replay.ingest.stored_copy.first_difference` words it. ``posts``: ``cut`` was cut
    before its blinds were all posted (:func:`replay.ingest.cut_posts.posts_lacked`: ``events``
    without the posts it lacks), so its ``hand_started`` is told too (its stakes)."""
    out = []
    for i, mine in enumerate(cut):
        theirs = events[i]
        if i == 0 and posts:
            out.append(0)
            continue
        if (_facts(mine) == _facts(theirs) if i == 0 else
                event_json(mine) == event_json(theirs)):
            continue
        if i > 0 and _pokernow(events) and _cards_told(mine, theirs):
            out.append(i)
            continue
        if i == 0:  # the fields that differ, not the start of a long event
            here, there = _differing(_fields(theirs), _fields(mine))
            return (f"its hand_started differs: {_short(here)} here, {_short(there)} in the "
                    "ledger")
        return (f"its event {i + 1} is {_short(_fields(theirs))} here, "
                f"{_short(_fields(mine))} in the ledger")
    return out


def _differing(a: dict[str, Any], b: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields of ``a`` and ``b`` that differ (of a field both hold as an object, the
    fields of it that differ)."""
    here, there = {}, {}
    for k in a.keys() | b.keys():
        x, y = a.get(k), b.get(k)
        if x == y:
            continue
        if isinstance(x, dict) and isinstance(y, dict):
            x, y = _differing(x, y)
        here[k], there[k] = x, y
    return dict(sorted(here.items())), dict(sorted(there.items()))


def _fields(event: Any) -> dict[str, Any]:
    """``event``'s fields as JSON values, without its provenance and schema version."""
    return event.model_dump(mode="json", exclude={"source", "schema_version"})


def _short(fields: dict[str, Any], width: int = 80) -> str:
    """``fields`` as compact JSON, cut to ``width`` characters."""
    import json

    text = json.dumps(fields, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= width else text[:width - 1] + "…"


def _cards_told(cut: Any, whole: Any) -> bool:
    """Whether ``cut`` is ``whole`` (both ``cards_dealt``) but for cards unknown (``??``) in
    it: the exporter's, before the longer log proved whose they are."""
    if cut.type != "cards_dealt" or whole.type != "cards_dealt" or len(cut.cards) != len(
            whole.cards):
        return False
    told = cut.model_copy(update={"cards": whole.cards})
    return event_json(told) == event_json(whole) and all(
        a in ("??", b) for a, b in zip(cut.cards, whole.cards, strict=True))


def continuation(ledger: Any, batch: Batch) -> Batch | None:
    """A stored hand met again in a later copy whose stream goes on past the stored one: the
    batch of the rows the later copy has beyond the stored ones, appended as they stand.
    For a hand the ledger holds in play (imported from an export taken while it was played,
    :mod:`ledger.formats.jsonl.lines`) they are the events ``act`` would have appended; for
    one that is over (ended or voided) they begin with an amendment another ledger made to
    it after importing it (a ``correction``, ``undo`` or void, each with its own ``by``,
    ``reason`` and signature), its source key marked :data:`AMENDED` (:func:`amends`).
    ``batch`` with no events (known: nothing to write) when the copy in the file is the
    stored hand's start, itself in play (an earlier export); None otherwise (the copies
    differ, or the file copy is an earlier one of a hand that is over). The streams are
    compared as stored, row for row, corrections and voids among them (an ``undo``, a void
    taken back), provenance aside: the stored rows must be the file copy's start (in the
    same session), or the file copy the start of the stored rows, itself in play.
    """
    stream, events, hand, session, key = batch[:5]
    rows = ledger.read(hand)
    stored = [r.event for r in rows]
    n = min(len(stored), len(events))
    mine = _facts(events[0])
    if rows[0].session != session or (mine != _facts(stored[0]) and mine != _facts(
            _as_session_says(ledger, stored[0]))) or not all(
            same_row(here, there) for here, there in zip(events[1:n], stored[1:n], strict=True)):
        return None
    if len(events) <= len(stored):  # an earlier copy, taken while the hand was played
        return batch.with_events(None) if in_play(events) else None
    mark = ":from:" if in_play(stored) else AMENDED
    lines = batch.lines[n:] if batch.lines is not None and len(batch.lines) == len(events) \
        else None  # each row's file line, which a refusal of the rows names
    return Batch(stream, list(events[n:]), hand, session, f"{key}{mark}{n + 1}", batch.line,
                 lines)


def _as_session_says(ledger: Any, started: Any) -> Any:
    """The stored ``hand_started`` ``started`` in its session's chip when an earlier
    conversion wrote its unit as whole dollars for a chip of a cent
    (:func:`replay.ingest.units.as_chip_says`), or its unit names no currency (a hand played
    live in a session whose chip is money), as its export alone now writes it
    (:func:`replay.ingest.export.export_chunks`)."""
    from replay.ingest.export import session_chip
    from replay.ingest.units import as_chip_says

    if started.session is None:
        return started
    chip = session_chip(ledger, started.session)
    if started.unit.currency is None:
        return started if chip is None else started.model_copy(update={"unit": chip})
    return as_chip_says(started, chip)


def writes(batch: Batch) -> str:
    """What ``batch``, made here for a hand the ledger holds, writes into it, in words
    (``complete the hand, which the ledger holds cut off where an earlier export stopped``):
    the batch of :func:`completion`, :func:`late_shows` or :func:`continuation`."""
    key = batch.source_key or ""
    if key.endswith(_COMPLETED):
        return "complete the hand, which the ledger holds cut off where an earlier export stopped"
    if key.endswith(_SHOWN):
        return "add to the hand the shows logged after its end"
    if AMENDED in key:
        return "append to the hand the corrections and voids another ledger made to it"
    return "go on with the hand, which the ledger holds in play"


def amends(batch: Batch) -> bool:
    """Whether ``batch`` holds the amendments :func:`continuation` appends to a stored hand
    that is over (not a hand added, nor one in play going on)."""
    return bool(batch.events) and AMENDED in (batch.source_key or "")


def unstored_row(ledger: Any, batch: Batch) -> tuple[int, Any, Any] | None:
    """The first row of ``batch``'s copy of a stored hand that the stored stream does not
    hold, compared as :func:`continuation` compares them (row for row, corrections and voids
    among them, provenance aside): ``(its seq, the file's event, the stored event there or
    None)``; None when the file copy is the start of the stored stream or the whole of it
    (nothing more to add)."""
    stored = [r.event for r in ledger.read(batch.hand_id)]
    events = batch.events or []
    for seq, here in enumerate(events[1:], 2):
        there = stored[seq - 1] if seq <= len(stored) else None
        if there is None or not same_row(here, there):
            return seq, here, there
    return None


def same_row(here: Any, there: Any) -> bool:
    """Whether the file's event ``here`` is the stored row ``there`` as :func:`continuation`
    compares a stream's rows: the same JSON, or the same cards dealt where one of the two
    says no ``face_up`` flags (a hand read from PHH, which writes none: a card is up or down
    as its game deals it, :mod:`replay.ingest.phh_form`) and the other the game's flags."""
    if event_json(here) == event_json(there):
        return True
    return (here.type == there.type == "cards_dealt" and not (here.face_up and there.face_up)
            and here.model_copy(update={"face_up": []}) == there.model_copy(
                update={"face_up": []}))


def in_play(events: Sequence[Any]) -> bool:
    """Whether the hand stream ``events`` (as stored: ``hand_started`` first, corrections and
    voids among its rows) is still being played: corrections applied, no ``hand_ended`` in
    force and not voided (RULES.md §1; an ``undo`` of the end or of the void plays on). A
    stream the rules refuse is not."""
    from replay.fold import fold_stream

    try:
        return fold_stream(events)[0].status == "open"
    except LedgerError:
        return False
