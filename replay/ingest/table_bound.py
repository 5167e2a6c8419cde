"""An imported cash-out held to the chips its session's table holds, as ``cashout`` holds one.

A session file (a JSON-lines export, a PokerNow log) is the host's books: a cash-out in it that
takes more chips than the table holds at its place in the books (the buy-ins before it, less
the cash-outs before it and the rake the pots of the hands stored before it paid the table) is
the mistake ``cashout`` refuses (table stakes, RULES.md §1.1: no hand makes chips;
:func:`replay.sessions.entries.cash_out`), whether the session is open or closed (``import
--closed``). A name is the player it is, as ``cashout`` takes it (``player alias``:
:func:`replay.sessions.state.series_names`): a cash-out under an alias follows a buy-in
under the other name. Not checked while a hand of the session seats a player with no
buy-in there (his chips came from outside these books), as ``cashout`` does not check then.
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

from ledger.model import events as ev


class Beyond(NamedTuple):
    """A cash-out row beyond the table: its ledger ``position``, ``session`` and ``seq``, the
    ``player`` and his ``chips``; what the table held then: ``left`` chips, of ``bought``
    chips bought in, ``out`` cashed out before it and ``rake`` taken as rake. ``gone``: the
    chips, seq and name as written (his or an alias of his) of the player's own cash-out
    since his last buy-in (he has no chips at the table: ``cashout`` refuses it as such), or
    None."""

    position: int
    session: str
    seq: int
    player: str
    chips: int
    left: int
    bought: int
    out: int
    rake: int
    gone: tuple[int, int, str] | None = None

    def at(self, wrong: Miscounted | None = None) -> int:
        """The ledger position of the row the refusal (:meth:`message`) leads with, whose
        line the caller names: ``wrong``'s when it names that row first, else its own (a
        cash-out of a player not at the table names its own row)."""
        return wrong.position if wrong is not None and self.gone is None else self.position

    def message(self, shown: str | None = None, wrong: Miscounted | None = None,
                line: int | None = None) -> str:
        """The refusal's text (the caller locates it: file, line, session); ``shown``: the
        player as the reads show him (a PokerNow id's name), else ``player``. ``wrong``: an
        earlier cash-out that takes more than the hands left its player
        (:func:`miscounted`), whose row the caller locates, this one's ``line`` named."""
        raked = f", {self.rake} taken as rake" if self.rake else ""
        who = shown or self.player
        said = f"its cash_out at seq {self.seq} cashes out {who} ({self.chips} chips), but"
        if wrong is not None and wrong.position != self.position and self.gone is None:
            return (
                f"its cash_out at seq {wrong.seq} cashes out {wrong.player} ({wrong.chips} "
                f"chips), but the hands left {wrong.player} {wrong.left} "
                f"({wrong.chips - wrong.left:+d}): "
                f"the table runs short at seq {self.seq}"
                + (f" (line {line})" if line is not None else "")
                + f", which cashes out {who} ({self.chips} chips) of the {self.left} chips not "
                f"cashed out yet there ({self.bought} bought in, {self.out} cashed out{raked}),"
                " and no hand makes chips; nothing of the file was written (a cash-out "
                "counted wrong is corrected in the file)")
        if self.gone is not None:
            chips, seq, name = self.gone
            named = "" if name == self.player else f" as {name}"
            return (
                f"{said} none of them are at the table there: {who} cashed out {chips} chips at "
                f"seq {seq}{named} and bought in none since; nothing of the file was written (a "
                "buy-in missing from the file goes before it)")
        return (
            f"{said} the table holds {self.left} chips not cashed out yet there ({self.bought} "
            f"bought in, {self.out} cashed out{raked}), and no hand makes chips; nothing of the "
            "file was written (a buy-in missing from the file goes before it, a cash-out "
            "counted wrong is corrected in the file)")


class Miscounted(NamedTuple):
    """A cash-out row whose chips are more than the hands left its player (the audit's
    session balance, :func:`ledger.audit.checks.balance`): its ledger ``position`` and
    ``seq``, the ``player``, his ``chips`` and the chips the hands left him (``left``)."""

    position: int
    seq: int
    player: str
    chips: int
    left: int


def miscounted(ledger: Any, beyond: Beyond, since: int) -> Miscounted | None:
    """The first cash-out of ``beyond``'s session stored after ``since`` and not after it
    that takes more chips than the hands left its player, as the audit finds it once the
    derived tables are caught up (inside the import's transaction): the row whose number
    made the table run short, which may be ``beyond`` itself; None when there is none, or
    the books cannot be read (a hand the rules refuse)."""
    from ledger.model.errors import LedgerError
    from replay.projections import catch_up
    from replay.sessions.state import series_names

    try:
        catch_up(ledger)
        over = {(player, int(actual)): int(expected) for player, expected, actual in
                ledger.query(
                    "SELECT player, expected, actual FROM audit_discrepancies WHERE kind ="
                    " 'session_balance' AND session = $1 AND hand_id IS NULL AND player IS"
                    " NOT NULL AND actual > expected", [beyond.session])}
    except LedgerError:
        return None
    players = series_names(ledger)  # the audit names each cash-out's player so
    for position, seq, player, chips in ledger.query(
            "SELECT position, seq, payload->>'player', CAST(payload->>'chips' AS BIGINT)"
            " FROM events"
            " WHERE session = $1 AND stream = 'session:' || session AND type = 'cash_out' AND"
            " position > $2 AND position <= $3 ORDER BY position",
            [beyond.session, since, beyond.position]):
        key = (players.get(player, player), int(chips))
        if key in over:
            return Miscounted(position, seq, player, int(chips), over[key])
    return None


def shown(ledger: Any, beyond: Beyond) -> str:
    """The player of ``beyond`` as the reads show him: a PokerNow id as ``name (id)``, the
    name the reads give him now (:func:`ledger.store.streams.platform_names`: the latest
    name he played under, or the one a host gave him with ``player alias NAME ID``; a name
    ``player unalias`` ended is none of his, FORMATS.md §2), his id alone when he has none;
    else (a session whose players are no platform ids: ``player alias Robert Bob`` names no
    id) as stored."""
    from ledger.store.streams import platform_names, platform_sessions

    if not platform_sessions(ledger, [beyond.session]):
        return beyond.player
    name = platform_names(ledger).get(beyond.player)
    return beyond.player if name in (None, beyond.player) else f"{name} ({beyond.player})"


def first_beyond_table(ledger: Any, since: int) -> Beyond | None:
    """The first cash-out stored after ledger position ``since`` (an import's rows, inside its
    transaction) that takes more chips than its session's table holds at its place, or comes
    from a player who cashed out since his last buy-in (module doc), or None. Only the book
    rows of sessions with such a cash-out are read, in one query, and only their hands with a
    rake replayed; chips are whole chips of the session (as stored)."""
    from replay.rake_taken import rake_by_session
    from replay.sessions.state import series_names

    sessions = [s for (s,) in ledger.query(
        "SELECT DISTINCT session FROM events WHERE position > $1 AND type = 'cash_out'"
        " AND session IS NOT NULL ORDER BY session", [since])]
    if not sessions:
        return None
    rows = ledger.query(
        "SELECT session, position, seq, type, payload FROM events WHERE list_contains($1,"
        " session) AND stream = 'session:' || session AND type IN ('buy_in', 'cash_out',"
        " 'entry_corrected') ORDER BY session, seq", [sessions])
    raked = rake_by_session(ledger, sessions)
    # a name is the player it is, as `cashout` takes it: the series' aliases, read once for
    # every session (nothing is written while they are checked; a read a session scanned
    # every row of the ledger: quadratic in a large file's sessions)
    players = series_names(ledger)
    found = []
    for session, group in itertools.groupby(rows, key=lambda r: r[0]):
        beyond = _beyond_in(ledger, session, list(group), raked.get(session, []), since,
                            players)
        if beyond is not None:
            found.append(beyond)
    return min(found, default=None)


def _beyond_in(ledger: Any, session: str, rows: list[tuple[Any, ...]],
               raked: list[tuple[int, int]], since: int, players: dict[str, str]
               ) -> Beyond | None:
    """The first cash-out of ``session`` stored after ``since`` beyond its table, or None;
    ``rows``: its book's ``(session, position, seq, type, payload)`` rows of buy-ins,
    cash-outs and amendments, by seq; ``raked``: its hands' ``(position, rake)``;
    ``players``: :func:`replay.sessions.state.series_names` of the ledger."""
    from replay.sessions import session_state
    from replay.sessions.entries import chips_from_outside

    fixes = {}
    for *_, kind, payload in rows:
        if kind == "entry_corrected":
            e = ev.parse_stored(kind, payload)
            fixes[e.seq] = e.replacement
    chips_in: dict[str, int] = {}
    gone: dict[str, tuple[int, int, str]] = {}  # a player's cash-out since his last buy-in
    out = 0
    for _, position, seq, kind, payload in rows:
        if kind == "entry_corrected":
            continue
        if seq in fixes:
            if fixes[seq] is None:  # retracted
                continue
            e = ev.parse_event(fixes[seq])
        else:
            e = ev.parse_stored(kind, payload)
        player = players.get(e.player, e.player)
        if e.type == "buy_in":
            chips_in[player] = chips_in.get(player, 0) + e.chips
            gone.pop(player, None)
            continue
        if e.type != "cash_out":
            continue
        bought = sum(chips_in.values())
        rake = sum(r for at, r in raked if at < position) if e.chips else 0
        left = bought - out - rake
        twice = gone.get(player) if e.chips else None
        if position > since and (e.chips > left or twice is not None):
            if chips_from_outside(ledger, session, session_state(ledger, session).bought):
                return None
            return Beyond(position, session, seq, e.player, e.chips, left, bought, out, rake,
                          twice)
        out += e.chips
        gone[player] = (e.chips, seq, e.player)
    return None
