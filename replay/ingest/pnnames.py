"""A PokerNow log that is an edited copy of a stored game is refused (FORMATS.md §2).

A PokerNow player is his id; his name is an alias the log gives him (``"Name @ ID"``). A hand
is the same hand whatever the names its lines print: PokerNow's hand id, or, in an older
export without ids, the time, number and ``order`` of its ``starting hand`` line. A copy of a
game whose names were edited (``sed 's/Ann @/Anna @/'``) is therefore not another game, and
not a longer export either: its hands would be known under another key and its buy-ins
written a second time. :func:`check_same_names` refuses such a file whole before anything of
it is written, naming the first hand and player that differ; a host who wants the player
shown under another name records ``handledger player alias NAME ID`` instead. A copy that
seats another id in a stored hand, or whose oldest row (the game's name in its session lines'
keys) was edited, is refused the same way (:func:`check_same_game`).

A player who renamed himself during the game is untouched: the lines PokerNow logged before
the rename keep the old name, so the hands the ledger holds read as they did.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model.errors import LedgerError
from ledger.model.events import Seat
from ledger.store.streams import session_of_source


@dataclass(frozen=True)
class _Stored:
    """A stored PokerNow hand: its id, session, place, the digest of its logged lines and its
    seats (``{seat number or place: player id}``)."""

    hand: str
    session: str | None
    position: int
    text_digest: str | None
    seats: dict[int, str]


def hand_identity(source: dict[str, Any]) -> tuple[str, ...] | None:
    """What identifies a PokerNow hand whatever its players are named, from its
    ``hand_started`` ``source``: ``("id", PokerNow's hand id)``, or ``("at", at, number,
    order)`` of its ``starting hand`` line in an export without ids (FORMATS.md §2); None
    for a hand of another format."""
    if source.get("format") != "pokernow":
        return None
    if source.get("pn_id"):
        return ("id", str(source["pn_id"]))
    if source.get("at") is None or source.get("order") is None:
        return None
    return ("at", str(source["at"]), str(source.get("number")), str(source["order"]))


def check_same_names(ledger: Any, read: FileRead) -> None:
    """Refuse the PokerNow log ``read`` when a hand of it is a hand the ledger holds
    (:func:`hand_identity`) whose logged lines differ (``source.text_digest``) in a seated
    player: his id is not the one the ledger's hand seats there (a copy with an id edited),
    or the name the log gives him there is not the one the ledger's ``player_alias`` rows
    gave him at that hand.

    Raises:
        LedgerError: naming the file, the line of the hand's start, the ledger's hand id and
            the seat with both ids, or the player (his id) and both names; saying nothing of
            the file was written (and, for a name, how to show him under it, ``player
            alias``, or that he is shown so already; the file stays refused either way).
    """
    hands = [i for i in read.items if isinstance(i, HandEvents) and i.events]
    stored = _stored_hands(ledger, hands)
    changed = [(h, s) for h in hands
               if (s := stored.get(hand_identity(h.events[0].source or {}))) is not None
               and s.text_digest is not None
               and s.text_digest != (h.events[0].source or {}).get("text_digest")]
    if not changed:
        return
    mine = _names_in_file(read.items)
    theirs = _names_in_ledger(ledger, [s for _, s in changed])
    for hand, held in changed:
        _check_same_players(read, hand, held)
        for seat in hand.events[0].seats:
            now, was = mine[hand.hand_id].get(seat.player), theirs[held.hand].get(seat.player)
            if now is None or was is None or now == was:
                continue
            if _shown_as(ledger, seat.player) == now:
                hint = f"{seat.player} is shown as {now} already (a `player alias`)"
            else:
                hint = (f"`handledger player alias {shlex.quote(now)} "
                        f"{shlex.quote(seat.player)}` shows {seat.player} as {now} from now on")
            raise LedgerError(
                f"this PokerNow hand is in the ledger already (session {held.session}) under "
                f"other names: player {seat.player} is {now!r} here, {was!r} in the ledger; "
                f"nothing of the file was written (its buy-ins would count twice); {hint}, "
                "and the file stays refused (the stored hands keep the names they were "
                "logged under)", file=read.file, line=hand.line, hand=held.hand)


def _shown_as(ledger: Any, player: str) -> str:
    """The name ``player`` (an id) is shown under now: the latest ``player_alias`` rows,
    chains followed, an alias ``player unalias`` ended gone
    (:func:`replay.sessions.state.series_names`)."""
    from replay.sessions.state import series_names

    return series_names(ledger).get(player, player)


def check_same_game(ledger: Any, read: FileRead, session: str) -> None:
    """Refuse the PokerNow log ``read`` whose first hand the ledger holds in ``session`` but
    whose session lines are keyed as another game's: its oldest row, which names the game in
    their source keys (:mod:`ledger.formats.pokernow.importer`), is not the one the stored
    export begins with (a copy with that row edited), so its joins and buy-ins, the stored
    ones under another key, would be written again. A line the ledger holds under its own
    key, or under the key an earlier version gave it (``legacy_key``), is no such line.

    Raises:
        LedgerError: naming the file and the session; nothing of the file is written.
    """
    if read.first_hand_key is None or session_of_source(ledger, read.first_hand_key) != session:
        return
    prefix = f"pokernow:{session}:"
    mine = [i for i in read.items if isinstance(i, SessionEntry) and i.session == session
            and i.source_key is not None and i.source_key.startswith(prefix)
            and ":item:" in i.source_key]
    if not mine:
        return
    stored = {k for (k,) in ledger.query(
        "SELECT source_key FROM events WHERE session = $1 AND hand_id IS NULL AND"
        " starts_with(source_key, $2) AND contains(source_key, ':item:')", [session, prefix])}
    scopes = {_scope(k) for i in mine for k in (i.source_key, i.legacy_key) if k is not None}
    others = {_place(k) for k in stored if _scope(k) not in scopes}  # another game's lines
    for item in mine:
        if item.source_key in stored or item.legacy_key in stored:
            continue
        if _place(item.source_key) in others:  # type: ignore[arg-type]
            raise LedgerError(
                f"this PokerNow game is in the ledger already (session {session}: its first "
                "hand is), but its oldest row is not the one the stored export begins with: an "
                "edited copy, whose joins and buy-ins would be written a second time; nothing "
                "of the file was written", file=read.file)


def _scope(key: str) -> str:
    """``pokernow:<session>:<game>`` of a session line's source key (see :func:`_place`)."""
    return key.rsplit(":item:", 1)[0]


def _place(key: str) -> tuple[str, str]:
    """``(hands before it, digest of its event)`` of a session line's source key
    ``pokernow:<session>:<game>:item:<hands>:<index>:<digest>``."""
    parts = key.rsplit(":item:", 1)[-1].split(":")
    return parts[0], parts[-1]  # a key of another shape is only compared with itself


def _seats(seats: Sequence[Any]) -> dict[int, str]:
    """``{seat number (else its place in the list): player id}`` of a hand's seats."""
    return {s.seat if s.seat is not None else -i: s.player for i, s in enumerate(seats)}


def _check_same_players(read: FileRead, hand: HandEvents, held: _Stored) -> None:
    """Refuse (see :func:`check_same_names`) the file whose ``hand``, the stored hand
    ``held``, seats another player (id) in a seat: an edited copy of the game, whose hands
    and buy-ins would be written again for a player who never played."""
    mine = _seats(hand.events[0].seats)
    if not held.seats or set(mine.values()) == set(held.seats.values()):
        return
    seat = next((n for n in sorted(mine.keys() | held.seats.keys())
                 if mine.get(n) != held.seats.get(n)), None)
    where = f"seat {seat}" if seat is not None and seat > 0 else "a seat"
    raise LedgerError(
        f"this PokerNow hand is in the ledger already (session {held.session}) with another "
        f"player: {where} is player {mine.get(seat, 'empty')} here, "
        f"{held.seats.get(seat, 'empty')} in the ledger; nothing of the file was written (an "
        "edited copy of the game: its hands and buy-ins would count twice)",
        file=read.file, line=hand.line, hand=held.hand)


def _stored_hands(ledger: Any, hands: Sequence[HandEvents]) -> dict[tuple[str, ...], _Stored]:
    """``{identity: the stored hand}`` of those of ``hands`` the ledger holds as PokerNow
    hands (one query, on their source keys: ``pokernow:<id>``, or ``pokernow:<at>:<number>:``
    and a 16-digit digest of lines that hold names, the ``order`` checked in the row)."""
    wanted = {k for h in hands if (k := hand_identity(h.events[0].source or {})) is not None}
    if not wanted:
        return {}
    keys = [f"pokernow:{k[1]}" for k in wanted if k[0] == "id"]
    prefixes = [f"pokernow:{k[1]}:{k[2]}:" for k in wanted if k[0] == "at"]
    rows = ledger.query(
        "SELECT hand_id, session, position, CAST(payload->'source' AS VARCHAR),"
        " CAST(payload->'seats' AS VARCHAR) FROM events"
        " WHERE seq = 1 AND hand_id IS NOT NULL AND source_key LIKE 'pokernow:%'"
        " AND (source_key IN (SELECT UNNEST($1)) OR (length(source_key) > 16 AND"
        " left(source_key, length(source_key) - 16) IN (SELECT UNNEST($2))))"
        " ORDER BY position", [keys, prefixes])
    out: dict[tuple[str, ...], _Stored] = {}
    for hand, session, position, source, seats in rows:
        data = json.loads(source) if source else {}
        key = hand_identity(data)
        if key in wanted and key not in out:
            held = [Seat.model_validate(s) for s in json.loads(seats or "[]")]
            out[key] = _Stored(hand, session, position, data.get("text_digest"), _seats(held))
    return out


def _names_in_file(items: Sequence[Any]) -> dict[str, dict[str, str]]:
    """``{hand id: {player id: his name at that hand}}`` of a read log: the last
    ``player_alias`` of his session before the hand (the reader gives one just before the
    first item that shows a new name)."""
    names: dict[str | None, dict[str, str]] = {}
    out: dict[str, dict[str, str]] = {}
    for item in items:
        if isinstance(item, SessionEntry) and item.event.type == "player_alias":
            names.setdefault(item.session, {})[item.event.player] = item.event.alias
        elif isinstance(item, HandEvents):
            out[item.hand_id] = dict(names.get(item.session, {}))
    return out


def _names_in_ledger(ledger: Any, hands: Sequence[_Stored]) -> dict[str, dict[str, str]]:
    """``{hand id: {player id: his name at that hand}}`` of the stored ``hands``: the last
    ``player_alias`` row of the hand's session before its first row, the name the stored log
    gave him there. A ``player unalias`` of that name leaves it: the lines stored are what
    the log said, and a copy naming him otherwise is still another text of the same hand
    (what he is shown as now, :func:`_shown_as`, honours it)."""
    sessions = sorted({h.session for h in hands if h.session is not None})
    rows = ledger.query(
        "SELECT session, position, payload->>'player', payload->>'alias' FROM events"
        " WHERE type = 'player_alias' AND session IN (SELECT UNNEST($1)) ORDER BY position",
        [sessions]) if sessions else []
    out: dict[str, dict[str, str]] = {}
    for hand in hands:
        names: dict[str, str] = {}
        for session, position, player, alias in rows:
            if position >= hand.position:
                break
            if session == hand.session:
                names[player] = alias
        out[hand.hand] = names
    return out
