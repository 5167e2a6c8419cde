"""What is wrong with a hand read from a file that the engine took: a name a command would
refuse (refused), chips carried between hands by a hand of no session (refused), a rake above
the pot (refused) or not what the payouts leave out, chips
recorded as returned beyond the uncalled bet, payouts that do not come to the pot (each a
:class:`StoredFinding`: the hand is stored as the file records it, with a ``warning:``
line; docs/IMPORTING.md, "Bad input"; RULES.md §1.4; FORMATS.md §2).
"""

from __future__ import annotations

from typing import Any

from engine.settle import settle
from ledger.model.carry_rules import carry_sections
from ledger.model.errors import LedgerError, MalformedInput, StoredFinding
from ledger.model.names import (
    check_hand_id,
    check_name,
    check_name_length,
    check_seated_apart,
)
from replay.carry import may_carry, may_pass_on
from replay.compare import carried_on, returned_beyond, returned_words
from replay.ingest.paid import paid_finding
from replay.ingest.rakes import rake_finding
from replay.payout_rules import carry_rule


def hand_faults(events: list[Any], state: Any, *, file: str | None, line: int | None,
                rake_line: int | None = None, check_paid: bool = True,
                finishing: list[int] | None = None, phh: bool = False
                ) -> tuple[LedgerError | None, Any]:
    """:func:`_faults`, and the file's ``finishing`` stacks beside its winnings when they are
    not the stacks the hand leaves (:func:`replay.ingest.stacks.stacks_finding`), and, of a
    hand read from PHH (``phh``), its actions stopping before its end (:func:`cut_finding`):
    each a warning of its own, or said in the same line as the hand's other warning (a
    refusal says the refusal alone)."""
    found, settled = _faults(events, state, file=file, line=line, rake_line=rake_line,
                             check_paid=check_paid)
    cut = cut_finding(events, file=file, line=line) if phh else None
    if cut is not None and not (found is not None and not isinstance(found, StoredFinding)):
        if found is None:
            found = cut
        else:
            found.message += f"; and {cut.message}"
    if finishing is None or (found is not None and not isinstance(found, StoredFinding)):
        return found, settled
    from replay.ingest.stacks import stacks_finding

    stacks = stacks_finding(events, state, finishing, file=file, line=line)
    if stacks is None or found is None:
        return found if stacks is None else stacks, settled
    found.message += f"; and {stacks.message}"
    return found, settled


def cut_finding(events: list[Any], *, file: str | None, line: int | None
                ) -> StoredFinding | None:
    """A hand read from PHH whose actions stop before its end (FORMATS.md §1 has no end
    marker: reading it ends it ``incomplete``, its pots as they stand and every chip back,
    :func:`replay.build.events_from_phh`), as a PokerNow log cut inside a hand is: stored,
    with a ``warning:`` line naming the file, the hand's line and the hand, and how a whole
    copy completes it (a correction: :mod:`replay.ingest.completing`); None for a hand
    read to its end."""
    end = events[-1]
    if end.type != "hand_ended" or end.status != "incomplete":
        return None
    hand = events[0].hand
    return StoredFinding(
        f"the file stops inside the hand, its actions before its end (event "
        f"{len(events) - 1} the last): kept as an incomplete hand, every chip returned (a "
        f"whole copy under the same id, `_hand_id = '{hand}'`, completes it)", file=file,
        line=line, hand=hand)


def _faults(events: list[Any], state: Any, *, file: str | None, line: int | None,
            rake_line: int | None = None, check_paid: bool = True
            ) -> tuple[LedgerError | None, Any]:
    """What :func:`replay.ingest.hand_checks.check_items` finds wrong with a hand the engine
    took (``state``: after its ``events``): a hand id or a seated player's name a command
    would refuse, or two seated names that print alike (ledger/model/names.py), else its rake
    (:func:`replay.ingest.rakes.rake_finding`: above the pot, or, a :class:`StoredFinding`,
    not what the payouts leave out), else chips it records as returned beyond an uncalled
    bet (:func:`returned_finding`) and payouts that do not come to the pot of a hand with no
    rake (:func:`replay.ingest.paid.paid_finding`), both :class:`StoredFinding` values, one
    for the hand (the two facts in one line). ``rake_line``: the line of the file's rake,
    where a rake above the pot is refused; ``check_paid``: False when the reader warned of
    the hand already (a PokerNow hand whose chips put in, returned and collected do not add
    up).

    Returns:
        ``(what is wrong or None, the settlement made for the returned chips or None)``: the
        replay of the hand takes that settlement instead of settling it again (half the
        hands of a 1M-event import record chips returned; a settlement is ~25 µs).
    """
    hand = events[0].hand
    try:
        check_hand_id(hand)
        for seat in events[0].seats:  # a name as a command takes it (README: names)
            check_name(seat.player)
            check_name_length(seat.player)
        check_seated_apart([seat.player for seat in events[0].seats])
    except LedgerError as exc:
        return exc.located(file=file, line=line, hand=hand), None
    lost = carried_without_session(events, state)
    if lost is not None:
        return lost.located(file=file, line=line, hand=hand), None
    found = rake_finding(events, state, file=file, line=line, rake_line=rake_line)
    if found is not None:
        return found, None
    settled = None
    if _records_returned(state):

        settled = settle(state)
    back = returned_finding(state, file=file, line=line, result=settled)
    paid = paid_finding(events, state, file=file, line=line) if check_paid else None
    if paid is None and check_paid:
        paid = carried_paid_finding(events, state, file=file, line=line)
    if back is not None and paid is not None:  # one line a hand: both facts in it
        back.message += f"; and {paid.message}"
    return (back if back is not None else paid), settled


def carried_paid_finding(events: list[Any], state: Any, *, file: str | None,
                         line: int | None) -> StoredFinding | None:
    """The warning of a complete hand read from a file whose table paid out chips its pot
    carries to the session's next hand by the rules (RULES.md §2.2, §3.8, §7.1): it is stored as
    paid, and only what the table left is carried (``HandReplay.carried_on``); the audit names
    the payouts. None when it paid none of them (or its options carry nothing)."""
    if (state.status != "complete" or not state.payouts or state.carried_out
            or not may_carry(events[0])):
        return None

    result = settle(state)
    paid = {p.player: p.amount for p in state.payouts}
    left = carried_on(result, paid, state.rake)
    if left >= result.carried:
        return None
    return StoredFinding(
        f"the table paid out {result.carried - left} of the {result.carried} chips the rules "
        f"carry to the session's next hand ({carry_rule(state)}; "
        f"{carry_sections(state.started.options)}): "
        + (f"only {left} carried" if left else "nothing carried"),
        file=file, line=line, hand=events[0].hand)


def carried_without_session(events: list[Any], state: Any) -> LedgerError | None:
    """The refusal of a hand of no session (``events``, ``state``: the engine's after them)
    that carries chips between hands: a pot the rules carry to the session's next hand and the
    table left in the middle (``no_eligible_winner = carry_over``, ``odd_chip_tie_order =
    carry_to_next_hand``), or a ``carry_over`` it records. Such chips go into the session's
    next hand (RULES.md §2.2, §3.8, §7.1); a hand of no session has none, so they would be lost to
    the books: the file is imported with ``--session``. None otherwise."""
    started = events[0]
    if started.session is not None or not may_pass_on(events):
        return None
    chips = state.carried_in or state.carried_out
    if not chips and state.status == "complete":

        paid = {p.player: p.amount for p in state.payouts} if state.payouts else None
        chips = carried_on(settle(state), paid, state.rake)
    if not chips:
        return None
    return MalformedInput(
        f"the hand carries {chips} chips between hands ({carry_sections(started.options)}: "
        f"{carry_rule(state)}), which go into the session's next hand, and it belongs to no "
        "session: import its file with --session S")


def _records_returned(state: Any) -> bool:
    """Whether a complete hand records chips as returned (a payout marked ``returned``)."""
    return state.status == "complete" and any(p.returned for p in state.payouts)


def returned_finding(state: Any, *, file: str, line: int | None, result: Any = None
                     ) -> StoredFinding | None:
    """Chips a complete hand read from a file (``state``: the engine's, after its events)
    records as returned to a player beyond his uncalled bet (a site's ``Uncalled bet … returned``
    line, a JSON-lines ``returned`` payout): only a bet nobody called is returned (RULES.md
    §1.4). The hand is stored as the file records it, as a site's other payouts are (FORMATS.md
    §2): a :class:`StoredFinding` (a warning), which the replay and the audit report as a
    ``returned`` difference (:func:`replay.compare.returned_beyond_uncalled`); None when there
    is none. ``result``: ``engine.settle.settle(state)`` when already made."""
    if not _records_returned(state):
        return None

    if result is None:

        result = settle(state)
    beyond = returned_beyond(result, state.payouts)
    if not beyond:
        return None
    return StoredFinding("; ".join(returned_words(result, p, c) for p, c in beyond.items()),
                         file=file, line=line, hand=state.started.hand)
