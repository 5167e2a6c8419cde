"""A hand's history as ``handledger history`` tells it: its original events, and every
correction and void with who made it and why, what each change replaced (the event in force
just before it, :func:`replay.amendments.in_force_before`) and, checked against a key store,
each signature (:mod:`ledger.store.signing`); and :func:`brief`, an event in a few words.
"""

from __future__ import annotations

from typing import Any

from engine.notation import format_amount
from ledger.audit.signatures import signed_taken_back
from ledger.model import events as ev
from ledger.store import signing
from ledger.store.keys import KeyStore
from replay.amendments import AMENDMENT_TYPES, in_force_before
from replay.started_changes import replaced_start
from replay.typed import stream_decimals


def history(ledger: Any, hand: str, keys: KeyStore | None = None) -> dict[str, Any]:
    """The hand's original events (seq, position, recorded_at, type, event) and every
    correction and void (who, why, for a correction each change with what it replaced, and
    a signed one's ``signature``: status good/bad/unknown, signer, note, checked against
    ``keys`` and the hand's rows before it, ``binds`` "hand" or, a signature of the older
    form, "event", and ``covers``, that in words: :mod:`ledger.store.signing`), as
    ``{"hand", "events", "amendments"}``. What a change replaced, deleted or
    was inserted after (``was``, :func:`brief` words) is the event in force at its seq just
    before that correction, with ``was_set_by`` the seq of the correction that put it there
    (None: as first recorded; ``was`` None with ``was_set_by``: deleted by it), so that a
    correction of a correction names the value it changed
    (:func:`replay.amendments.in_force_before`); a change replacing a ``hand_started``
    by another has ``differs``, what it changed in words (``["seat Ann's stack 100 → 110"]``,
    :func:`replay.started_changes.started_changes`: its few words are the same); a change
    taking back a correction or void names that amendment. An unsigned correction that takes
    back signed amendments (an ``undo`` without ``--sign``) has ``unsigned``, a list of
    ``{"seq", "type", "signer"}`` of those it takes back.

    Raises:
        NotFound: no such hand; LedgerError: a damaged key file.
    """
    rows = ledger.read(hand)
    by_seq = {r.seq: r for r in rows}
    events = [r.event for r in rows]
    decimals = stream_decimals(events)
    chip = _session_chip(ledger, events[0]) if keys is not None and events else None
    originals, amendments = [], []
    for index, r in enumerate(rows):
        e = r.event
        item: dict[str, Any] = {"seq": r.seq, "position": r.position,
                                "recorded_at": r.recorded_at.isoformat(), "type": r.type}
        if r.type in ("correction", "hand_voided"):
            item |= {"by": e.by, "reason": e.reason}
            checked = signing.check(hand, e, keys, events[:index], chip) \
                if keys is not None else None
            if checked is not None:
                item["signature"] = {"status": checked.status, "signer": checked.signer,
                                     "note": checked.note,
                                     "binds": "hand" if signing.binds_hand(e) else "event",
                                     "covers": signing.binding(e, index)}
            if (taken := signed_taken_back(e, rows)) and e.signature is None:
                item["unsigned"] = taken
            if r.type == "correction":
                before = in_force_before(events, r.seq)
                item |= {"changes": [
                    c.model_dump(mode="json") | _was(c, by_seq, before, decimals)
                    | _differs(c, before, decimals)
                    for c in e.changes], "positions": list(e.positions)}
            amendments.append(item)
        else:
            item["event"] = e.model_dump(mode="json", exclude={"type", "schema_version"})
            originals.append(item)
    return {"hand": hand, "events": originals, "amendments": amendments}


def _session_chip(ledger: Any, started: Any) -> ev.Unit | None:
    """The chip of the session of a stored hand of plain chips whose first row is
    ``started``, a hand played live there (:func:`replay.ingest.export.session_chip`): a
    signature made where its export was imported binds the hand in that chip
    (:func:`ledger.store.signing.same_hand_units`); None otherwise."""
    if started.type != "hand_started" or started.session is None or (
            started.unit.currency is not None):
        return None
    from replay.ingest.export import session_chip

    return session_chip(ledger, started.session)


def _was(change: ev.Change, by_seq: dict[int, Any], before: dict[int, Any],
         decimals: int = 0) -> dict[str, Any]:
    """``{"was", "was_set_by"}`` of a correction's ``change`` (see :func:`history`), its
    amounts as the hand's actions write them (``decimals``, :func:`brief`)."""
    if change.seq in before:
        event, setter = before[change.seq]
        return {"was": brief(event, decimals) if event is not None else None,
                "was_set_by": setter}
    row = by_seq.get(change.seq)  # an amendment taken back (or a stream that did not apply)
    return {"was": brief(row.event, decimals) if row is not None else None, "was_set_by": None}


def _differs(change: ev.Change, before: dict[int, Any], decimals: int = 0) -> dict[str, Any]:
    """``{"differs": [...]}`` of a change replacing a ``hand_started`` by another, what it
    changed in words (:func:`replay.started_changes.started_changes`: ``seat Ann's stack 100 →
    110``), whose :func:`brief` words are the same; ``{}`` for any other change."""
    differs = replaced_start(change, before.get(change.seq, (None, None))[0], decimals)
    return {} if differs is None else {"differs": differs}


def change_brief(data: dict[str, Any], decimals: int = 0) -> str:
    """:func:`brief` of an event given as its JSON (a change's ``event`` in :func:`history`).

    Raises:
        MalformedEvent: ``data`` is no event.
    """
    return brief(ev.parse_event(data), decimals)


def options_brief(started: dict[str, Any]) -> str | None:
    """``reopen_rule=half_bet; split odd_chip_tie_order=card_by_suit; declare method=in_turn,
    swing_ties=allowed`` — the rule options (RULES.md §5) a ``hand_started``, given as its
    JSON (``game``, ``options``: an event of :func:`history`), sets other than its game's
    defaults: the reopen rule (RULES.md §1.7), the split options (RULES.md §2: the odd-chip
    order against the game's own, stud's ``card_by_suit``; ``smallest_chip`` in the hand's
    chips) and a declare hand's options (RULES.md §3), ``method`` always, then those other
    than their defaults; None when it sets none.

    Raises:
        UnknownGame: ``game`` names no game (a stored hand's always does).
        pydantic.ValidationError: ``options`` are no rule options.
    """
    from engine.games import game

    g = game(started["game"])
    options = ev.RuleOptions.model_validate(started.get("options") or {})
    parts = []
    if options.reopen_rule not in (None, g.default_reopen_rule):
        parts.append(f"reopen_rule={options.reopen_rule}")
    split = _set(options.split, ev.SplitOptions(odd_chip_tie_order=g.tie_order))  # type: ignore[arg-type]
    if split:
        parts.append(f"split {','.join(split)}")
    if options.declare is not None:
        declare = [f"method={options.declare.method}", *(
            k for k in _set(options.declare, ev.DeclareOptions()) if not k.startswith("method="))]
        parts.append(f"declare {','.join(declare)}")
    return "; ".join(parts) or None


def _set(options: Any, defaults: Any) -> list[str]:
    """``KEY=VALUE`` of each option of ``options`` (a model) other than in ``defaults``."""
    these, those = options.model_dump(mode="json"), defaults.model_dump(mode="json")
    return [f"{k}={_value(v)}" for k, v in these.items() if those.get(k) != v]


def _value(value: Any) -> str:
    """An option's value as ``--split-options`` types it: ``true``, ``A-5``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


#: The fields of a hand's events that count its chips (a bet's ``to``, a blind's or a
#: payout's ``amount``, a seat change's ``stack``), written by :func:`brief` in the hand's unit.
_CHIP_FIELDS = frozenset({"to", "amount", "stack"})


def brief(event: Any, decimals: int = 0) -> str:
    """``recorded_payout Bob 400`` — an event in a few words; its chips as the actions of a
    hand of ``decimals`` write them (``bet_raise Ann 5.00`` for 500 chips of a hand kept in
    cents, as ``show`` writes ``Ann cbr 5.00``: replay/typed.py, FORMATS.md §1)."""
    data = event.model_dump(mode="json", exclude={"type", "schema_version"},
                            exclude_defaults=True)
    if event.type == "hand_started":
        return f"hand_started {event.hand}"
    if event.type in AMENDMENT_TYPES:
        return f"{event.type} by {event.by}: {event.reason}"
    return " ".join([event.type, *(
        format_amount(v, decimals) if decimals and k in _CHIP_FIELDS and isinstance(v, int)
        else _word(v) for k, v in data.items())])


def _word(value: Any) -> str:
    """One field for :func:`brief`: cards run together (``Jd4cQc``), face-up flags in words."""
    if not isinstance(value, list):
        return str(value)
    if value and all(isinstance(v, bool) for v in value):
        if all(value) or not any(value):
            return "face up" if value[0] else "face down"
        return "faces " + "".join("u" if v else "d" for v in value)
    return "".join(map(str, value))
