"""Taking back many hands, or a whole session, in one write: ``void HAND HAND ...`` and
``session void SESSION`` (a session imported into the wrong ledger, a night recorded under the
wrong name). History is never rewritten: each hand gets the void ``void`` appends and each book
entry the retraction ``entry retract`` appends, checked by the same code
(:func:`replay.corrections.void_checked`, :func:`replay.sessions.amending.correction_checked`),
all in one transaction: a refusal anywhere writes nothing.

The hands are voided latest first, so that each void is checked with every later hand of the
set voided already (a hand in play is voided after the hands started beside it:
:func:`replay.later_hands.stacks_followed`). The later hands whose start the voids leave
unfollowed are looked for once, with every void in: a later hand voided too starts nothing the
books follow and is not warned of (:func:`replay.whatif.downstream_of`), so a whole session
voided warns of nothing. Chips one hand of the set carried to hands of the set alone go back
to its players, and those hands pass nothing on (:func:`replay.corrections.void_checked`'s
``together``). A session's entries are retracted after its hands, latest first, so
that no retraction leaves a hand seating a player with chips nobody bought, nor the cash-outs
above the buy-ins (:func:`replay.sessions.amending.check_correction`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import IllegalAction
from ledger.model.errors import LedgerError, MalformedInput, locating
from ledger.store.keys import KeyStore
from ledger.store.proven import prove_before_writing
from ledger.store.streams import read_streams
from replay.amendments import split_stream
from replay.carry import takers as takers_of
from replay.corrections import VoidChecked, Voided, closed_flag_on_hands, void_checked
from replay.later_hands import void_downstream
from replay.sessions.amending import correction_checked
from replay.sessions.opening import hands_in_play
from replay.sessions.state import (
    ENTRY_TYPES,
    append_entry,
    closed_flag_on_open,
    no_session,
    session_names,
    session_state,
)
from replay.whatif import Downstream, SessionHands, with_refusals


@dataclass(frozen=True)
class HandsVoided:
    """What ``void HAND HAND ...`` appended: each hand and its void (ledger order; their
    ``downstream`` empty), and the later hands of their sessions, not voided, whose starting
    stacks the voids together leave the books no longer following (``downstream``: one
    :class:`replay.whatif.Downstream` a hand and player, ``was`` the stack the books expected
    before the voids, ``expected`` the one they expect now)."""

    hands: list[tuple[str, Voided]]
    downstream: list[Downstream]


def void_hands(ledger: Any, hands: Sequence[str], *, reason: str, by: str,
               keys: KeyStore | None = None, sign: str | None = None,
               closed: bool = False) -> HandsVoided:
    """Void every hand of ``hands`` in one write, each as :func:`replay.corrections.void`
    voids it (signed with the key ``sign`` of ``keys`` when given; ``closed`` as there), the
    latest first (module doc); then the later hands left unfollowed are looked for once,
    with every void in (:func:`_unfollowed`).

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read.
        MalformedInput: a hand given twice; NotFound: no such hand, or no private key
            ``sign``; LedgerError: ``closed`` given and no hand is of a closed session but
            one is of an open one (:func:`replay.corrections.closed_flag_on_hands`);
            IllegalAction: a hand already voided, or any refusal of ``void``,
            naming the hand (nothing of any hand written).
    """
    twice = [h for h, n in Counter(hands).items() if n > 1]
    if twice:
        raise MalformedInput(f"hand {twice[0]} is given twice; nothing written")
    prove_before_writing(ledger)
    if closed:
        closed_flag_on_hands(ledger, hands, "void")
    stored = read_streams(ledger, hands)  # one query; a void appends to its own hand alone
    for hand in hands:  # every hand found and not voided before anything is written
        with locating(hand=hand):
            rows = stored.get(hand) or ledger.read(hand)  # not stored: read() names it
            if split_stream([r.event for r in rows])[2]:
                raise IllegalAction("the hand is already voided; nothing written", hand=hand)
    with ledger.transaction():
        done = _void_latest_first(ledger, _in_ledger_order(ledger, hands), reason=reason,
                                  by=by, keys=keys, sign=sign, closed=closed, stored=stored)
        later = _unfollowed(ledger, done)
    return HandsVoided([(c.hand, c.voided) for c in done], later)


def _in_ledger_order(ledger: Any, hands: Collection[str]) -> list[str]:
    """``hands`` in the order of their first rows in the ledger."""
    first = dict(ledger.query(
        "SELECT hand_id, min(position) FROM events WHERE list_contains($1, hand_id)"
        " GROUP BY hand_id", [list(hands)]))
    return sorted(hands, key=lambda h: first[h])


def _void_latest_first(ledger: Any, hands: list[str], *, reason: str, by: str,
                       keys: KeyStore | None, sign: str | None, closed: bool,
                       stored: dict[str, Sequence[Any]]) -> list[VoidChecked]:
    """Check and append the void of each of ``hands`` (in ledger order; ``stored``: their
    rows, :func:`ledger.store.streams.read_streams`, each let go once its hand is checked:
    the void keeps the events it needs), the latest first, in the caller's
    transaction; the voids appended, in ledger order. The later hands each leaves unfollowed
    are not looked for (:func:`_unfollowed`).

    The checks of a hand of no session read no other hand's rows but the ``carry_over`` ins
    (:func:`replay.carry.takers`, read once: a void appends none), so the voids go in together,
    in that order, with one insert (:meth:`ledger.store.store.Ledger.append_after`), before
    the checks of a hand of a session, which read its later hands as the voids leave them."""
    out: list[VoidChecked] = []
    together = set(hands)
    takers = takers_of(ledger)
    waiting: list[VoidChecked] = []
    for hand in reversed(hands):
        rows = stored.pop(hand)
        if rows[0].session is not None:
            _append(ledger, waiting)
        with locating(hand=hand):
            checked = void_checked(ledger, hand, reason=reason, by=by, keys=keys,
                                   sign=sign, closed=closed, look_later=False,
                                   together=together, rows=rows, takers=takers)
        waiting.append(checked)
        out.append(checked)
    _append(ledger, waiting)
    return out[::-1]


def _append(ledger: Any, voids: list[VoidChecked]) -> None:
    """Append the rows of the voids checked ``voids`` in their order, with one insert, and
    empty the list."""
    if voids:
        ledger.append_after([(c.hand, c.events, c.expected_seq) for c in voids])
        voids.clear()


def _unfollowed(ledger: Any, done: list[VoidChecked]) -> list[Downstream]:
    """The later hands of the sessions of the voids ``done`` (ledger order, all appended)
    whose start of a player no longer follows (:func:`replay.later_hands.void_downstream`
    of each, read with every void in): a hand and player once, as the latest void before it
    names them (its ``was`` is what the books expected before the voids), each hand's way to
    follow checked with all its players' stacks (:func:`replay.whatif.with_refusals`), but
    those dealt on the voided hands as they stood, which stand as played."""
    found: dict[tuple[str, str], Downstream] = {}
    known: dict[str, SessionHands] = {}  # each session's hands read and replayed once
    for c in reversed(done):
        for d in void_downstream(ledger, c.hand, c.session, c.stored, c.voided.hand, known):
            found.setdefault((d.hand, d.player), replace(d, refused=None))
    order = {h: k for k, h in enumerate(_in_ledger_order(ledger, {h for h, _ in found}))}
    ordered = sorted(found.values(), key=lambda d: order[d.hand])
    followed = iter(with_refusals(ledger, [d for d in ordered if not d.as_stood]))
    return [d if d.as_stood else next(followed) for d in ordered]


@dataclass(frozen=True)
class SessionVoided:
    """What ``session void`` appended: the hands voided (ledger order), the book entries
    retracted by type (``{"buy_in": 8}``), what it passed over, voided or retracted
    already (``hands_before``, ``entries_before``), and the hands among ``hands`` that were
    still in play (``in_play``, ledger order)."""

    session: str
    hands: list[str]
    retracted: dict[str, int] = field(default_factory=dict)
    hands_before: int = 0
    entries_before: int = 0
    in_play: list[str] = field(default_factory=list)


def void_session(ledger: Any, session: str, *, reason: str, by: str,
                 keys: KeyStore | None = None, sign: str | None = None,
                 closed: bool = False) -> SessionVoided:
    """Void every hand of ``session`` and retract every buy-in, cash-out and payment of its
    books in one write (module doc): afterwards every player's net there is 0 and the books
    hold nothing of it. A hand voided already and an entry retracted already are passed
    over; a hand still in play is voided with the others, in the same write
    (``SessionVoided.in_play`` names it). The session stays opened (or closed), with its
    aliases: only its hands and book entries are taken back. ``closed``: go in though the
    session is closed (its books were settled up at the close; README "A closed session's
    one rule").

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read.
        NotFound: no session ``session`` (neither opened nor named by a hand), or no private
            key ``sign``; LedgerError: the session is closed (without ``closed``), or
            nothing is left to take back; IllegalAction, LedgerError: any refusal
            of ``void`` or ``entry retract`` of one of its hands or entries, naming it
            (nothing written).
    """
    prove_before_writing(ledger)
    state = session_state(ledger, session)
    hands = ledger.streams(kind="hand", session=session)
    if not state.opened and not hands:
        raise no_session(session, session_names(ledger), to_open=False)
    if closed and state.opened:
        closed_flag_on_open(state, session, f"session void {session} --closed")
    if state.closed and not closed:
        raise LedgerError(
            f"session {session} is closed (entry {state.closed_seq}; its books were settled "
            "up at the close): voiding its hands and retracting its entries changes them; "
            "nothing written; --closed records it anyway")
    playing = hands_in_play(ledger, session)  # voided with the rest, in the same write
    stored = read_streams(ledger, hands)
    to_void = [h for h in hands if not split_stream([r.event for r in stored[h]])[2]]
    entries = sorted(s for s, e in state.entries.items()
                     if e.type in ENTRY_TYPES and s not in state.retracted)
    if not hands and not state.entries:
        raise LedgerError(f"session {session} holds no hand and no book entry: nothing to "
                          "void; nothing written")
    if not to_void and not entries:
        n, m = len(hands), len(state.retracted)
        hands_said = {0: "it holds no hand", 1: "its hand is voided already"}.get(
            n, f"its {n} hands are voided already")
        entries_said = {0: "it has no book entry", 1: "its book entry is retracted already"}.get(
            m, f"its {m} book entries are retracted already")
        raise LedgerError(f"session {session} has nothing to void: {hands_said} and "
                          f"{entries_said}; nothing written")
    retracted: Counter[str] = Counter()
    with ledger.transaction():  # every later hand voided: none left unfollowed to look for
        _void_latest_first(ledger, to_void, reason=reason, by=by, keys=keys, sign=sign,
                           closed=True,  # a closed session is let in above, as a whole
                           stored=stored)
        for seq in reversed(entries):
            entry, _, fix, now = correction_checked(ledger, session, seq, None,
                                                    reason=reason, by=by,
                                                    closed=state.closed)  # let in above
            append_entry(ledger, session, fix, now)
            retracted[entry.type] += 1
    return SessionVoided(session, to_void, dict(retracted), len(hands) - len(to_void),
                         len(state.retracted), [h for h in to_void if h in set(playing)])
