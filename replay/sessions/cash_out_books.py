"""A cash-out against the stack the session's hands leave its player (the audit's session
balance, :func:`ledger.audit.checks.balance`), said while the host can still amend it: a
``cashout`` of other than the hands leave him is warned of (:func:`cash_out_warning`), and a
``cashout`` the table cannot cover names the earlier cash-outs that took more than the hands
left (:func:`over_cashed`). The books are folded in memory, as the audit folds them; nothing
here writes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg


class OverCashed(NamedTuple):
    """A cash-out entry (``seq``, the number ``entry amend`` takes) of ``player`` for
    ``chips`` whose hands had left him ``left`` chips."""

    seq: int
    player: str
    chips: int
    left: int

    def words(self) -> str:
        """``entry 5: Bob 100 chips, the hands left Bob 98 (+2)``."""
        return (f"entry {self.seq}: {self.player} {self.chips} chips, the hands left "
                f"{self.player} "
                f"{self.left} ({self.chips - self.left:+d})")


def _cash_out_checks(ledger: Any, session: str, hands: list[str] | None = None
                     ) -> list[tuple[int, Any]]:
    """``(ledger position, check)`` of every stored cash-out of ``session`` as the books fold
    it (:class:`ledger.audit.books.CashOutCheck`: amended entries as amended, retracted ones
    left out, voided hands counting for nothing, each name the player the series' aliases
    say: :func:`replay.sessions.state.series_names`; a cash-out that followed a hand as it
    stood before a correction appended since stands: :func:`replay.late_corrections.revisions`),
    the session's ``hands`` folded (None:
    all of them). Empty when one of them does not replay (the audit names it; nothing is said
    here)."""
    book = _session_book(ledger, session, hands)
    return [] if book is None else [(c.position, c) for c in book.cash_outs]


def chips_left_by_hands(ledger: Any, session: str) -> dict[str, int]:
    """``{player: chips}`` of each player of ``session`` whom the books, folded as the audit
    folds them (:func:`_cash_out_checks`), leave chips at the table (his stack after his
    latest hand and what he bought since, not cashed out: ``PlayerBook.on_table``), those
    without a buy-in too (the hands seated them: chips from outside the books). Empty when
    a hand of the session does not replay (the audit names it) or nobody holds chips."""
    book = _session_book(ledger, session)
    if book is None:
        return {}
    return {name: p.on_table for name, p in book.players.items() if p.on_table > 0}


def _session_book(ledger: Any, session: str, hands: list[str] | None = None) -> Any:
    """The :class:`ledger.audit.books.SessionBook` of ``session`` with its ``hands`` folded
    (None: all of them), as :func:`_cash_out_checks` says; None when one of them does not
    replay or the session is not followed (never opened)."""
    from ledger.audit.books import build_series, hand_facts
    from ledger.audit.load import session_rows
    from replay.fold import replay_events
    from replay.late_corrections import revisions
    from replay.sessions.state import series_names

    facts = []
    for k, hand in enumerate(ledger.streams(kind="hand", session=session)
                             if hands is None else hands, 1):
        stored = ledger.read(hand)
        try:
            replayed = replay_events([r.event for r in stored], session=session)
        except LedgerError:
            return None
        facts.append(hand_facts(replayed, ord=k, position=stored[0].position))
    aliases = series_names(ledger)  # an alias recorded in another session's stream too
    book = build_series(session_rows(ledger, sessions=[session]), facts, aliases=aliases,
                        revised=revisions(ledger, [session])).sessions.get(session)
    return book if book is not None and book.followed else None


def _latest_hand(ledger: Any, session: str, player: str, before: int | None = None
                 ) -> list[str] | None:
    """The latest hand of ``session`` (``before``: of those started before that ledger
    position) that seats ``player`` (under any of his aliases) and counts in the books (not
    voided), as a list of one; empty when none; None when one after it does not replay
    (nothing is said then). His stack at the table is what that hand left him with what he
    bought since (the books' fold: an earlier hand changes nothing)."""
    from replay.fold import replay_events
    from replay.sessions.state import alias_group

    names = alias_group(ledger, player)
    for hand in reversed(ledger.streams(kind="hand", session=session)):
        stored = ledger.read(hand)
        if before is not None and stored[0].position > before:
            continue
        if not names & {s.player for s in stored[0].event.seats}:
            continue
        try:
            replayed = replay_events([r.event for r in stored], session=session)
        except LedgerError:
            return None
        if replayed.result.status != "voided":
            return [hand]
    return []


def cash_out_warning(ledger: Any, session: str, seq: int, player: str, shown: Any = str
                     ) -> str | None:
    """A ``warning:`` line when ``player``'s cash-out just stored as entry ``seq`` of
    ``session`` (its latest) takes other than the chips the hands leave him there (his
    buy-ins, and the stack his latest hand left him with what he bought since: the audit's
    session balance, which will name it), saying what they leave him and how to amend the
    entry; None when they agree or are not known (a hand whose payouts are unknown).
    ``shown`` names the player as the reads do."""
    off = _off_count(ledger, session, player)
    if off is None:
        return None
    _, c = off
    return (f"warning: {shown(c.player)} cashes out {c.actual} chips, but the hands leave "
            f"{shown(c.player)} "
            f"{c.expected} ({c.actual - c.expected:+d}): a count that is wrong is amended "
            f"(`handledger entry amend {shell_arg(session)} {shell_arg(seq)} "
            f"{shell_arg(c.expected)} --reason … --by …`); the "
            "audit's session balance will name it")


def amended_cash_out_warning(ledger: Any, session: str, seq: int, player: str
                             ) -> str | None:
    """A ``warning:`` line when the cash-out at ``seq`` of ``session``, just stored amended
    (``entry amend``), takes other than the chips the hands leave ``player`` there (his
    buy-ins, and the stack his latest hand before it left him with what he bought since:
    the audit's session balance, which will name it), naming that hand, the chips and the
    amount that agrees with them, as :func:`cash_out_warning` says of ``cashout``; None when
    they agree or are not known. The amendment stands: it is the host's statement."""
    from replay.sessions.seated_chips import entry_position

    off = _off_count(ledger, session, player, entry_position(ledger, session, seq))
    if off is None:
        return None
    hands, c = off
    since = (f"{c.player}'s stack after hand {hands[0]} and the buy-ins since" if hands
             else f"{c.player}'s buy-ins")
    return (f"warning: entry {seq} (cash-out of {c.player}, {c.actual} chips): the hands "
            f"leave {c.player} {c.expected} ({c.actual - c.expected:+d}), {since}: a count "
            f"that is wrong is amended again (`handledger entry amend {shell_arg(session)} "
            f"{shell_arg(seq)} {shell_arg(c.expected)} "
            "--reason … --by …`); the audit's session balance will name it")


def _off_count(ledger: Any, session: str, player: str, at: int | None = None
               ) -> tuple[list[str], Any] | None:
    """``(hands, check)`` when ``player``'s cash-out of ``session`` takes other than the
    chips the hands leave him: ``hands`` his latest hand before it (:func:`_latest_hand`; a
    list of one, or empty) and ``check`` its cash-out check; the cash-out at ledger position
    ``at``, or the session's latest (None). None when they agree, he sits in no hand, or his
    stack is not known."""
    hands = _latest_hand(ledger, session, player, before=at)
    checks = [] if hands is None else _cash_out_checks(ledger, session, hands)
    if at is None:
        c = checks[-1][1] if checks else None
    else:
        c = next((c for position, c in checks if position == at), None)
    if (c is None or c.expected is None or c.expected == c.actual or not c.seated
            or c.as_stood):
        return None
    return hands or [], c


def over_cashed(ledger: Any, session: str) -> list[OverCashed]:
    """The stored cash-outs of ``session`` that take more chips than the hands left their
    player (the audit's session balance), in ledger order, each by its entry number."""
    seqs = dict(ledger.query(
        "SELECT position, seq FROM events WHERE stream = $1 AND type = 'cash_out'",
        [f"session:{session}"]))
    return [OverCashed(seqs[p], c.player, c.actual, c.expected)
            for p, c in _cash_out_checks(ledger, session)
            if c.seated and c.expected is not None and c.actual > c.expected and p in seqs
            and not c.as_stood]
