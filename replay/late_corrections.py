"""A correction found after the chips moved on (README "A correction after the chips moved
on"): the chips at the table are facts, and a correction appended later changes what is
owed, not the chips later hands were played with.

A correction or void of a hand appended after a later event of its session took the hand's
chips (the session's next hand dealt, seating one of its players; a cash-out) leaves that
event as recorded. The books (:class:`ledger.audit.books.SeriesFold`) take such a start or
cash-out either by the hand as corrected or by the hand as it stood when the event was
recorded (:attr:`ledger.audit.books.StartCheck.stood`): the audit's ``stack_continuity`` and
``session_balance`` find neither. The nets go by the hand as corrected, so each player's
difference (the corrected net less the net as it stood) is money that ``settle`` asks for;
:func:`late_corrections` names each such correction, and ``audit``, ``settle`` and
``balances`` say it in a note (:func:`late_lines`).

:func:`revisions` reads what the books need of the ledger: for each hand corrected or voided
after such a later event, the hand as it stood before each of its corrections and voids.
Reads only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.audit.books import HandFacts, Revision, Revisions, hand_facts
from ledger.model.errors import LedgerError

#: The hands with a correction or void appended after a later event of their session that
#: took their chips: the session's next hand dealt, or a cash-out, after the hand's start and
#: before the correction (the first such event after each corrected hand's start, found by an
#: as-of join: one pass, however many corrections a ledger holds). ``{source}``: the relation
#: of the events table's rows read (the ledger's ``events``, a partition of a Parquet export).
_LATE = """
WITH f AS (SELECT stream, session, position FROM {source}
           WHERE type IN ('correction', 'hand_voided') AND hand_id IS NOT NULL
             AND session IS NOT NULL AND ($1 IS NULL OR list_contains($1, session))),
     h AS (SELECT stream, session, position FROM {source}
           WHERE seq = 1 AND stream IN (SELECT stream FROM f)),
     d AS (SELECT session, position FROM {source}
           WHERE type IN ('hand_started', 'cash_out') AND session IN (SELECT session FROM f)),
     n AS (SELECT h.stream, d.position AS next FROM h
           ASOF JOIN d ON d.session = h.session AND d.position > h.position)
SELECT DISTINCT f.stream FROM f JOIN n ON n.stream = f.stream WHERE n.next < f.position
ORDER BY f.stream
"""
#: The rows of those hands, each hand's by seq.
_ROWS = """
SELECT stream, position, seq, type, payload FROM {source}
WHERE list_contains($1, stream) ORDER BY stream, seq
"""


def revisions(ledger: Any, sessions: Sequence[str] | None = None) -> Revisions:
    """``{hand: revisions}`` (:class:`ledger.audit.books.Revision`, ledger order) of every
    hand of ``sessions`` (None: of every session) that was corrected or voided after a later
    event of its session took its chips: per correction or void of it, its facts as it stood
    before that row (chips; a prefix the rules refuse: facts whose chips are unknown). Empty
    for a ledger with none (every ledger before such a correction). Reads only
    (:func:`revisions_in` of the ledger's events).

    Raises:
        MalformedEvent: a stored payload of such a hand that does not parse."""
    return revisions_in(ledger.connection, "events", sessions)


def revisions_in(con: Any, source: str, sessions: Sequence[str] | None = None) -> Revisions:
    """:func:`revisions` of the rows of ``source``, a relation of the events table's columns
    (``position``, ``stream``, ``hand_id``, ``session``, ``seq``, ``type``, ``payload``) on
    the DuckDB connection ``con`` holding whole sessions: the ledger's ``events``, or a
    partition of a Parquet export (:mod:`replay.partition`), which finds what the ledger
    finds of its sessions. Reads only.

    Raises:
        MalformedEvent: a stored payload of such a hand that does not parse."""
    from ledger.model.events import parse_stored

    hands = [h for (h,) in con.execute(
        _LATE.format(source=source), [None if sessions is None else list(sessions)]).fetchall()]
    if not hands:
        return {}
    streams: dict[str, list[tuple[int, int, Any]]] = {}
    for hand, position, seq, type_, payload in con.execute(_ROWS.format(source=source),
                                                          [hands]).fetchall():
        streams.setdefault(hand, []).append((position, seq, parse_stored(type_, payload)))
    out: dict[str, tuple[Revision, ...]] = {}
    for hand in hands:
        found = _revisions_of(hand, streams[hand])
        if found:
            out[hand] = found
    return out


def _revisions_of(hand: str, rows: list[tuple[int, int, Any]]) -> tuple[Revision, ...]:
    """The revisions of ``hand`` from its rows ``(position, seq, event)`` by seq: per
    correction or void, the hand as it stood before it."""
    from replay.fold import replay_events

    events = [e for _, _, e in rows]
    first = events[0]
    session = first.session if first.type == "hand_started" else None
    found = []
    for i, (position, seq, event) in enumerate(rows):
        if event.type not in ("correction", "hand_voided"):
            continue
        try:
            before = hand_facts(replay_events(events[:i], session=session), ord=0,
                                position=rows[0][0], unit=first.unit)
        except LedgerError as exc:
            before = HandFacts(hand=hand, session=session, ord=0, position=rows[0][0],
                               game="?", status="unreplayable", starting={},
                               contributions={}, paid=None, net={}, pot_out=None,
                               error=str(exc))
        found.append(Revision(position, seq, event.by, event.reason, before,
                              voids=event.type == "hand_voided"))
    return tuple(found)


@dataclass(frozen=True)
class LateCorrection:
    """A correction or void (``seq`` of ``hand``, ``by``, ``reason``; ``voided``: the hand is
    voided now) appended after later
    events of ``session`` took the hand's chips as it stood (``after``: what they were, in
    ledger order: ``hand X was dealt``, ``the cash-outs``), each of which stands as
    recorded: ``owed`` per player, chips, the net as corrected now less the net as it stood
    then, which ``settle`` asks for in money. ``later``: ``(seq, by, reason)`` of each
    correction or void of the hand appended after this one (a void's ``hand_voided`` row
    not named apart from its own correction), whose chips ``owed`` counts too: the hand as
    it stands now against the hand those events followed. ``unheld``: per player, the part
    of ``owed`` (chips) that no net holds (the correction changed a start, not a result):
    chips a player had at the table beyond the books (negative) or the books give him beyond
    the chips he had (positive), which ``settle`` asks of him with the bank, no player's
    result owing them (README "A correction after the chips moved on"); empty when the nets
    hold it all."""

    session: str
    hand: str
    seq: int
    by: str
    reason: str
    after: tuple[str, ...]
    owed: tuple[tuple[str, int], ...]
    voided: bool = False
    later: tuple[tuple[int, str, str], ...] = ()
    unheld: tuple[tuple[str, int], ...] = ()

    def words(self) -> str:
        """``hand f2 corrected after the cash-outs (seq 21, by host: typo): Ann +100, Cy -100
        chips owed in settle``; with later corrections, each named in order, the chips owed
        by them all: ``(seq 19, by f: wrong; then seq 20, by host: chopped): …``; a part in
        no net (``unheld``) named with the player: ``Ann -20 (with the bank)``, ``Ann -24
        (-20 with the bank)``."""
        bank = dict(self.unheld)

        def each(p: str, n: int) -> str:  # the part in no net: ``Ann -24 (-20 with the bank)``
            part = bank.get(p, 0)
            return f"{p} {n:+d}" + ("" if not part else " (with the bank)" if part == n
                                    else f" ({part:+d} with the bank)")

        owed = ", ".join(each(p, n) for p, n in self.owed)
        done = "voided" if self.voided else "corrected"
        which = "; then ".join(f"seq {seq}, by {by}: {reason}" for seq, by, reason in
                               ((self.seq, self.by, self.reason), *self.later))
        return (f"hand {self.hand} {done} after {' and '.join(self.after)} ({which}): "
                f"{owed} chips owed in settle")

    def as_json(self) -> dict[str, Any]:
        """``session``, ``hand``, ``seq``, ``by``, ``reason``, ``after`` (list), ``owed``
        (``{player: chips}``), ``voided`` (the hand is voided now); ``later`` (``[{"seq",
        "by", "reason"}]``) only when corrections or voids of the hand came after this one,
        ``owed`` counting them too; ``unheld`` (``{player: chips}``) only when some of
        ``owed`` is in no net."""
        out = {"session": self.session, "hand": self.hand, "seq": self.seq, "by": self.by,
               "reason": self.reason, "after": list(self.after), "owed": dict(self.owed),
               "voided": self.voided}
        if self.later:
            out["later"] = [{"seq": seq, "by": by, "reason": reason}
                            for seq, by, reason in self.later]
        if self.unheld:
            out["unheld"] = dict(self.unheld)
        return out


def late_corrections(ledger: Any, session: str | None = None) -> list[LateCorrection]:
    """Every correction or void of a hand of ``session`` (None: of every session) that a
    later start or cash-out of its session followed as the hand stood before it
    (:attr:`ledger.audit.books.StartCheck.as_stood`), in ledger order of the correction:
    what it leaves owed (module doc). Only the sessions with such a hand are replayed; none
    for a ledger without one. Reads only."""
    late = revisions(ledger, None if session is None else [session])
    if not late:
        return []
    sessions = dict.fromkeys(r.before.session for rs in late.values() for r in rs
                             if r.before.session is not None)
    out: list[tuple[int, LateCorrection]] = []
    for name in sessions:
        book = _book(ledger, name, late)
        if book is not None:
            out.extend(_of_book(name, book, late))
    return [c for _, c in sorted(out, key=lambda item: item[0])]


def _book(ledger: Any, session: str, late: Revisions) -> Any:
    """The book of ``session`` folded as the audit folds it, ``late`` its revisions; None
    when a hand of it does not replay (the audit names it)."""
    from ledger.audit.books import build_series
    from ledger.audit.load import session_rows
    from replay.fold import replay_events
    from replay.sessions.state import series_names

    facts = []
    for k, hand in enumerate(ledger.streams(kind="hand", session=session), 1):
        stored = ledger.read(hand)
        try:
            replayed = replay_events([r.event for r in stored], session=session)
        except LedgerError:
            return None
        facts.append(hand_facts(replayed, ord=k, position=stored[0].position,
                                unit=stored[0].event.unit))
    series = build_series(session_rows(ledger, sessions=[session]), facts,
                          aliases=series_names(ledger), revised=late)
    book = series.sessions.get(session)
    return book if book is not None and book.followed else None


def late_of_books(books: Mapping[str | None, Any], late: Revisions
                  ) -> list[tuple[int, LateCorrection]]:
    """The :class:`LateCorrection` of each revision of ``late`` that a start or cash-out of
    ``books`` (``{session: book}``, each with its ``hands``, ``starts`` and ``cash_outs``: a
    :class:`ledger.audit.books.SessionBook`, or what
    :attr:`ledger.audit.stream.StreamAudit.stood` keeps of one) followed as it stood, each
    with the ledger position of the correction: what a replay folded apart (a partition of
    :mod:`replay.partition`) gives :func:`late_corrections`'s notes from."""
    return [item for name, book in books.items() if name is not None
            for item in _of_book(name, book, late)]


def _of_book(session: str, book: Any, late: Revisions) -> Iterable[tuple[int, LateCorrection]]:
    """The :class:`LateCorrection` of each revision some start or cash-out of ``book``
    followed as it stood, with its ledger position (``late``: every revision of the hands,
    the later ones named in it)."""
    found: dict[int, tuple[Revision, list[str], dict[str, int], dict[str, int]]] = {}
    events: list[tuple[int, str, Revision, str, int]] = []
    position = {h.hand: h.position for h in book.hands}
    voided = {h.hand for h in book.hands if h.status == "voided"}
    for s in book.starts:
        if s.as_stood and s.revision is not None and s.expected is not None:
            events.append((position[s.hand], f"hand {s.hand} was dealt", s.revision, s.player,
                           s.expected - s.actual))
    for c in book.cash_outs:
        if c.as_stood and c.revision is not None and c.expected is not None:
            events.append((c.position, "the cash-outs", c.revision, c.player,
                           c.expected - c.actual))
    for at, what, revision, player, owed in sorted(events, key=lambda e: e[0]):
        _, after, players, unheld = found.setdefault(revision.position, (revision, [], {}, {}))
        if what not in after:
            after.append(what)
        players[player] = players.get(player, 0) + owed
        unheld[player] = unheld.get(player, 0) + _start_moved(book.hands, late, at, player)
    for at, (revision, after, players, unheld) in found.items():
        hand = revision.before.hand
        yield at, LateCorrection(session, hand, revision.seq, revision.by, revision.reason,
                                 tuple(after), tuple(players.items()), hand in voided,
                                 _later(late.get(hand, ()), revision),
                                 tuple((p, n) for p, n in unheld.items() if n))


def _start_moved(hands: Sequence[Any], late: Revisions, at: int, player: str) -> int:
    """The chips of a start or cash-out of ``player`` at ledger position ``at``, followed as
    a hand stood, that no net holds: the start of the hand the books now count him from (his
    last hand before it not voided, :class:`ledger.audit.books.HandFacts`) as it stands less
    that start as it stood then (before its first correction appended after ``at``); 0 when
    that start is unchanged, he has no such hand (his buy-ins count), or it did not replay."""
    last = next((h for h in reversed(hands) if h.position < at and h.status != "voided"
                 and h.error is None and player in h.starting), None)
    if last is None:
        return 0
    then = next((r.before for r in late.get(last.hand, ()) if r.position > at), None)
    if then is None or then.error is not None:
        return 0
    return last.starting[player] - then.starting.get(player, last.starting[player])


def _later(revisions: Sequence[Revision], first: Revision) -> tuple[tuple[int, str, str], ...]:
    """``(seq, by, reason)`` of each of ``revisions`` after ``first``: a void's
    ``hand_voided`` row, written with its own correction just before it (reason ``void: …``,
    its author), is that void, named once."""
    from replay.amendment_kinds import own_correction

    out: list[tuple[int, str, str]] = []
    previous = first
    for r in revisions:
        if r.position <= first.position:
            continue
        if not (r.voids and not previous.voids and previous.seq == r.seq - 1
                and own_correction(previous, r)):
            out.append((r.seq, r.by, r.reason))
        previous = r
    return tuple(out)


def late_lines(corrections: Sequence[LateCorrection]) -> list[str]:
    """A ``note:`` line per :class:`LateCorrection`, as ``audit`` and ``settle`` say it."""
    return [f"note: {c.words()}" for c in corrections]
