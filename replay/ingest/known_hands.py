"""Hands of a file that the ledger holds already: skipped, completed or refused.

A hand whose id the ledger stores (imported from another file, or an earlier export of the
same game) is skipped when it is the same hand, completed when the stored copy was cut off
(:mod:`replay.ingest.completing`), and refused otherwise; an id-less
PHH hand that stands where a stored hand of another id stood is refused
(:mod:`replay.ingest.samedeal`). How a copy is compared with the stored hand is
:mod:`replay.ingest.stored_copy`. Used by :class:`replay.ingest.writing.FileWriter`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError, StoredFinding
from ledger.model.events import event_json
from ledger.model.shell import shell_arg
from replay.ingest import completing, phh_form
from replay.ingest.closed import refuse_amending
from replay.ingest.differences import Difference, plain, short
from replay.ingest.keyed import hands_keyed
from replay.ingest.stored_copy import (
    LATER,
    STARTS_OTHERWISE,
    as_corrected,
    as_the_file_corrects,
    first_difference,
    in_stored_chips,
    line_of,
    original_rows,
    same_start_in_session,
    start_difference,
    start_in_force_difference,
)


def _first_rows(ledger: Any, hands: list[str], upto: int
                ) -> dict[str, tuple[str, str | None, str | None]]:
    """``{hand: (its first event's stored JSON, its source key, its session)}`` for those of
    ``hands`` whose first row is at or before ``upto`` (none when ``upto`` is 0: a new
    ledger)."""
    if not hands or not upto:
        return {}
    rows = ledger.query(
        "SELECT hand_id, CAST(payload AS VARCHAR), source_key, session FROM events"
        " WHERE seq = 1 AND position <= ? AND hand_id IN (SELECT UNNEST(?))", [upto, hands])
    return {hand: (payload, key, session) for hand, payload, key, session in rows}


def stored_outside(ledger: Any, skipped: list[Batch]) -> int:
    """How many of the hand batches ``skipped`` (their source key already stored) are stored
    under no session or another than the one the import puts them in."""
    into = {b.source_key: b.session for b in skipped
            if b.session is not None and b.source_key is not None}
    if not into:
        return 0
    held = hands_keyed(ledger, into)
    return sum(1 for key, (_, session) in held.items() if session != into[key])


def voided_among(ledger: Any, hands: Iterable[str]) -> int:
    """How many of the stored ``hands`` are voided (:func:`voided_of`)."""
    return len(voided_of(ledger, hands))


def voided_of(ledger: Any, hands: Iterable[str]) -> set[str]:
    """Those of the stored ``hands`` that are voided (their streams as folded, corrections
    and undos applied: an undone void is not one). Only a hand with a ``hand_voided`` row
    is folded."""
    from ledger.store.streams import load_hand
    from replay.fold import fold_stream

    hands = list(hands)
    if not hands:
        return set()
    rows = ledger.query("SELECT DISTINCT hand_id FROM events WHERE type = 'hand_voided'"
                        " AND hand_id IN (SELECT UNNEST(?))", [hands])
    return {hand for hand, in rows
            if fold_stream(load_hand(ledger, hand)[0])[0].status == "voided"}


def stored_elsewhere(ledger: Any, batches: Sequence[Batch], books: Sequence[str], *,
                     upto: int) -> list[LedgerError]:
    """The refusal of a file that carries the book of the sessions ``books`` (their session
    rows) when a hand of ``batches`` it puts in one of them is known (the ledger holds it,
    stored at or before ``upto``: nothing left to write) under another session or none: a
    hand stays in the session it was stored in, so that book would count buy-ins and
    cash-outs of chips played elsewhere (the same night imported again under another name,
    billed twice by ``settle``). One error for the file at the first such hand's line,
    naming it, both sessions and how many more there are; none when there is no such hand.
    """
    into = {b.hand_id: b for b in batches if b.is_hand and b.events is None
            and b.hand_id is not None and b.session in books}
    stored = _first_rows(ledger, list(into), upto)
    apart = [(into[hand], row[2]) for hand, row in stored.items() if row[2] != into[hand].session]
    if not apart:
        return []
    apart.sort(key=lambda pair: pair[0].line or 0)
    first, where = apart[0]
    held = f"in session {where}" if where is not None else "outside any session"
    more = (f" (and {len(apart) - 1} more of the file's hands the ledger holds outside "
            f"session {first.session})") if len(apart) > 1 else ""
    return [LedgerError(
        f"hand {first.hand_id} is in the ledger already, {held}, and this file puts it in "
        f"session {first.session}{more}: a hand stays in the session it was stored in, so the "
        f"book of {first.session} would count chips played {held} (is it that night again "
        "under another name?)", line=first.line)]


def known_in_play(ledger: Any, batches: Sequence[Batch], errors: Sequence[LedgerError],
                   dealt: dict[str, str]) -> set[str | None]:
    """The hands of ``batches`` found known (no events left to write) that ``errors`` hold a
    :class:`StoredFinding` of and the ledger holds in play (a PHH copy taken while the hand
    was played: :func:`replay.ingest.phh_form.copy_of_hand_in_play`): no warning, since
    what it paid so far is no finding until the hand ends (README, Net). ``dealt``: ``{id of
    a copy known by its deal: the stored hand's id}`` (:mod:`replay.ingest.samedeal`), the
    stream read for such a copy."""
    warned = {e.hand for e in errors if isinstance(e, StoredFinding)}
    if not warned:
        return set()
    return {b.hand_id for b in batches if b.is_hand and b.events is None
            and b.hand_id in warned
            and completing.in_play([r.event for r in ledger.read(
                dealt.get(b.hand_id, b.hand_id))])}  # type: ignore[arg-type]


def drop_known_hands(ledger: Any, batches: list[Batch], source: str = "", *, upto: int,
                      closed: bool = False, carried: bool = False
                      ) -> tuple[list[Batch], list[LedgerError], int]:
    """A hand already in the ledger (same hand id, imported from another file: stored at or
    before ``upto``) is skipped when it comes from the same source (same source key: a longer
    export of the same game) or has the same original events (:func:`first_difference`), and
    refused otherwise, naming the first event that differs: a stream is never appended twice,
    and a change to a stored hand is a correction. A stored hand that was cut off is
    completed by a longer copy with a correction (a longer copy that disagrees with it is
    refused, naming the first event that differs), a cut copy of a stored hand that goes
    further is known (an earlier export), one stored in play goes on with the events a
    longer copy adds, and one that is over gets the amendments (corrections, voids, undos)
    another ledger made to it that a longer copy holds (:mod:`replay.ingest.completing`;
    amendments that part from the stored ones are refused). Any of that in a hand of a
    closed session refuses the file unless ``closed`` (:func:`replay.ingest.closed.
    refuse_amending`). ``carried``: the batches' source keys may be carried by the file
    beside its events (JSON lines, :mod:`ledger.formats.jsonl.lines`), so such a key proves
    nothing of the events: only one made from them (``jsonl:``) spares comparing them
    (:func:`_trusted`). Also
    returns how many of the hands skipped stay outside the session the import puts them in
    (stored under none, or another: a hand's session is never rewritten).

    Raises:
        LedgerError: see :func:`replay.ingest.closed.refuse_amending`.
    """
    stored = _first_rows(ledger, [b.hand_id for b in batches if b.is_hand], upto)
    if not stored:
        return batches, [], 0
    cut = completing.cut_hands(ledger, list(stored))
    whole = original_rows(ledger, [
        b.hand_id for b in batches if b.hand_id in stored and b.hand_id not in cut
        and b.events is not None and not _trusted(b, stored[b.hand_id], carried)], upto)
    out, clashes = [], []
    outside = 0
    for b in batches:
        hand = b.hand_id
        if hand is None or hand not in stored:
            out.append(b)
            continue
        if b.events is None:  # found known already (in another chip: in_session_units)
            out.append(b)
            outside += b.session is not None and stored[hand][2] != b.session
            continue
        assert b.events is not None
        got = _another_export(ledger, b, source, hand in cut)
        if got is None:
            got = _compared(ledger, b, stored[hand], whole, source, carried)
        if isinstance(got, LedgerError):
            clashes.append(got)
            continue
        if got.events and not closed:  # rows appended to a stored hand
            refuse_amending(ledger, got, stored[hand][2])
        out.append(got)
        if got.events is None or completing.completes(got):  # known, or completed
            outside += b.session is not None and stored[hand][2] != b.session
    return out, clashes, outside


def _another_export(ledger: Any, b: Batch, source: str, cut: bool
                    ) -> Batch | LedgerError | None:
    """What the copy in ``b`` of a stored hand is when it comes from a longer export of the
    log than the stored copy ``cut`` off (:mod:`replay.ingest.completing`): the correction
    that completes it, or the refusal of a copy that disagrees with it; None: neither
    (compared as any copy)."""
    if not cut:
        return None
    done = completing.completion(ledger, b, source)
    if done is not None:
        return done
    if (why := completing.disagreement(ledger, b)) is not None:
        return LedgerError(
            "the ledger holds this hand cut off where an earlier export stopped, and this "
            f"copy, which goes on, disagrees with it: {why}", hand=b.hand_id, line=b.line)
    return None


def _compared(ledger: Any, b: Batch, stored: tuple[str, str | None, str | None],
              whole: dict[str, list[tuple[int, str]]], source: str, carried: bool = False
              ) -> Batch | LedgerError:
    """The copy in ``b`` of a stored hand (its first row, key and session ``stored``; its
    original rows in ``whole`` unless cut or trusted) as :func:`drop_known_hands` takes it:
    known (``b`` with no events; also an earlier export's cut copy met after a longer one),
    the shows an earlier export did not have, the events a stored hand in play goes on
    with (its streams compared as stored, an undo or a void among the rows), or a refusal
    naming the first event that differs (with either copy in play, by its seq in the
    stream as stored: :func:`_stream_difference`). ``carried``: as
    :func:`drop_known_hands`."""
    assert b.events is not None and b.hand_id is not None
    hand = b.hand_id
    phh = phh_form.read_from_phh(b, carried)
    mine = b.events
    trusted = _trusted(b, stored, carried)
    if not trusted and not same_start_in_session(ledger, mine[0], stored):
        mine = in_stored_chips(mine, stored[0]) or mine  # a copy in another session's chips
    differ = None if trusted else (
        STARTS_OTHERWISE if not same_start_in_session(ledger, mine[0], stored)
        else first_difference(mine, whole[hand], phh=phh) if hand in whole else None)
    if mine is not b.events and differ is not None and differ.event is not None:
        at = next((i for i, e in enumerate(mine) if e is differ.event or e == differ.event),
                  None)  # the file's event at its place, whose line the refusal names
        differ = differ._replace(event=None if at is None else b.events[at])
    # the file's corrections make the stored hand (its PHH export imported): known
    made, differ = as_the_file_corrects(ledger, b.events, hand, differ, phh=phh, held=stored)
    if made or (differ is not None  # in the stored chips, its start compared as corrected
                and as_corrected(ledger, mine, hand, phh=phh, held=stored)) or (
            differ is STARTS_OTHERWISE and completing.earlier_cut(ledger, b)):
        # the hand as its corrections made it (a PHH export applies them), or an earlier
        # export's copy cut before its blinds, met after a longer one: its start lacks them
        differ = None
    if differ is None:
        if not made and any(e.type in LATER for e in b.events):  # original events the same
            return _with_amendments(ledger, b, phh=phh, held=stored)
        return b.with_events(None)  # known: counted, not written
    if differ is STARTS_OTHERWISE:
        differ = start_in_force_difference(ledger, b.events[0], stored[0], hand)
    else:
        if phh and completing.in_play(rows := [r.event for r in ledger.read(hand)]):
            return phh_form.copy_of_hand_in_play(b, rows)  # its end is PHH's, not the table's
        if completing.earlier_cut(ledger, b):  # an earlier export, after a longer one
            return b.with_events(None)
        more = (completing.late_shows(ledger, b, source)  # cut before its late shows
                or completing.continuation(ledger, b))  # a stored hand in play
        if more is not None:
            return more
        differ = (_stream_difference(ledger, b)
                  or _corrected_difference(ledger, b, mine, hand, phh=phh, held=stored)
                  or differ)
    from replay.ingest.old_units import live_hint

    return LedgerError(
        f"a different hand {hand} is already in the ledger: {differ.text}; "
        + (live_hint(b.events[0], stored[0])  # an old export's copy: what to do
           or f"a change to a stored hand is a correction (`handledger correct {shell_arg(hand)} "
              "...`)"),
        hand=hand, line=line_of(b, differ.event))


def _corrected_difference(ledger: Any, b: Batch, mine: Sequence[Any], hand: str, *,
                          phh: bool, held: tuple[str, str | None, str | None]
                          ) -> Difference | None:
    """How the copy in ``b`` (``mine``: its events in the stored chips), which carries no
    correction of its own, differs from the stored hand ``hand`` as its corrections (an
    ``undo`` among them) make it (README, "Formats"): its start first, then its events
    (:func:`first_difference`, ``phh`` as there; an event named by its seq in the stream,
    the file's own event kept for the line), and where only the payouts differ, the chips
    paid each player, in seat order (``as its corrections make it, the table paid
    otherwise: Bob 3 here, 0 in the ledger, Ann 1 here, 4 in the ledger``). A hand no
    correction in force changes is named so too where only the payouts differ, in the same
    words without "as its corrections make it" (``the table paid otherwise: …``, the line of
    the copy's first payout that differs), never by a raw row. None when the copy has
    corrections (:func:`as_the_file_corrects` compared it), no correction in force changes
    the ledger's hand and its payouts are not all that differ, or its corrections do not
    fold."""
    from replay.amendments import numbered_events

    if any(e.type == "correction" for e in b.events or []):
        return None
    rows = [r.event for r in ledger.read(hand)]
    try:
        numbered = [n for n in numbered_events(rows)[0] if n.event.type not in LATER]
    except LedgerError:
        return None
    theirs = [n.event for n in numbered]
    if [event_json(e) for e in theirs] == [event_json(e) for e in rows if e.type not in LATER]:
        paid = _paid_otherwise(mine, numbered, phh)  # uncorrected: its payouts named alike
        return None if paid is None else _at_the_file_event(Difference(*paid), b, mine)
    start = event_json(theirs[0])
    if not same_start_in_session(ledger, mine[0], (start, held[1], held[2])):
        found: Difference | None = start_difference(mine[0], start)
    else:
        found = first_difference(mine, [(n.seq, event_json(n.event)) for n in numbered],
                                 phh=phh)
        if found is not None and (paid := _paid_otherwise(mine, numbered, phh)) is not None:
            found = Difference(*paid)
    if found is None:
        return None
    found = _at_the_file_event(found, b, mine)
    return found._replace(text=f"as its corrections make it, {found.text}")


def _at_the_file_event(found: Difference, b: Batch, mine: Sequence[Any]) -> Difference:
    """``found`` about the file's own event of ``b`` (whose line a refusal names) where it is
    about one of ``mine``, its events converted to the stored chips."""
    if found.event is not None and b.events is not None and mine is not b.events:
        at = next((i for i, e in enumerate(mine) if e is found.event), None)
        found = found._replace(event=None if at is None else b.events[at])
    return found


_PAID = "recorded_payout"


def _paid_otherwise(mine: Sequence[Any], numbered: Sequence[Any], phh: bool
                    ) -> tuple[str, Any] | None:
    """``"the table paid otherwise: Bob 3 here, 0 in the ledger, …"`` when the hand ``mine``
    and the stored one (``numbered``: its events with their seqs, as corrected) differ in
    their payouts only (the other events the same, :func:`first_difference`) and pay some
    player other chips (RULES.md §1.2: the chips each player was paid), the players in seat
    order, with the first payout of ``mine`` to such a player (or None: its line is named);
    else None."""
    def paid(events: Sequence[Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in events:
            if e.type == _PAID:
                out[e.player] = out.get(e.player, 0) + e.amount
        return out

    here, there = paid(mine), paid([n.event for n in numbered])
    if here == there or first_difference(
            [e for e in mine if e.type != _PAID],
            [(n.seq, event_json(n.event)) for n in numbered if n.event.type != _PAID],
            phh=phh) is not None:
        return None
    seats = [s.player for s in mine[0].seats]
    players = [*seats, *sorted((set(here) | set(there)) - set(seats))]
    apart = [p for p in players if here.get(p, 0) != there.get(p, 0)]
    told = ", ".join(f"{p} {here.get(p, 0)} here, {there.get(p, 0)} in the ledger"
                     for p in apart)
    first = next((e for e in mine if e.type == _PAID and e.player in apart), None)
    return f"the table paid otherwise: {told}", first


def _with_amendments(ledger: Any, b: Batch, *, phh: bool,
                     held: tuple[str, str | None, str | None]) -> Batch | LedgerError:
    """The copy in ``b`` of a stored hand whose original events are the stored ones and
    which carries amendments: the rows the ledger has not (:func:`completing.continuation`),
    known (``b`` with no events: the ledger holds them, or the hand they make,
    :func:`_as_amendments_make_it`), or refused naming the first row or, as its corrections
    make it, the chips that differ (:func:`_unstored_amendment`)."""
    more = completing.continuation(ledger, b)  # amendments the ledger has not
    if more is not None:
        return more if more.events else b.with_events(None)
    made_so = _as_amendments_make_it(ledger, b, phh=phh, held=held)
    if made_so is not None and (row := completing.unstored_row(ledger, b)) is not None:
        return _unstored_amendment(ledger, b, row, made_so)
    return b.with_events(None)


def _as_amendments_make_it(ledger: Any, b: Batch, *, phh: bool,
                           held: tuple[str, str | None, str | None]) -> Difference | bool | None:
    """How the copy in ``b`` of a stored hand that has no amendment of its own (its original
    events the stored ones, its amendments not to be appended row for row: the stored hand
    read from its PHH export, whose rows are PHH's) differs, as its own corrections make it,
    from the hand the ledger holds (:func:`as_the_file_corrects`): a :class:`Difference`
    (``as its corrections make it, the table paid otherwise: …``), False when the ledger's
    hand has amendments or the copy's corrections do not fold, None when it is the same
    hand. The JSON-lines export
    of a hand whose correction was undone is already in a ledger built from its PHH export
    (docs/IMPORTING.md, "A session's chips in a PHH export": PHH holds the hand as its
    corrections made it, without their history), as a corrected hand's is; its corrections
    are not appended (they name the seqs of the rows of the ledger they were made in, which
    PHH's shape need not keep: one payout a player, the forced bets in PHH's order)."""
    assert b.hand_id is not None
    if any(r.event.type in LATER for r in ledger.read(b.hand_id)):
        return False
    unfolded = Difference("")
    made, found = as_the_file_corrects(ledger, b.events or [], b.hand_id, unfolded,
                                       phh=phh, held=held)
    return None if made else (False if found is unfolded else found)


def _unstored_amendment(ledger: Any, b: Batch, row: tuple[int, Any, Any],
                        made_so: Difference | bool = False) -> LedgerError:
    """The refusal of a copy of a stored hand whose original events are the stored ones but
    whose amendments (corrections, voids) the ledger cannot append: they part from the
    stored stream's, or the hand is stored in another session than the file puts it in
    (``row``: :func:`replay.ingest.completing.unstored_row`). ``made_so``: how the copy as
    its corrections make it differs from the ledger's unamended hand
    (:func:`_as_amendments_make_it`), said instead of the row (whose stored row may be
    another shape of the same event: PHH's one payout a player)."""
    seq, here, there = row
    stored = ledger.read(b.hand_id)[0].session
    where = "" if stored == b.session else (
        f" (the ledger holds it in session {stored or 'none'}, this file in "
        f"{b.session or 'none'})")
    told = (made_so.text if isinstance(made_so, Difference)
            else f"its event {seq} is {short(here)} here, {short(there)} in the ledger")
    at = made_so.event if isinstance(made_so, Difference) and made_so.event else here
    return LedgerError(
        f"the ledger's copy of this hand does not hold the file's amendments and they cannot "
        f"be appended{where}: {told}; nothing of this hand was written (amend it here: "
        f"`handledger correct {shell_arg(b.hand_id)} ...`, `void`, `undo`)", hand=b.hand_id,
        line=line_of(b, at))


def _stream_difference(ledger: Any, b: Batch) -> Difference | None:
    """Where the copy in ``b`` of a stored hand parts from the stored stream when either of
    them is in play (:func:`replay.ingest.completing.in_play`: an export taken while the
    hand was played, which :func:`replay.ingest.completing.continuation` could not take):
    the first event after the start that differs, the streams compared as stored, row for
    row, corrections and voids among them, and named by its seq in the stream (``its event
    8 is cards_dealt {...} here, cards_dealt {...} in the ledger``); None when neither is in
    play or they agree as far as both go. What one of them has not reached yet (a rake, a
    payout) is no difference."""
    assert b.events is not None and b.hand_id is not None
    stored = [r.event for r in ledger.read(b.hand_id)]
    if not (completing.in_play(b.events) or completing.in_play(stored)):
        return None
    for seq, (here, there) in enumerate(zip(b.events[1:], stored[1:], strict=False), 2):
        if event_json(here) != event_json(there) and plain(here) != plain(there):
            return Difference(
                f"its event {seq} is {short(here)} here, {short(there)} in the ledger", here)
    return None


def _trusted(batch: Batch, stored: tuple[str, str | None, str | None],
             carried: bool = False) -> bool:
    """Whether ``batch`` is the stored hand (its first row, key, session ``stored``) without
    reading its rows: the same source key, and the same digest of the hand's lines where the
    format records one in ``source.text_digest`` (a PokerNow hand's key is its hand id, so an
    edited hand keeps it; a longer export of the game has the same lines, FORMATS.md §2).
    ``carried`` (JSON lines): a key the file carries beside the events is no proof of them
    (an edited row keeps it); only a key made from the events, ``jsonl:``, is."""
    assert batch.events is not None
    if batch.source_key is None or batch.source_key != stored[1]:
        return False
    if carried and not batch.source_key.startswith("jsonl:"):
        return False
    mine = (batch.events[0].source or {}).get("text_digest")
    theirs = (json.loads(stored[0]).get("source") or {}).get("text_digest")
    return mine is None or theirs is None or mine == theirs


CONTENT_ID = re.compile(r"phh-[0-9a-f]{12}")


def drop_edited_places(ledger: Any, batches: list[Batch], *, upto: int,
                       carried: bool = False) -> tuple[list[Batch], list[LedgerError]]:
    """``batches`` without the PHH hands that have no ``_hand_id`` (their id is made from
    their content, :mod:`ledger.formats.phh.hand`) and that stand where a stored hand of
    another id stood: the same file, as the path was given, and section (the hand's place
    in it). Such a hand is that stored hand edited, refused naming the first event that
    differs (a change to a stored hand is a correction), not appended as another hand.
    ``carried``: as :func:`drop_known_hands`."""
    places = {}
    for b in batches:
        if b.is_hand and b.events and CONTENT_ID.fullmatch(b.hand_id or "") and (
                b.events[0].type == "hand_started"):  # not a correction completing a hand
            source = b.events[0].source or {}
            if isinstance(source.get("file"), str):
                places[(source["file"], source.get("section"))] = b.hand_id
    if not places or not upto:
        return batches, []
    rows = ledger.query(
        "SELECT hand_id, json_extract_string(payload, '$.source.file'),"
        " json_extract(payload, '$.source.section') FROM events WHERE seq = 1"
        " AND position <= ? AND hand_id LIKE 'phh-%'"
        " AND json_extract_string(payload, '$.source.file') IN (SELECT UNNEST(?))",
        [upto, sorted({f for f, _ in places})])
    mine = set(places.values())
    was = {}
    for hand, file, section in rows:
        section = None if section is None else json.loads(str(section))
        if (file, section) in places and hand not in mine:
            was[places[(file, section)]] = hand
    if not was:
        return batches, []
    stored = original_rows(ledger, sorted(set(was.values())), upto)
    cut = completing.cut_hands(ledger, sorted(set(was.values())))
    out, refused = [], []
    for b in batches:
        if b.hand_id not in was or b.events is None:
            out.append(b)
            continue
        old = was[b.hand_id]
        rows = stored.get(old, [])
        differ = (first_difference(b.events, rows, phh=phh_form.read_from_phh(b, carried))
                  or STARTS_OTHERWISE)
        at = next((i for i, e in enumerate(b.events) if e is differ.event), None)
        if old in cut and at == len(rows) - 1:  # it goes on where the stored copy was cut
            what = (f"which the ledger holds cut off (incomplete: its file stopped inside the "
                    f"hand), and goes on past it: {differ.text}; a PHH hand without "
                    f"`_hand_id` is named by its content, so this copy is another hand: "
                    f"import it with `_hand_id = '{old}'` and it completes {old} (a "
                    f"correction, as a longer PokerNow export completes a cut hand), or "
                    f"amend {old}: `handledger correct {shell_arg(old)} ...`")
        else:
            what = (f"and differs from it: {differ.text}; a change to a stored hand is a "
                    f"correction (`handledger correct {shell_arg(old)} ...`); other hands need "
                    f"a file of another name")
        refused.append(LedgerError(
            f"this hand stands where hand {old} of the ledger was read from (the same file "
            f"and place), {what}", hand=b.hand_id, line=line_of(b, differ.event)))
    return out, refused


def deal_difference(ledger: Any, b: Batch, stored: Sequence[tuple[int, str]],
                    carried: bool = False) -> tuple[str, int | None] | None:
    """How the id-less PHH hand ``b`` differs from the stored rows ``[(seq, JSON)]`` of a hand
    it deals as (:mod:`replay.ingest.samedeal`), compared as a copy with the stored hand's id
    is (:func:`_compared`): its ``hand_started`` whole (stakes, stacks, unit:
    :func:`same_start_in_session`, then :func:`start_difference`), then its other events
    (:func:`first_difference`). Returns the text and file line of the first difference, None
    when its events are those. ``carried``: as :func:`drop_known_hands`."""
    from ledger.model.events import parse_event

    assert b.events is not None and stored
    theirs = parse_event(stored[0][1])
    held = (stored[0][1], None, theirs.session)
    named = [b.events[0].model_copy(update={"hand": theirs.hand}), *b.events[1:]]  # its id
    mine = named
    if not same_start_in_session(ledger, mine[0], held):
        mine = in_stored_chips(mine, held[0]) or mine  # a copy in another session's chips
        if not same_start_in_session(ledger, mine[0], held):
            differ = start_difference(named[0], held[0])
            return differ.text, line_of(b, b.events[0])
    differ = first_difference(mine, stored, phh=phh_form.read_from_phh(b, carried))
    if differ is None:
        return None
    if differ.event is not None:  # the file's event at its place
        at = next((i for i, e in enumerate(mine) if e is differ.event), None)
        differ = differ._replace(event=None if at is None else b.events[at])
    return differ.text, line_of(b, differ.event)
