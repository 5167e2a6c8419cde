"""A buy-in amended to fewer chips than a hand already seated its player with, and a buy-in
amended while its player sits in a hand still in play (``entry amend``; a file's
``entry_corrected`` row: :mod:`replay.ingest.entry_amends`).

The books follow a player's stack from hand to hand (the audit's ``stack_continuity``): the
first hand that seats him after a buy-in starts him with his stack after his previous hand
(none: nothing) plus what he bought between. ``hand start`` seats nobody with chips nobody
bought, and ``entry retract`` does not take back all a player bought while a hand after it
seats him; an amendment that lowers a buy-in below what that hand started him with would
make those chips nobody's, so it is refused naming the entry, the player, the hand and the
chips (RULES.md §1.1: only the chips bought come to the table). A retraction is an amendment to 0
chips, bound the same way (part of what he bought: a rebuy, one buy-in of two), and so is
the ``undo`` of a void that would count a hand again after such a retraction. And as
``buyin`` adds no chips while the player sits in a hand still in play, ``entry amend``
changes none of his buy-ins then.
"""

from __future__ import annotations

from typing import Any

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.sessions.state import Place, SessionState, alias_group, series_names


def seated_with_bought(ledger: Any, session: str, state: SessionState, seq: int,
                       chips: int, where: str, *, place: Place | None = None,
                       retracting: bool = False) -> None:
    """Refuse the buy-in at ``seq`` of ``session`` (``state``: the books before the
    amendment) amended to ``chips``, fewer than it has (``retracting``: retracted, an
    amendment to 0 chips, which the refusal does not name), when the first hand of the session,
    not voided, that seats its player (under any of his names) after it would then start him
    with more chips than the books give him there (module doc). ``where``: ``"entry amend
    fri 2 (buy-in of Ann)"``; ``place``: a file's row (:class:`replay.sessions.state.Place`),
    stored with the rest of its file: that hand may come before it (the books as the row
    found them) or after it in the file (the books as that hand found them, the row's
    amendment in them; none when the file amends the entry again before that hand, which
    bounds that amendment instead). A hand whose stack the books do not know (the hand before
    it recorded no payouts) bounds nothing.

    Raises:
        LedgerError: one line naming ``where``, ``chips``, the hand, the player, the chips he
            started it with and those the books would give him.
    """
    entry = state.entries[seq]
    at = entry_position(ledger, session, seq)
    after, before = _hands_around(ledger, session, entry.player, entry_place(ledger, session,
                                                                             seq))
    if after is None:
        return
    upto = None if place is None else max(place.position, after[2])
    if place is not None and after[2] > place.position and _amended_again(
            ledger, session, seq, place.position, after[2]):
        return
    check = _start_check(ledger, session, upto, at, entry.model_copy(update={"chips": chips}),
                         before, after)
    if check is None or check.expected is None or check.actual <= check.expected:
        return
    said = "" if retracting else f" {chips} chips:"
    raise LedgerError(
        f"{where}:{said} {_unbought(check)} (RULES.md §1.1); nothing written (a hand seated "
        "with the wrong stack is corrected or voided first; `handledger history --session "
        f"{shell_arg(session)}` lists the entries)")


def unbought_again(ledger: Any, session: str, state: SessionState, seq: int, hand: str,
                   replayed: Any) -> str | None:
    """The bound of :func:`seated_with_bought` on putting ``hand`` back in the books (an
    ``undo`` of its void; ``replayed``: its :class:`replay.hand_replay.HandReplay` then)
    after the buy-in at ``seq`` of ``session`` was retracted (``state``: the books now, the
    retraction in them, as a retraction is an amendment to 0 chips): when ``hand`` is the
    first hand counted after that buy-in that seats its player and would start him with more
    chips than the books give him there, the words naming the hand, the player and the
    chips (``"hand x1 seats Ann with 150 chips, and Ann's buy-ins there would come to 100:
    it would start Ann with 50 chips nobody bought"``); None otherwise (RULES.md §1.1)."""
    entry = state.entries[seq]
    at = entry_position(ledger, session, seq)
    after, before = _hands_around(ledger, session, entry.player, entry_place(ledger, session,
                                                                             seq),
                                  counting=(hand, replayed))
    if after is None or after[0] != hand:
        return None
    check = _start_check(ledger, session, None, at, entry, before, after)
    if check is None or check.expected is None or check.actual <= check.expected:
        return None
    return _unbought(check)


def amended_start_warning(ledger: Any, session: str, seq: int, amended: Any) -> str | None:
    """A ``warning:`` line when the buy-in at ``seq`` of ``session``, just stored amended to
    ``amended`` (:class:`ledger.model.events.BuyIn`), leaves the first hand of the session,
    not voided, that seats its player (under any of his names) after it starting him with
    other than the books give him there (his stack after his hand before it, none: nothing,
    plus his buy-ins between; RULES.md §1.1): it names the entry, the hand, the player, the
    chips the hand seats him with, the books' and the amount that agrees with the hand, as
    the audit's ``stack_continuity`` will name it. None when they agree, no hand after it
    seats him, or his stack is not known (a hand before it recorded no payouts). The
    amendment stands: it is the host's statement."""
    at = entry_position(ledger, session, seq)
    after, before = _hands_around(ledger, session, amended.player, entry_place(ledger, session,
                                                                               seq))
    if after is None:
        return None
    check = _start_check(ledger, session, None, at, amended, before, after)
    if check is None or check.expected is None or check.actual == check.expected:
        return None
    who, off = check.player, check.actual - check.expected
    basis = _since_cash_out(check, "bought") if check.cashed is not None else (
        f"{who} left hand {check.previous} with {check.expected - check.bought} and "
        f"bought {check.bought} since" if check.previous is not None
        else f"{who}'s buy-ins there come to {check.bought}")
    agrees = amended.chips + off
    fix = (f"; a wrong amount is amended again (`handledger entry amend {shell_arg(session)} "
           f"{shell_arg(seq)} "
           f"{shell_arg(agrees)} --reason … --by …`)" if agrees >= 1 else "")
    return (f"warning: entry {seq} (buy-in of {amended.player}, {amended.chips} chips): hand "
            f"{check.hand} seats {who} with {check.actual} chips, but {basis}: expected "
            f"{check.expected} ({off:+d}); the books no longer follow the hands' stacks, and "
            f"the audit's stack_continuity will name it{fix}")


def _unbought(check: Any) -> str:
    """The words of a failed start check (:class:`ledger.audit.books.StartCheck`)."""
    who = check.player
    basis = _since_cash_out(check, "would have bought") if check.cashed is not None else (
        f"{who} left hand {check.previous} with {check.expected - check.bought} and "
        f"would have bought {check.bought} since" if check.previous is not None
        else f"{who}'s buy-ins there would come to {check.bought}")
    return (f"hand {check.hand} seats {who} with {check.actual} chips, and {basis}: it would "
            f"start {who} with {_chips(check.actual - check.expected)} nobody bought")


def _since_cash_out(check: Any, bought: str) -> str:
    """The books' side of a start check of a player who cashed out since his previous hand
    (``check.cashed``): his cash-out (its entry) and what he ``bought`` (the verb) since,
    not what he left that hand with (the cash-out took it off the table, RULES.md §1.1)."""
    chips, entry = check.cashed
    which = f" (entry {entry})" if entry is not None else ""
    after = f" after hand {check.previous}" if check.previous is not None else ""
    return (f"{check.player} cashed out {chips}{which}{after} and {bought} "
            f"{check.bought or 'nothing'} since")


def _hands_around(ledger: Any, session: str, player: str, at: int, *,
                  counting: tuple[str, Any] | None = None) -> tuple[Any, Any]:
    """``(after, before)``: the first hand of ``session`` after ledger position ``at`` that
    seats ``player`` (under any of his names) and counts (a voided hand counts for nothing in
    the books), as ``(id, replay, first position)``, and the last such before it as
    ``(replay, first position)``; either None. ``counting``: a hand (id, replay) counted as
    that replay has it, though stored voided. Only those hands are replayed."""
    from ledger.store.streams import hands_seating

    hands = [h for h, _, _ in hands_seating(ledger, session, {player} | alias_group(
        ledger, player))]
    starts = sorted((start, hand) for hand, start in ledger.query(
        "SELECT hand_id, min(position) FROM events WHERE list_contains($1, hand_id)"
        " GROUP BY hand_id", [hands]))

    def counted(hand: str) -> Any:
        if counting is not None and hand == counting[0]:
            return counting[1]
        return _counted(ledger, hand, session)

    after = next(((hand, r, start) for start, hand in starts
                  if start > at and (r := counted(hand)) is not None), None)
    before = None if after is None else next(
        ((r, start) for start, hand in reversed(starts)
         if start < at and (r := counted(hand)) is not None), None)
    return after, before


def amended_between_hands(ledger: Any, session: str, player: str, chips: int,
                          where: str) -> None:
    """Refuse ``entry amend`` of a buy-in of ``player`` (to ``chips``) while he, under any of
    his names, sits in a hand of ``session`` still in play, as ``buyin`` refuses a buy-in
    then (module doc; a voided hand in play seats nobody).

    Raises:
        LedgerError: naming ``where``, ``chips``, the player, the hand and how to end it.
    """
    from ledger.store.streams import open_hands_of
    from replay.amendments import split_stream

    for name in sorted({player} | alias_group(ledger, player)):
        for hand, voided in open_hands_of(ledger, session, name):
            if voided and split_stream([r.event for r in ledger.read(hand)])[2]:
                continue
            raise LedgerError(
                f"{where}: {chips} chips: {name} is seated in hand {hand} of session "
                f"{session}, which is still open: {name}'s buy-ins change only between a showdown "
                "and the next deal (RULES.md §1.1), as `buyin` holds them; nothing written; "
                f"amend it once the hand ends (`handledger act {shell_arg(hand)} end`) or is "
                "voided")


def _chips(count: int) -> str:
    return f"{count} chip{'' if count == 1 else 's'}"


def entry_position(ledger: Any, session: str, seq: int) -> int:
    """The ledger position of the row at ``seq`` of ``session``'s stream (a book entry)."""
    return ledger.query("SELECT position FROM events WHERE stream = $1 AND seq = $2",
                        [f"session:{session}", seq])[0][0]


def entry_place(ledger: Any, session: str, seq: int) -> int:
    """Where the book entry at ``seq`` of ``session``'s stream counts among the hands
    (:func:`ledger.audit.placing.place`): its ledger position, or, a buy-in made before a
    hand (``buyin --before``), just before that hand starts."""
    from ledger.audit.placing import hand_starts, place_before

    (at, hand), = ledger.query(
        "SELECT position, json_extract_string(payload, '$.before') FROM events WHERE"
        " stream = $1 AND seq = $2", [f"session:{session}", seq])
    if hand is None:
        return at
    return place_before(at, session, hand, hand_starts(ledger.connection, [(session, hand)]))


def _amended_again(ledger: Any, session: str, seq: int, since: int, until: int) -> bool:
    """Whether a correction of the entry at ``seq`` of ``session`` is stored between ledger
    positions ``since`` and ``until`` (both excluded)."""
    return bool(ledger.query(
        "SELECT 1 FROM events WHERE stream = $1 AND type = 'entry_corrected' AND position > $2"
        " AND position < $3 AND CAST(payload->>'seq' AS BIGINT) = $4 LIMIT 1",
        [f"session:{session}", since, until, seq]))


def _counted(ledger: Any, hand: str, session: str) -> Any:
    """The :class:`replay.hand_replay.HandReplay` of the stored ``hand`` when the books count
    it; None when it is voided or the rules refuse its stream (it bounds nothing)."""
    from replay.fold import replay_events

    try:
        replayed = replay_events([r.event for r in ledger.read(hand)], session=session)
    except LedgerError:
        return None
    return None if replayed.result.status == "voided" else replayed


def _start_check(ledger: Any, session: str, upto: int | None, at: int, replacement: Any,
                 before: tuple[Any, int] | None, after: tuple[str, Any, int]) -> Any:
    """The audit's start check (:class:`ledger.audit.books.StartCheck`) of the player of the
    buy-in at ledger position ``at``, made ``replacement``, in the hand ``after`` (its id,
    replay and first position), his hand ``before`` it (replay, position) folded first and
    the session's rows before ``upto`` (None: all) read as the books read them, each name
    the player the series' aliases say (:func:`replay.sessions.state.series_names`, wherever
    the alias is recorded); None when that hand seats him under no name the books give him."""
    from ledger.audit.books import SessionRow, build_series, hand_facts
    from ledger.audit.load import corrections_of, placed, typed_rows

    raw = ledger.query(
        "SELECT position, stream, session, CAST(payload AS VARCHAR), seq FROM events WHERE"
        " hand_id IS NULL AND session = $1 AND ($2 IS NULL OR position < $2)"
        " ORDER BY position", [session, upto])
    fixes = corrections_of((stream, payload) for _, stream, _, payload, _ in raw
                           if '"entry_corrected"' in payload)
    rows = placed(ledger.connection,
                  [SessionRow(r.position, r.session, replacement) if r.position == at else r
                   for r in typed_rows(raw, fixes)])
    hand, replayed, start = after
    played = [*([] if before is None else [before]), (replayed, start)]
    series = build_series(rows, [hand_facts(r, ord=k, position=p)
                                 for k, (r, p) in enumerate(played, 1)],
                          aliases=series_names(ledger))
    book = series.sessions.get(session)
    player = series.aliases.get(replacement.player, replacement.player)
    return None if book is None else next(
        (s for s in book.starts if s.hand == hand and s.player == player), None)
