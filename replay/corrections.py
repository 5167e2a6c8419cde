"""Correcting and voiding a recorded hand without rewriting history, and telling its history.

A correction or a void is a new event appended to the hand's stream; the original events stay
and replay, the audit and the exports read the hand through
:func:`replay.fold.effective_events`. A correction is refused (nothing is written) when the
corrected hand does not replay legally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.store import signing
from ledger.store.keys import KeyStore
from replay.fold import HandReplay, replay_events
from replay.whatif import (
    ChangeSpec,
    Downstream,
    build_correction,
    check_replays,
    paid_net,
    what_if,
)


@dataclass(frozen=True)
class Corrected:
    """A correction appended at ``seq``: the hand before (None when its stream did not replay:
    a correction repairs it) and after, and the later hands of its session whose starting
    stacks no longer follow."""

    seq: int
    before: HandReplay | None
    after: HandReplay
    downstream: list[Downstream]

    @property
    def moved(self) -> dict[str, dict[str, int]] | None:
        """What moved, in chips: ``{"net": {player: change}, "paid": {player: change}}`` of
        the rules' net and of the net as the table paid it (:func:`replay.whatif.paid_net`),
        players whose number did not move left out; None when the hand did not replay
        before."""
        if self.before is None:
            return None
        return {label: {p: a[p] - b[p] for p in a if a[p] != b[p]}
                for label, b, a in (("net", self.before.net, self.after.net),
                                    ("paid", paid_net(self.before), paid_net(self.after)))}


def correct(ledger: Any, hand: str, specs: Sequence[ChangeSpec], *, reason: str,
            by: str, keys: KeyStore | None = None, sign: str | None = None) -> Corrected:
    """Append a correction of ``hand`` made of ``specs`` (:mod:`replay.whatif`), signed with
    the key ``sign`` of ``keys`` when given (:mod:`ledger.store.signing`).

    Raises:
        NotFound: no such hand, or no private key ``sign``; IllegalAction: a change that is
            not legal, or a corrected hand the engine rejects (nothing written).
    """
    rows = ledger.read(hand)
    events = [r.event for r in rows]
    positions = {r.seq: r.position for r in rows}
    correction = build_correction(events, specs, reason=reason, by=by, positions=positions)
    after = replay_events([*events, correction])
    try:
        before = replay_events(events)
    except IllegalAction:  # a broken stream, which this correction repairs
        before = None
    downstream = (what_if(ledger, hand, specs).downstream
                  if rows[0].session and before is not None else [])
    [correction] = _signed(hand, [correction], keys, sign)
    ledger.append(hand, [correction], hand_id=hand, expected_seq=rows[-1].seq)
    return Corrected(rows[-1].seq + 1, before, after, downstream)


def void(ledger: Any, hand: str, *, reason: str, by: str, keys: KeyStore | None = None,
         sign: str | None = None) -> HandReplay:
    """Void ``hand``: every contribution goes back; its events stay. For an ended hand the
    void comes with a correction that deletes its ``hand_ended`` (same reason and author),
    since the engine takes no ``hand_voided`` after the end. Both are signed with the key
    ``sign`` of ``keys`` when given. Returns the voided hand.

    Raises:
        NotFound: no such hand, or no private key ``sign``; IllegalAction: the hand is already
            voided.
    """
    rows = ledger.read(hand)
    events = [r.event for r in rows]
    if any(e.type == "hand_voided" for e in events):
        raise IllegalAction("the hand is already voided", hand=hand)
    drop = {r.seq for r in rows if r.type == "hand_ended"} | _past_the_break(events)
    new: list[Any] = []
    if drop:
        specs = [ChangeSpec("delete", seq) for seq in sorted(drop)]
        new.append(build_correction(events, specs, reason=f"void: {reason}", by=by,
                                    positions={r.seq: r.position for r in rows},
                                    keep_end=False))
    new.append(ev.HandVoided(reason=reason, by=by))
    result = check_replays([*events, *new])
    new = _signed(hand, new, keys, sign)
    ledger.append(hand, new, hand_id=hand, expected_seq=rows[-1].seq)
    return result


def _past_the_break(events: list[Any]) -> set[int]:
    """The seqs of a hand stream without corrections from the first event the rules refuse
    on (a stream that does not replay: a void drops what cannot be played); empty when it
    replays or when it has corrections (their seqs name originals through the corrections)."""
    from replay.fold import fold

    if any(e.type in ("correction", "hand_voided") for e in events):
        return set()
    try:
        fold(events)
    except IllegalAction as exc:
        if exc.seq is not None and exc.seq > 1:
            return set(range(exc.seq, len(events) + 1))
    return set()


def _signed(hand: str, events: list[Any], keys: KeyStore | None, name: str | None) -> list[Any]:
    """``events`` with every correction and void signed by the key ``name`` (when given)."""
    if name is None or keys is None:
        return events
    return [signing.sign(hand, e, keys, name) if isinstance(e, signing.SIGNABLE) else e
            for e in events]


def history(ledger: Any, hand: str, keys: KeyStore | None = None) -> dict[str, Any]:
    """The hand's original events (seq, position, recorded_at, type, event) and every
    correction and void (who, why, for a correction each change with what it replaced, and
    a signed one's ``signature``: status good/bad/unknown, signer, note, checked against
    ``keys``), as ``{"hand", "events", "amendments"}``.

    Raises:
        NotFound: no such hand; LedgerError: a damaged key file.
    """
    rows = ledger.read(hand)
    by_seq = {r.seq: r for r in rows}
    originals, amendments = [], []
    for r in rows:
        e = r.event
        item: dict[str, Any] = {"seq": r.seq, "position": r.position,
                                "recorded_at": r.recorded_at.isoformat(), "type": r.type}
        if r.type in ("correction", "hand_voided"):
            item |= {"by": e.by, "reason": e.reason}
            checked = signing.check(hand, e, keys) if keys is not None else None
            if checked is not None:
                item["signature"] = {"status": checked.status, "signer": checked.signer,
                                     "note": checked.note}
            if r.type == "correction":
                item |= {"changes": [
                    c.model_dump(mode="json")
                    | {"was": brief(by_seq[c.seq].event) if c.seq in by_seq else None}
                    for c in e.changes], "positions": list(e.positions)}
            amendments.append(item)
        else:
            item["event"] = e.model_dump(mode="json", exclude={"type", "schema_version"})
            originals.append(item)
    return {"hand": hand, "events": originals, "amendments": amendments}


def change_brief(data: dict[str, Any]) -> str:
    """:func:`brief` of an event given as its JSON (a change's ``event`` in :func:`history`).

    Raises:
        MalformedEvent: ``data`` is no event.
    """
    return brief(ev.parse_event(data))


def brief(event: Any) -> str:
    """``recorded_payout Bob 400`` — an event in a few words."""
    data = event.model_dump(mode="json", exclude={"type", "schema_version"},
                            exclude_defaults=True)
    if event.type == "hand_started":
        return f"hand_started {event.hand}"
    return " ".join([event.type, *map(_word, data.values())])


def _word(value: Any) -> str:
    """One field for :func:`brief`: cards run together (``Jd4cQc``), face-up flags in words."""
    if not isinstance(value, list):
        return str(value)
    if value and all(isinstance(v, bool) for v in value):
        if all(value) or not any(value):
            return "face up" if value[0] else "face down"
        return "faces " + "".join("u" if v else "d" for v in value)
    return "".join(map(str, value))


def undo(ledger: Any, hand: str, *, by: str, reason: str | None = None) -> Corrected:
    """Take back the hand's last action with a correction that deletes it (the original stays
    in the ledger): the undo of a live ``act``. The hand must then still replay legally.

    Raises:
        NotFound: no such hand; IllegalAction: nothing to undo (only ``hand_started``), or the
            hand's last event came from a correction (correct it with ``correct``).
    """
    rows = ledger.read(hand)
    changed = {c.seq: c.op for r in rows if r.type == "correction" for c in r.event.changes}
    originals = [r for r in rows if r.type not in ("correction", "hand_voided")]
    live = [r for r in originals if changed.get(r.seq) != "delete"]
    last = live[-1] if live else None
    if last is None or last.seq == 1:
        raise IllegalAction("nothing to undo: the hand has only started", hand=hand)
    if changed.get(last.seq) in ("replace", "insert_after"):
        raise IllegalAction(f"the hand's last event (seq {last.seq}) comes from a correction: "
                            "change it with `handledger correct`", hand=hand)
    text = reason or f"undo of seq {last.seq} ({brief(last.event)})"
    return correct(ledger, hand, [ChangeSpec("delete", last.seq)], reason=text, by=by)
