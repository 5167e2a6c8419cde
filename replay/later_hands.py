"""A void or correction of a hand once a later hand of its session has started (RULES.md §1.1,
§2.2, §3.8, §7.1): what the later hand took from it as it started cannot change.

A later hand takes two things from the hands before it as it starts: the chips a hand carried
to it (a ``carry_over`` in, recorded then: :mod:`replay.carry`), and its players' stacks. A
hand still in play when the later hand started held its players' chips in its pot: the later
hand's table had only what they kept beside it (table stakes, RULES.md §1.1: a player risks
only the chips on the table when the deal starts). Voided, that hand gives every chip back,
and the books, which follow a player's stack from hand to hand, would have him start the
later hand with them: the later hand's start and the books part, and so would his cash-out.
So such a void is refused, naming the later hand; voided first, the later hand starts nothing
the books must follow, and the void goes in. A later hand that started on the stacks the void
gives back (the first hand taken as void at the table already) follows the void, which goes
in. The books are never adjusted by a row nobody recorded.

:func:`continuation_kept` holds the voids and corrections a file appends to a stored hand
(:func:`replay.ingest.completing.continuation`) to the rules ``void`` and ``correct`` hold
them to here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from ledger.model.errors import LedgerError


def stacks_followed(ledger: Any, hand: str, session: str | None, events: Sequence[Any],
                    voided: Any) -> None:
    """Refuse the void of ``hand`` (its stored ``events``; ``voided``: its
    :class:`replay.fold.HandReplay` as the void leaves it) while it is in play, when a later
    hand of ``session`` started beside it on a stack of one of its players that the void
    would no longer let the books follow (module doc; the audit's ``stack_continuity``).

    Raises:
        IllegalAction: naming the later hand, the player, the chips he started it with and
            those the void would give him there (nothing written).
    """
    moved = _moved(ledger, hand, session, events, voided, in_play=True)
    if not moved:
        return
    d = moved[0]
    raise IllegalAction(
        f"hand {d.hand} started while this hand was in play, {d.player} with the {d.starting} "
        f"chips {d.player} had beside its pot (RULES.md §1.1: only the chips on the table "
        f"when the deal starts); voided, the hand gives back every chip it holds and the books "
        f"would start {d.player} there with {d.expected}: void hand {d.hand} first (it started "
        "on chips this hand held), then this one; nothing written", hand=hand)


def void_downstream(ledger: Any, hand: str, session: str | None, events: Sequence[Any],
                    voided: Any, known: dict[str, Any] | None = None) -> list[Any]:
    """The later hands of ``session`` whose starting stack of a player the void of the
    finished ``hand`` (its stored ``events``; ``voided``: its :class:`replay.fold.HandReplay`
    as the void leaves it) leaves the books no longer following, as ``correct`` and ``undo``
    name them (:class:`replay.whatif.Downstream`, the audit's ``stack_continuity``): the void
    goes in and these are warned of. A hand in play is :func:`stacks_followed`'s; reads
    only. ``known``: as :func:`replay.whatif.downstream_of` takes it."""
    return _moved(ledger, hand, session, events, voided, in_play=False, known=known)


def _moved(ledger: Any, hand: str, session: str | None, events: Sequence[Any], voided: Any,
           *, in_play: bool, known: dict[str, Any] | None = None) -> list[Any]:
    """:func:`replay.whatif.downstream_of` the void of ``hand`` when the hand is in play
    (``in_play``) or not; empty for a hand of no session, of the other kind, or whose stream
    the rules refuse (a void drops what cannot be played)."""
    if session is None:
        return []
    from replay.fold import replay_events
    from replay.whatif import downstream_of

    try:
        before = replay_events(list(events), session=session)
    except LedgerError:
        return []
    if (before.result.status == "open") != in_play:
        return []
    return downstream_of(ledger, hand, session, before, voided, known)


def reopened_followed(ledger: Any, hand: str, session: str | None, after: Any,
                      void_position: int) -> None:
    """Refuse an ``undo`` of the void of ``hand`` (appended at ``void_position``; ``after``:
    the :class:`replay.fold.HandReplay` the undo leaves) that puts it back in play when a
    later hand of ``session``, not voided, started after the void and seats a player with
    chips in this hand's pot: that hand started on the chips the void gave back, which the
    hand back in play would hold (RULES.md §1.1: a player's chips are in one hand at a time;
    the mirror of :func:`stacks_followed`). Hands of no session are not followed from hand to
    hand and are let be.

    Raises:
        IllegalAction: naming the later hand, the player and his chips in this hand's pot
            (nothing written).
    """
    if session is None or after.result.status != "open":
        return
    held = {p: c for p, c in after.result.contributions.items() if c > 0}
    if not held:
        return
    from replay.fold import replay_events

    streams = ledger.streams(kind="hand", session=session)
    for stream in streams[streams.index(hand) + 1:] if hand in streams else []:
        rows = ledger.read(stream)
        if rows[0].position < void_position:
            continue
        seated = [s.player for s in rows[0].event.seats if s.player in held]
        if not seated:
            continue
        try:
            if replay_events([r.event for r in rows]).result.status == "voided":
                continue
        except LedgerError:
            continue
        p = seated[0]
        raise IllegalAction(
            f"hand {stream} started after the void, {p} with the chips it gave back; back in "
            f"play, this hand would hold {held[p]} of them in its pot (a player's chips are in "
            f"one hand at a time, RULES.md §1.1): void hand {stream} first, or record what "
            "happened with `handledger correct`", hand=hand)


def continuation_kept(ledger: Any, hand: str, session: str | None, more: Sequence[Any],
                      *, newer: str | None = None) -> None:
    """Refuse the rows ``more`` a file appends to the stored hand ``hand`` (of ``session``)
    when they void or correct it (a ``hand_voided`` or ``correction`` among them) in a way
    ``void`` or ``correct`` refuses here: one that changes the chips the hand leaves to the
    session's next hand once a later hand has started (:func:`replay.carry.carry_kept`),
    the later hand either stored or ``newer``, a hand of the file started before these rows;
    and a void of the hand in play that a later hand's starting stacks would no longer
    follow (:func:`stacks_followed`; the stored later hands only: a hand the same file
    starts before these rows is not written yet). Rows the rules refuse are left to the
    check that refuses them.

    Raises:
        IllegalAction: naming the hand and the later hand (nothing of the file is written).
    """
    kinds = {e.type for e in more}
    if "hand_voided" not in kinds and "correction" not in kinds:
        return
    from replay.carry import carry_kept, hand_sections, leaves
    from replay.fold import replay_events

    stored = [row.event for row in ledger.read(hand)]
    try:
        before = replay_events(stored, session=session)
        after = replay_events([*stored, *more], session=session)
    except LedgerError:
        return
    doing = f"{'voiding' if 'hand_voided' in kinds else 'correcting'} hand {hand}"
    carry_kept(ledger, hand, session, before, after, doing)
    was, now = leaves(before), leaves(after)
    if newer is not None and was != now:
        raise IllegalAction(
            f"{doing} changes the chips it carries to the session's next hand from {was} to "
            f"{now}, and hand {newer}, which the file starts before these rows, took what it "
            f"carried then ({was}) as it started ({hand_sections(ledger, hand)}): the chips "
            "would be counted twice or lost; nothing written", hand=hand)
    if "hand_voided" in kinds and after.result.status == "voided":
        stacks_followed(ledger, hand, session, stored, after)
