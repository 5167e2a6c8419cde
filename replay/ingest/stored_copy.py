"""A file's copy of a hand compared with the hand the ledger stores: the same start, the first
event that differs, and whether corrections make one the other.

The start is compared but for where each was read from, its session and what a format leaves
implicit, the amounts in the chips the ledger stores the hand in; the events after it one by
one, corrections and voids left out on both sides. Each difference is worded for a refusal
(:mod:`replay.ingest.differences`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.events import event_json
from ledger.model.money import currency_code
from replay.ingest.differences import Difference, event_difference


def same_start_in_session(ledger: Any, started: Any, stored: tuple[str, str | None,
                                                                   str | None]) -> bool:
    """:func:`same_start`, or the same once a stored hand that names no currency is given
    its session's chip (:func:`replay.ingest.export.session_chip`): a hand played live in a
    session of 0.25 USD chips is stored in plain chips and exported in that money with
    ``_chip``, and that export is the hand the ledger holds; so is a hand converted into a
    session of 0.01 USD chips before its unit said a cent (its file imported again, or
    its export, which says a cent)."""
    if same_start(started, stored[0]):
        return True
    if started.unit.currency is None:  # an old export of a hand played live in its session
        from ledger.model.events import parse_event
        from replay.ingest.old_units import live_alike

        return live_alike(started, parse_event(stored[0]))
    if stored[2] is None:
        return False
    from replay.ingest.export import session_chip

    chip = session_chip(ledger, stored[2])
    return chip is not None and same_start(started, stored[0], chip)


def same_start(started: Any, stored: str, chip: Any = None) -> bool:
    """Whether ``started`` begins the same hand as the stored ``hand_started`` JSON: equal but
    for where each was read from (``source``: file, line, site facts), the session each
    names (a hand already in the ledger stays where it is: README) and for what a format
    leaves implicit (no antes written as none, the game's default reopening rule, the chip's
    money value, which a PHH file without ``_chip`` does not carry) or orders its own way:
    the blinds and straddles in any order (the forced bets, compared as events, say who posts
    what; the rules read the largest, RULES.md §4.4) and no button as the last seat, where PHH
    puts it (the engine then starts from the first seat either way). ``chip``: the unit of a
    stored hand that names no currency, or whose unit an earlier conversion into the session
    wrote as whole dollars for its chip of a cent (:func:`replay.ingest.units.
    earlier_conversion`), its session's chip (:func:`same_start_in_session`)."""
    if event_json(started) == stored:
        return True
    from ledger.model.events import parse_event
    from replay.ingest.units import earlier_conversion

    held = parse_event(stored)
    if chip is not None and (held.unit.currency is None
                             or earlier_conversion(held.unit, chip)):
        held = held.model_copy(update={"unit": chip})
    if chip is not None and earlier_conversion(started.unit, chip):  # an old export's
        from replay.ingest.old_units import as_own_chip

        started = as_own_chip(started, chip)
    return _identity(started) == _identity(held)


def in_stored_chips(events: Sequence[Any], stored: str) -> list[Any] | None:
    """The hand ``events`` counted in the chips of the stored ``hand_started`` JSON when the
    two count money of one currency in chips of other values (a JSON-lines export of a
    session of 0.05 USD chips, of a hand the ledger holds in chips of 0.25 USD or cents):
    converted exactly as an import into a session converts a hand
    (:func:`replay.ingest.units.to_session`), its ``unit`` the stored one; None when they
    count the same chip, no money or other currencies, or an amount does not convert."""
    from ledger.model.events import parse_event
    from replay.ingest.units import SessionUnit, to_session

    held, unit = parse_event(stored).unit, events[0].unit
    if (held.currency is None or unit.currency is None or held.money() == unit.money()
            or currency_code(held.currency) != currency_code(unit.currency)):
        return None
    minor, _, decimals = held.money()
    try:
        out = to_session(events, SessionUnit(minor, held.currency, decimals), "")
    except LedgerError:
        return None
    return [out[0].model_copy(update={"unit": held}), *out[1:]]


def start_difference(started: Any, stored: str) -> Difference:
    """How ``started`` differs from the stored ``hand_started`` JSON where :func:`same_start`
    finds them different: the path to its first field that differs (as :func:`_identity`
    compares them), both values cut short (``its event 1, hand_started, has stakes.min_bet
    20 here, 10 in the ledger``; an item of lists as long by its index, ``seats[0].stack``),
    the event at the copy's first line."""
    from ledger.model.events import parse_event

    mine, theirs = _identity(started), _identity(parse_event(stored))
    path: list[str] = []
    while True:  # down to the field: a key of a mapping, an item of lists as long
        if isinstance(mine, dict) and isinstance(theirs, dict):
            key = next((k for k in [*mine, *theirs] if mine.get(k) != theirs.get(k)), None)
            if key is None:
                break
            path.append(key)
            mine, theirs = mine.get(key), theirs.get(key)
        elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
            at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
                       if a != b), None)
            if at is None:
                break
            path.append(f"[{at}]")
            mine, theirs = mine[at], theirs[at]
        else:
            break

    def cut(value: Any, width: int = 60) -> str:
        text = json.dumps(value, separators=(",", ":"), sort_keys=True)
        return text if len(text) <= width else text[:width - 1] + "…"

    if not path:
        return Difference("its event 1, hand_started, differs", started)
    field = ".".join(path).replace(".[", "[")
    return Difference(f"its event 1, hand_started, has {field} {cut(mine)} here, "
                      f"{cut(theirs)} in the ledger", started)


def start_in_force_difference(ledger: Any, started: Any, stored: str, hand: str
                              ) -> Difference:
    """:func:`start_difference` of ``started`` and the stored hand ``hand``'s start (its
    first row ``stored``), or, when its corrections change that start (``correct --replace
    1``), of the start as they make it: ``as its corrections make it, its event 1,
    hand_started, has seats[0].stack 130 here, 120 in the ledger``."""
    from replay.fold import effective_events

    rows = [r.event for r in ledger.read(hand)]
    if any(e.type == "correction" for e in rows):
        try:
            start = event_json(effective_events(rows)[0][0])
        except LedgerError:  # a stream that does not fold: its start as stored
            start = stored
        if start != event_json(rows[0]):
            differ = start_difference(started, start)
            return differ._replace(text=f"as its corrections make it, {differ.text}")
    return start_difference(started, stored)


def _identity(started: Any) -> dict[str, Any]:
    from engine.games import game

    data = started.model_dump(mode="json", exclude={"source", "schema_version", "session"})
    stakes = data["stakes"]
    stakes["antes"] = [a for a in stakes["antes"] if a] and stakes["antes"]
    if data["options"]["reopen_rule"] is None:
        data["options"]["reopen_rule"] = game(started.game).default_reopen_rule
    data["unit"].pop("minor_per_chip")
    if data["unit"]["currency"] is not None:  # '$' stored before the reader said USD
        data["unit"]["currency"] = currency_code(data["unit"]["currency"])
    stakes["blinds_or_straddles"] = sorted(stakes["blinds_or_straddles"])
    if data["button"] is None and not game(started.game).stud and data["seats"]:
        data["button"] = data["seats"][-1]["player"]
    return data


#: Rows a hand's stream may get after its original events (the original events are compared).
LATER = ("correction", "hand_voided")


def original_rows(ledger: Any, hands: Sequence[str | None], upto: int | None = None
                  ) -> dict[str, list[tuple[int, str]]]:
    """``{hand: [(seq, stored JSON)]}``: the rows of ``hands`` (at or before position
    ``upto``; None: all of them) but their corrections and voids (:data:`LATER`), in seq
    order, what :func:`first_difference` compares a copy with. One query; none when
    ``hands`` is empty."""
    if not hands:
        return {}
    rows = ledger.query(
        "SELECT hand_id, seq, CAST(payload AS VARCHAR) FROM events WHERE position <= ?"
        " AND hand_id IN (SELECT UNNEST(?)) AND type NOT IN (SELECT UNNEST(?))"
        " ORDER BY hand_id, seq", [(1 << 62) if upto is None else upto, sorted(
            {h for h in hands if h is not None}), list(LATER)])
    out: dict[str, list[tuple[int, str]]] = {}
    for hand, seq, payload in rows:
        out.setdefault(hand, []).append((seq, payload))
    return out


STARTS_OTHERWISE = Difference("it starts otherwise")


def line_of(batch: Batch, event: Any) -> int | None:
    """The file line of ``event``, one of ``batch``'s events (the same object), where the
    file gives each event its line (``batch.lines``: JSON lines); else, or for no ``event``,
    the line where the hand starts."""
    if event is not None and batch.lines is not None and batch.events is not None:
        for index, mine in enumerate(batch.events):
            if mine is event:
                return batch.lines[index]
    return batch.line


def first_difference(events: Sequence[Any], stored: Sequence[tuple[int, str]], *,
                     phh: bool = False) -> Difference | None:
    """Where the events of a hand differ from its stored rows ``[(seq, JSON)]`` (the first
    compared as :func:`same_start` does; corrections and voids left out on both sides):
    None when nowhere, else the first event that differs, its seq and both texts cut short
    (``its event 8 is bet_raise {...} here, bet_raise {...} in the ledger``), or the rake
    (a :class:`Difference`: what a refusal says and the event of ``events`` it is about).
    The rake is a field of the first event's ``source`` (a file's ``rake``, ``site_rake`` or
    ``_rake`` rule: what :mod:`replay.rake` reads, so what the books count), compared first,
    unless both hold it as a ``recorded_rake`` event, compared where it stands; a rake the
    one holds as that event and the other as its file's field (FORMATS.md §1: our PHH export
    writes it so) is the same when it is the same chips
    (:func:`replay.ingest.rakes.rake_difference`: ``its rake is 11 here, 10 in the
    ledger``). ``phh``: ``events`` were read from PHH (:func:`replay.ingest.phh_form.
    read_from_phh`), which pays each player one amount in seat order: what each player was
    paid is compared, not the order of the payouts (:func:`event_difference`)."""
    from ledger.model.events import parse_event
    from replay.ingest.rakes import rake_difference, rake_row

    mine = [e for e in events if e.type not in LATER]
    if not stored or not mine:
        return event_difference(mine, stored, phh=phh)
    raked = [row for row in stored[1:] if rake_row(row[1])]
    events_both = bool(raked) and any(e.type == "recorded_rake" for e in mine)
    if events_both or raked or "rake" in stored[0][1] or _may_rake(mine[0]):
        raking = rake_difference(mine, [parse_event(row[1]) for row in (stored[0], *raked)])
        differ = None if raking is None else Difference(raking)
        if differ is not None and not events_both:
            return differ
        if not events_both:  # the same rake in another form (or none): the rest compared
            mine = [e for e in mine if e.type != "recorded_rake"]
            stored = [row for row in stored if not rake_row(row[1])]
        return event_difference(mine, stored, phh=phh) or differ
    return event_difference(mine, stored, phh=phh)


def _may_rake(started: Any) -> bool:
    """Whether the hand ``started`` begins may record a rake in its file's fields (a key of
    its ``source`` names one: ``rake``, ``site_rake``, ``_rake``)."""
    return any("rake" in key for key in started.source or {})


def as_corrected(ledger: Any, events: Sequence[Any], hand: str, *, phh: bool = False,
                 held: tuple[str, str | None, str | None] | None = None) -> bool:
    """Whether ``events`` are the stored hand ``hand`` with its corrections applied (the
    hand has corrections, and they make it ``events``, voids aside; ``phh``: as
    :func:`first_difference`). ``held``: the stored hand's first row, key and session
    (:func:`same_start_in_session`): the start of ``events`` is then compared too, with the
    start as its corrections make it (a PHH export of a hand whose starting stacks were
    corrected starts as corrected: docs/FORMATS-IMPORT.md "Formats")."""
    from replay.fold import effective_events

    rows = [r.event for r in ledger.read(hand)]
    if not any(e.type == "correction" for e in rows):
        return False
    corrected = [e for e in effective_events(rows)[0] if e.type not in LATER]
    if held is not None and not same_start_in_session(
            ledger, events[0], (event_json(corrected[0]), held[1], held[2])):
        return False
    return first_difference(events, [(i, event_json(e)) for i, e in
                                     enumerate(corrected, 1)], phh=phh) is None


def as_the_file_corrects(ledger: Any, events: Sequence[Any], hand: str,
                          differ: Difference | None, *, phh: bool = False,
                          held: tuple[str, str | None, str | None] | None = None
                          ) -> tuple[bool, Difference | None]:
    """For ``events``, a copy of the stored hand ``hand`` whose original events differ from
    the stored ones (``differ``): ``(True, differ)`` when the copy's corrections make it,
    with them applied, the hand the ledger holds (its own corrections, if any, applied; both
    voided or neither): the JSON-lines export of a corrected hand (its original events and
    the corrections) where its PHH export (the hand as corrected, no history) was imported,
    the same hand, already in the ledger (README, "Formats"); ``(False, how the corrected
    hands differ)`` when they do not, so that a refusal names the hand as it results;
    ``(False, differ)`` for a copy without corrections, or when ``differ`` is None, or is
    its start (:data:`STARTS_OTHERWISE`) and ``held`` is not given or the corrected hands
    differ. ``held``: the stored
    hand's first row, key and session (:func:`same_start_in_session`), with which the start
    as the copy's corrections make it is compared with the start as the ledger's make it (a
    correction of the starting stacks: where its PHH export was imported, the hand starts as
    corrected). ``phh``: as :func:`first_difference`."""
    from replay.fold import effective_events

    if differ is None or (differ is STARTS_OTHERWISE and held is None) or not any(
            e.type == "correction" for e in events):
        return False, differ
    try:
        mine = effective_events(events)[0]
    except LedgerError:  # a correction naming a seq the copy does not have: refused later
        return False, differ
    theirs = effective_events([r.event for r in ledger.read(hand)])[0]
    stored = [e for e in theirs if e.type not in LATER]
    found = None
    if held is not None:
        start = event_json(stored[0])
        if not same_start_in_session(ledger, mine[0], (start, held[1], held[2])):
            found = start_difference(mine[0], start)
    found = found or first_difference(
        mine, [(i, event_json(e)) for i, e in enumerate(stored, 1)], phh=phh)
    if found is not None and differ is STARTS_OTHERWISE:  # refused for its start, as before
        return False, differ
    if found is not None:
        return False, found._replace(text=f"as its corrections make it, {found.text}")
    voided = [any(e.type == "hand_voided" for e in side) for side in (mine, theirs)]
    if voided[0] != voided[1]:
        return False, Difference("its corrections make it the stored hand, but "
                                 f"{'this copy' if voided[0] else 'the ledger'} voids it")
    return True, differ
