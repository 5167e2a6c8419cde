"""A voided hand recorded again, under a new hand id, in a session (``hand again``): the way
to put right a hand recorded live in no session (or the wrong one) with appended events only.
The voided hand stays as it is (every chip back, its history whole); the new hand holds its
events as they stood before the void, corrections applied, its ``hand_started`` naming the new
id, the session and, in its ``source`` (:data:`ledger.model.events.AGAIN_OF`), the voided hand
(what makes it that hand's copy), held to the rules a hand started there is (README
"Sessions"): every seat in the session's books, no player in another of its hands still in
play, chips carried from its last hand (RULES.md §7.1), and the same warnings.
"""

from __future__ import annotations

import uuid
from typing import Any

from engine.errors import IllegalAction
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay import carry
from replay.amendment_kinds import undo_writes
from replay.amendments import numbered_events, split_stream


def record_again(ledger: Any, hand: str, *, session: str, new: str | None = None,
                 note: Any = lambda line: None) -> str:
    """Append the voided ``hand``'s events as they stood before its void (its corrections in
    force applied) as a new hand ``new`` (default: generated as ``hand start`` does) of
    ``session``; return its id. ``note`` gets ``hand start``'s warning lines for the seats
    (:func:`replay.live.start.book_warnings`).

    Raises:
        NotFound: no such hand, or no such session; LedgerError: the hand is not voided (void
            it first), is recorded again already, or records again a hand not voided (a hand
            not voided holds its events: :func:`replay.correction_checks.counted_elsewhere`),
            was read from a file (its file is the hand: import it with ``--session`` into a
            new ledger), counts money
            or carries chips (a hand of no session carries none), the id is taken, the
            session is closed, or a seat is not in its books or in another of its hands
            still in play (as ``hand start``, led by ``hand HAND, recorded again in
            SESSION:``);
            IllegalAction: the events do not replay (they did before the void).
    """
    from ledger.model.events import AGAIN_OF
    from ledger.model.names import check_hand_id
    from ledger.store.streams import first_rows, seated_in
    from replay.correction_checks import counted_elsewhere
    from replay.fold import fold
    from replay.live.continuity import not_in_play
    from replay.live.start import book_warnings, check_bought_in, labeller, played_in
    from replay.sessions import open_state
    from replay.sessions.state import series_names

    rows = ledger.read(hand)
    events = before_void(hand, rows)
    started = events[0]
    if "file" in started.source or started.unit.currency is not None or (
            started.unit.minor_per_chip, started.unit.decimals) != (1, 0):
        raise LedgerError(
            f"hand {hand} was read from a file{' in money' if started.unit.currency else ''}: "
            "its file is the hand; to have it in a session, import the file into a new "
            f"ledger (`handledger --db NEW import --session {shell_arg(session)} FILE`)")
    if any(e.type == "carry_over" for e in events):
        raise LedgerError(f"hand {hand} carries chips to or from another hand (RULES.md §7.1): "
                          "recorded again it would carry them twice")
    names = series_names(ledger)
    state = open_state(ledger, session, players=names)
    if new is None:
        count = len(ledger.streams(kind="hand", session=session))
        new = f"{session}-{count + 1}-{uuid.uuid4().hex[:6]}"
    elif first_rows(ledger, [check_hand_id(new)]):
        raise LedgerError(f"hand {new!r} is already in the ledger: give another --hand, or "
                          "none for a generated id")
    if (found := counted_elsewhere(ledger, hand, started)) is not None:
        raise _counted(hand, *found)
    again = [started.model_copy(update={"hand": new, "session": session,
                                        "source": {**started.source, AGAIN_OF: hand}}),
             *events[1:]]
    fold(again)  # legal as before: the same events
    seated = seated_in(ledger, session)
    try:
        check_bought_in(ledger, session, state, [s.player for s in again[0].seats], seated,
                        names)
        ledger.check_tail()
        not_in_play(ledger, session, again[0], names, labeller(ledger))
    except LedgerError as exc:
        raise _of_the_voided(exc, hand, new, session) from None
    batches = carry.link([Batch(new, again, new, session, None)], carry.previous_in(ledger))
    played = played_in(ledger, session, seated)  # before the new hand is in
    ledger.append_many(batches)
    for line in book_warnings(ledger, state, session, new, again[0], played, names):
        note(line)
    return new


def _counted(hand: str, how: str, other: str) -> LedgerError:
    """The refusal of ``hand`` recorded again while ``other``, not voided, holds its events
    (``how``: :func:`replay.correction_checks.counted_elsewhere`)."""
    void = f"`handledger void {shell_arg(other)} --reason … --by …`"
    if how == "copy":
        return LedgerError(
            f"hand {hand} is recorded again already, as hand {other}: a second copy would "
            f"count it twice (void {other} first to record it elsewhere: {void})")
    said = (f"hand {hand} records hand {other} again, which is not voided" if how == "original"
            else f"hand {other} records the same hand as {hand} and is not voided")
    return LedgerError(f"{said}: a second copy would count it twice (void {other} first: "
                       f"{void})")


def _of_the_voided(exc: LedgerError, hand: str, new: str, session: str) -> LedgerError:
    """``exc``, a refusal of the seats, led by the hand being recorded again (``hand n1,
    recorded again in s: …``) rather than the new id, which nobody has seen yet. Another
    kind of error (a broken chain's) is ``exc`` as it is."""
    if type(exc) is not LedgerError:
        return exc
    message = exc.message.removeprefix(f"hand {new}: ")
    return LedgerError(f"hand {hand}, recorded again in {session}: {message}")


def before_void(hand: str, rows: list[Any]) -> list[Any]:
    """The events of ``hand`` (its stored ``rows``, by seq) as they stood just before the void
    in force: its corrections before it applied, the void and its own correction (which drops
    an ended hand's end) left out.

    Raises:
        LedgerError: no void is in force (``hand again`` records a voided hand again).
    """
    events = [r.event for r in rows]
    _, _, voids = split_stream(events)
    if not voids:
        raise LedgerError(
            f"hand {hand} is not voided: recorded again it would count twice; void it first "
            f"(`handledger void {shell_arg(hand)} --reason … --by …`), then record it again")
    seq = voids[-1].seq
    write = next(w for w in undo_writes(rows) if any(r.seq == seq for r in w))
    cut = min(r.seq for r in write)  # the void's write: its own correction, then the void
    try:
        numbered, _ = numbered_events(events[:cut - 1])
    except IllegalAction as exc:  # a stream that did not apply before its void
        raise LedgerError(f"hand {hand}: its events before the void do not apply: {exc}") from None
    return [n.event for n in numbered]
