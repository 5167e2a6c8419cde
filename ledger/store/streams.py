"""Reading the ledger back: hands as streams, and the lookups the import and the books need.

:func:`hand_streams` streams: it reads the events table a window of positions at a time and
hands out each hand as soon as its rows are complete, so memory stays flat in the number of
hands. A hand stream is one block of consecutive positions unless rows were appended to it
later (a correction, a void, a hand dealt live between other appends); those few "scattered"
hands are found with one query first and read whole when their first row comes by.
:func:`raw_hand_streams` gives each hand's stored JSON payloads without parsing them (for
worker processes); :func:`parse_events` parses them, one pydantic call a hand for the payloads
it has not met before: the texts of small action events (a fold, a check, a call of the same
player and amount …) and of dealt and shown cards (a seat's two hole cards are one of 1,326
pairs, a turn card one of 52; unknown cards are all alike) recur from hand to hand, and an
event is immutable, so one text is validated once and its event shared (at most
``_SHARED_MAX`` texts are kept).

The lookups (:func:`first_rows`, :func:`cut_hands`, :func:`session_of_source`, …) are one
query each, so that no layer above runs SQL over the events table.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from ledger.model.errors import LedgerError, MalformedEvent, no_hand
from ledger.model.events import EVENT_ADAPTER, AnyEvent, parse_event
from ledger.model.names import resolved_aliases
from ledger.model.platform import PLATFORM_FORMAT, platform_sessions_of
from ledger.store.duck import TABLES_HERE
from ledger.store.store import COLUMNS, StoredEvent

_WINDOW = 50_000  # ledger positions per query
# From this many payloads in a window on, they are fetched as one numpy column (a third of the
# CPU of row tuples); below, importing numpy (about 0.1 s) would cost more than it saves.
_NUMPY_ROWS = 20_000
_SCATTERED = 1_000  # scattered hands read whole a query (raw_hand_streams)
_EVENTS = TypeAdapter(list[AnyEvent], config=ConfigDict(defer_build=True))  # built when used
# Payload texts whose event is kept for sharing (about 1 kB each). The texts that recur are
# few (a few hundred actions and cards in a real-hand corpus); more makes every text met
# once, a seat's known hole cards say, stay in memory longer and in the collector's young
# generation (measured on a generated series, a range replay: 20,000 cost 6 % more CPU).
_SHARED_MAX = 5_000
#: Event types whose texts recur across hands (no hand id, names or reasons of their own).
_SHAREABLE = frozenset({"check", "call", "fold", "bet_raise", "all_in", "forced_bet",
                        "muck", "hand_ended", "run_count", "declaration", "cards_dealt",
                        "discard", "reveal"})
_shared: dict[str, Any] = {}

#: ``(hand id, session, payloads, position)`` in ledger order: the stored JSON payloads of the
#: hand's events in stream order, and the ledger position of the hand's first row.
RawHand = tuple[str, str | None, list[str], int]


def parse_events(payloads: Sequence[str]) -> list[Any]:
    """The typed events of a :data:`RawHand`'s payloads (see the module doc on sharing).

    Raises:
        MalformedEvent: a payload that is not a valid event (as :func:`parse_event` says).
    """
    events = list(map(_shared.get, payloads))
    new = [i for i, e in enumerate(events) if e is None]
    if not new:
        return events
    texts = [payloads[i] for i in new]
    try:
        if len(texts) == 1:  # often the hand_started alone: no list around it
            parsed = [EVENT_ADAPTER.validate_json(texts[0])]
        else:
            parsed = _EVENTS.validate_json("[" + ",".join(texts) + "]")
    except ValidationError:
        parsed = [_exact(t) for t in texts]  # raises the first bad one's MalformedEvent
    if len(_shared) >= _SHARED_MAX:
        _shared.clear()
    for i, text, event in zip(new, texts, parsed, strict=True):
        events[i] = event
        if event.type in _SHAREABLE:
            _shared[text] = event
    return events


def _exact(text: str) -> Any:
    try:
        payload = json.loads(text)
    except ValueError as exc:
        raise MalformedEvent(f"a stored payload is not JSON ({exc})") from None
    return parse_event(payload)


def hand_streams(ledger: Any, only: Sequence[str] = ()) -> Iterator[tuple[str, str | None, list]]:
    """``(hand id, session, events)`` of every hand in ledger order (the order of each hand's
    first row), or only those named; streamed (see the module doc).

    Raises:
        NotFound: a named hand is not in the ledger.
        MalformedEvent: a stored payload that does not parse.
    """
    if only:
        for hand in only:
            events, session = load_hand(ledger, hand)
            yield hand, session, events
        return
    for hand, session, body, _ in raw_hand_streams(ledger):
        yield hand, session, parse_events(body)


def raw_hand_streams(ledger: Any, only: Sequence[str] = ()) -> Iterator[RawHand]:
    """Every hand of the ledger (or only those named) as :data:`RawHand` in ledger order,
    streamed a window of positions at a time: two queries a window, one for its hands (each
    one's rows in the window, ledger order of their first rows) and one for its payloads in
    ledger order, which the hands then take in turn (a hand's rows are consecutive positions
    unless it is scattered); a hand cut by the window's end is completed from the next.

    Raises:
        NotFound: a named hand is not in the ledger.
    """
    if only:
        for hand in only:
            yield _whole(ledger, hand)
        return
    con = ledger.connection
    scattered = [
        hand
        for (hand,) in con.execute(
            "SELECT stream FROM events WHERE hand_id IS NOT NULL GROUP BY stream"
            " HAVING max(position) - min(position) + 1 <> count(*) ORDER BY min(position)"
        ).fetchall()
    ]
    # the rows of scattered hands are read whole with their first row, never from a window
    whole = _Scattered(ledger, scattered)
    apart_hands = set(scattered)
    apart = " AND NOT list_contains($3, hand_id)" if scattered else ""
    extra = [scattered] if scattered else []
    done: set[str] = set()
    last = con.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]
    cut: list[Any] | None = None  # the window's last hand: it may go on in the next window
    for low in range(0, last, _WINDOW):
        window = [low, low + _WINDOW]
        hands = con.execute(
            "SELECT hand_id, arg_min(session, position), count(*), min(position) FROM events"
            " WHERE position > $1 AND position <= $2 AND hand_id IS NOT NULL"
            " GROUP BY hand_id ORDER BY min(position)", window).fetchall()
        result = con.execute(
            "SELECT payload FROM events WHERE position > $1 AND position <= $2"
            f" AND hand_id IS NOT NULL{apart} ORDER BY position", window + extra)
        if sum(rows for _, _, rows, _ in hands) >= _NUMPY_ROWS:  # a column at once
            payloads = result.fetchnumpy()["payload"].tolist()
        else:
            payloads = [text for (text,) in result.fetchall()]
        k = 0
        for hand, session, rows, position in hands:
            if hand in apart_hands:
                if cut is not None:
                    yield cut[0], cut[1], cut[2], cut[3]
                    cut = None
                if hand not in done:  # its first row: read it whole
                    done.add(hand)
                    yield whole.next(hand)
                continue
            body = payloads[k : k + rows]
            k += rows
            if cut is not None and cut[0] == hand:
                cut[2] += body
                continue
            if cut is not None:
                yield cut[0], cut[1], cut[2], cut[3]
            cut = [hand, session, body, position]
    if cut is not None:
        yield cut[0], cut[1], cut[2], cut[3]


def session_hand_streams(ledger: Any, sessions: Sequence[str], *, after: int = 0
                         ) -> list[RawHand]:
    """Every hand of ``sessions`` whose rows lie after ledger position ``after``, as
    :data:`RawHand` in ledger order, read with one query (a catch-up of the sessions that
    moved: ``after`` is below their first rows, so DuckDB skips the rest of the ledger)."""
    rows = ledger.connection.execute(
        "SELECT hand_id, arg_min(session, position), list(payload ORDER BY seq),"
        " min(position) FROM events WHERE position > ? AND hand_id IS NOT NULL"
        " AND list_contains(?, session) GROUP BY hand_id ORDER BY min(position)",
        [after, list(sessions)]).fetchall()
    return [(hand, session, body, position) for hand, session, body, position in rows]


def read_streams(ledger: Any, streams: Collection[str]) -> dict[str, list[StoredEvent]]:
    """{stream: its rows by seq, as :meth:`ledger.store.store.Ledger.read` gives them} of those
    of ``streams`` the ledger holds, read with one query (a write of many hands, ``void HAND
    HAND ...``, reads them once, not a query a hand); a stream with no row is left out (its
    :meth:`~ledger.store.store.Ledger.read` raises ``NotFound``)."""
    out: dict[str, list[StoredEvent]] = {}
    if not streams:
        return out
    for row in ledger.query(f"SELECT {COLUMNS} FROM events WHERE list_contains($1, stream)"
                            " ORDER BY stream, seq", [list(streams)]):
        out.setdefault(row[1], []).append(StoredEvent(*row))
    return out


class _Scattered:
    """The scattered hands of a ledger (ledger order of their first rows), read whole
    ``_SCATTERED`` hands a query as they come by (a ledger whose hands were all voided or
    corrected has them all scattered: a query a hand cost more than their replay)."""

    def __init__(self, ledger: Any, hands: list[str]) -> None:
        self._ledger, self._hands, self._next = ledger, hands, 0
        self._read: dict[str, RawHand] = {}

    def next(self, hand: str) -> RawHand:
        """``hand``'s rows, read with the next scattered hands when not read yet."""
        if hand not in self._read:
            chunk = [hand, *self._hands[self._next : self._next + _SCATTERED]]
            self._next += _SCATTERED
            self._read.update((h, (h, session, body, position)) for h, session, body, position
                              in self._ledger.query(
                "SELECT stream, arg_min(session, seq), list(payload ORDER BY seq),"
                " arg_min(position, seq) FROM events WHERE list_contains($1, stream)"
                " GROUP BY stream", [chunk]))
        return self._read.pop(hand)


def _whole(ledger: Any, hand: str) -> RawHand:
    rows = ledger.read(hand)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    return hand, rows[0].session, [r.payload for r in rows], rows[0].position


def load_hand(ledger: Any, hand: str) -> tuple[list, str | None]:
    """The stored events of one hand and its session.

    Raises:
        NotFound: no such hand.
    """
    rows = ledger.read(hand)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    return [r.event for r in rows], rows[0].session


# ----------------------------------------------------------------------------- lookups for import


def first_rows(ledger: Any, hands: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """``{hand: (its first event's stored JSON, its source key)}`` for those of ``hands`` the
    ledger holds (one query)."""
    if not hands:
        return {}
    rows = ledger.query(
        "SELECT hand_id, CAST(payload AS VARCHAR), source_key FROM events"
        " WHERE seq = 1 AND hand_id IN (SELECT UNNEST(?))", [list(hands)])
    return {hand: (payload, key) for hand, payload, key in rows}


def hand_sessions(ledger: Any, hands: Sequence[str]) -> dict[str, str | None]:
    """``{hand: its session (None: of no session)}`` for those of ``hands`` the ledger holds
    (one query over their first rows)."""
    if not hands:
        return {}
    return dict(ledger.query(
        "SELECT hand_id, session FROM events WHERE seq = 1 AND hand_id IN (SELECT UNNEST(?))",
        [list(hands)]))


def cut_hands(ledger: Any, hands: Sequence[str]) -> set[str]:
    """Those of ``hands`` whose stored stream ends ``incomplete`` somewhere (a log cut off)."""
    if not hands:
        return set()
    rows = ledger.query(
        "SELECT DISTINCT hand_id FROM events WHERE type = 'hand_ended'"
        " AND hand_id IN (SELECT UNNEST(?))"
        " AND json_extract_string(payload, '$.status') = 'incomplete'", [list(hands)])
    return {hand for (hand,) in rows}


def session_of_source(ledger: Any, source_key: str) -> str | None:
    """The session of the stored hand whose source key is ``source_key`` (None: none)."""
    rows = ledger.query("SELECT session FROM events WHERE source_key = ? AND hand_id IS NOT NULL"
                        " LIMIT 1", [source_key])
    return rows[0][0] if rows else None


def session_of_entries(ledger: Any, prefix: str, part: str) -> str | None:
    """The session of a stored session entry (a row of no hand) whose source key starts with
    ``prefix`` and holds ``part`` (None: none)."""
    rows = ledger.query("SELECT session FROM events WHERE hand_id IS NULL AND source_key"
                        " IS NOT NULL AND starts_with(source_key, ?) AND contains(source_key, ?)"
                        " LIMIT 1", [prefix, part])
    return rows[0][0] if rows else None


def stored_decimals(ledger: Any, hand_key: str | None, opened_key: str) -> int | None:
    """The decimals a game was stored in: the ``unit`` of the hand whose source key is
    ``hand_key``, else those of the ``session_opened`` whose source key is ``opened_key``
    (None: neither is stored)."""
    rows = ledger.query(
        "SELECT json_extract(payload, '$.unit.decimals') FROM events WHERE source_key = ?"
        " AND hand_id IS NOT NULL AND seq = 1 LIMIT 1", [hand_key]) if hand_key else []
    if not rows:
        rows = ledger.query("SELECT json_extract(payload, '$.decimals') FROM events WHERE"
                            " source_key = ? AND type = 'session_opened' LIMIT 1", [opened_key])
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def head_position(ledger: Any) -> int:
    """The ledger's last position (0 when empty)."""
    return int(ledger.query("SELECT coalesce(max(position), 0) FROM events")[0][0])


def any_stored(ledger: Any, hands: Sequence[str], sessions: Sequence[str], *, upto: int) -> bool:
    """Whether a row at or before position ``upto`` belongs to one of ``hands`` or
    ``sessions``."""
    return bool(ledger.query(
        "SELECT 1 FROM events WHERE position <= $3 AND (hand_id IN (SELECT UNNEST($1))"
        " OR session IN (SELECT UNNEST($2))) LIMIT 1", [list(hands), list(sessions), upto]))


def hand_count(ledger: Any) -> int:
    """The number of hands in the ledger."""
    return int(ledger.query(
        "SELECT count(*) FROM events WHERE seq = 1 AND hand_id IS NOT NULL")[0][0])


def session_summaries(ledger: Any) -> list[dict[str, Any]]:
    """Every session in ledger order (of its first row): ``session``, ``date``, ``closed``,
    ``buy_ins`` (the buy-in entries in effect: a retracted one is not counted, the latest
    correction of an entry deciding), ``buy_ins_retracted`` (the buy-in entries retracted,
    apart), ``hands`` and ``opened`` (False for a session its
    hands name that was never opened: a site's history or an export's ``_session`` carries
    no book; docs/COMMANDS.md "session list")."""
    rows = ledger.query(
        "WITH fix AS (SELECT session, CAST(payload->>'seq' AS BIGINT) AS target,"
        " arg_max(payload->>'replacement', position) AS now FROM events"
        " WHERE type = 'entry_corrected' GROUP BY 1, 2)"
        " SELECT e.session, any_value(e.payload->>'date') FILTER (WHERE e.type ="
        " 'session_opened'), bool_or(e.type = 'session_closed'), count(*) FILTER (WHERE"
        " e.type = 'buy_in' AND (f.target IS NULL OR (f.now IS NOT NULL AND f.now <> 'null'))),"
        " min(e.position), count(*) FILTER (WHERE e.type = 'buy_in' AND f.target IS NOT NULL"
        " AND (f.now IS NULL OR f.now = 'null')) FROM events e"
        " LEFT JOIN fix f ON f.session = e.session"
        " AND f.target = e.seq WHERE e.hand_id IS NULL GROUP BY e.session ORDER BY 5")
    named = ledger.query("SELECT session, count(*), min(position) FROM events WHERE seq = 1"
                         " AND hand_id IS NOT NULL GROUP BY session")
    hands = {s: n for s, n, _ in named}
    opened = set(ledger.query("SELECT DISTINCT session FROM events"
                              " WHERE type = 'session_opened'"))
    booked = {s for s, *_ in rows}
    rows += [(s, None, False, 0, first, 0) for s, _, first in named
             if s is not None and s not in booked]
    rows.sort(key=lambda row: row[4])
    return [{"session": s, "date": d, "closed": bool(c), "buy_ins": b, "buy_ins_retracted": r,
             "hands": hands.get(s, 0), "opened": (s,) in opened}
            for s, d, c, b, _, r in rows]


def money_hand(ledger: Any, session: str) -> tuple[str, str] | None:
    """``(hand, currency)`` of the first hand of ``session`` whose amounts came in money (its
    ``unit`` names a currency), None when none."""
    rows = ledger.query(
        "SELECT hand_id, payload->'unit'->>'currency' FROM events WHERE type = 'hand_started'"
        " AND session = ? AND payload->'unit'->>'currency' IS NOT NULL ORDER BY position"
        " LIMIT 1", [session])
    return (rows[0][0], rows[0][1]) if rows else None


def hand_units(ledger: Any, session: str) -> list[tuple[str, dict[str, Any]]]:
    """``(hand, unit)`` of the first hand of ``session`` of each distinct stored ``unit``
    (the ``hand_started`` payload's, as JSON: ``currency``, ``minor_per_chip``,
    ``decimals``), in ledger order; empty when the session holds no hand."""
    import json

    rows = ledger.query(
        "SELECT arg_min(hand_id, position), CAST(payload->'unit' AS VARCHAR) FROM events"
        " WHERE type = 'hand_started' AND session = ? GROUP BY 2 ORDER BY min(position)",
        [session])
    return [(hand, json.loads(unit) if unit else {}) for hand, unit in rows]


def unnamed_money_hand(ledger: Any, session: str) -> tuple[str, int, int] | None:
    """``(hand, minor units a chip, decimals)`` of the first hand of ``session`` whose amounts
    came in money of no named currency (its ``unit`` has decimal places but no currency: a
    PokerNow log in cents, FORMATS.md §2), None when none."""
    rows = ledger.query(
        "SELECT hand_id, CAST(payload->'unit'->>'minor_per_chip' AS BIGINT),"
        " CAST(payload->'unit'->>'decimals' AS INTEGER) FROM events WHERE type ="
        " 'hand_started' AND session = ? AND payload->'unit'->>'currency' IS NULL"
        " AND CAST(payload->'unit'->>'decimals' AS INTEGER) > 0 ORDER BY position LIMIT 1",
        [session])
    return (rows[0][0], int(rows[0][1]), int(rows[0][2])) if rows else None


def seated_in(ledger: Any, session: str, *, besides: Collection[str] = ()) -> set[str]:
    """The players seated in any hand of ``session`` but those of ``besides`` (hand ids)."""
    rows = ledger.query(
        "SELECT DISTINCT UNNEST(CAST(json_extract_string(payload, '$.seats[*].player')"
        " AS VARCHAR[])) FROM events WHERE type = 'hand_started' AND session = $1"
        " AND NOT list_contains($2, hand_id)", [session, sorted(besides)])
    return {r[0] for r in rows}


def voided_rows_in(ledger: Any, session: str) -> list[str]:
    """The hands of ``session`` with a ``hand_voided`` row, in ledger order (the caller
    decides whether the void is in force: an undo may have taken it back)."""
    return [h for h, in ledger.query(
        "SELECT hand_id FROM events WHERE session = $1 AND type = 'hand_voided'"
        " GROUP BY hand_id ORDER BY min(position)", [session])]


def open_hands_of(ledger: Any, session: str, player: str) -> list[tuple[str, bool]]:
    """The hands of ``session``, in ledger order, that seat ``player`` and have not ended (a
    hand recorded live, still being played, unless voided), each with whether it has a
    ``hand_voided`` row (the caller decides whether that void is in force: an undo may have
    taken it back)."""
    rows = ledger.query(
        "SELECT hand_id, bool_or(type = 'hand_voided') FROM events WHERE session = $1"
        " AND hand_id IS NOT NULL GROUP BY hand_id HAVING NOT bool_or(type = 'hand_ended')"
        " AND list_contains(CAST(json_extract_string(any_value(payload) FILTER"
        " (WHERE type = 'hand_started'), '$.seats[*].player') AS VARCHAR[]), $2)"
        " ORDER BY min(position)", [session, player])
    return [(hand, bool(voided)) for hand, voided in rows]


def hands_seating(ledger: Any, session: str | None, players: Collection[str]
                  ) -> list[tuple[str, bool, bool]]:
    """The hands of ``session`` (None: of no session), in ledger order, that seat any of
    ``players``, each as ``(hand, voided, ended)``: whether it has a ``hand_voided`` row and
    a ``hand_ended`` row (the caller decides whether a void is in force: an undo may have
    taken it back)."""
    rows = ledger.query(
        "SELECT hand_id, bool_or(type = 'hand_voided'), bool_or(type = 'hand_ended')"
        " FROM events WHERE session IS NOT DISTINCT FROM $1 AND hand_id IS NOT NULL"
        " GROUP BY hand_id HAVING len(list_intersect(CAST(json_extract_string(any_value("
        "payload) FILTER (WHERE type = 'hand_started'), '$.seats[*].player') AS VARCHAR[]),"
        " $2)) > 0 ORDER BY min(position)", [session, sorted(players)])
    return [(hand, bool(voided), bool(ended)) for hand, voided, ended in rows]


def unended_hands(ledger: Any, session: str) -> list[str]:
    """The hands of ``session``, in ledger order, that may still be in play: those without a
    ``hand_ended`` row, and those with a correction or a void (which may have taken the end
    back, or voided the hand); the caller folds them to tell."""
    rows = ledger.query(
        "SELECT hand_id FROM events WHERE session = $1 AND hand_id IS NOT NULL GROUP BY"
        " hand_id HAVING NOT bool_or(type = 'hand_ended') OR bool_or(type IN ('correction',"
        " 'hand_voided')) ORDER BY min(position)", [session])
    return [r[0] for r in rows]


def alias_pairs(ledger: Any) -> list[tuple[str | None, str]]:
    """``(player, alias)`` of every ``player_alias`` row and ``(None, alias)`` of every
    ``player_unaliased`` row (the alias ended there), in ledger order."""
    return [(p, a) for p, a in ledger.query(
        "SELECT payload->>'player', payload->>'alias' FROM events"
        " WHERE type IN ('player_alias', 'player_unaliased') ORDER BY position")]


#: Every player name of the events in a range of positions (``{rows}``: a condition on
#: ``position``): seated in a hand, in a book entry (a buy-in, a cash-out, a payment's payer or
#: payee) or in a ``player_alias`` row, either side (one column, NULLs among them).
PLAYER_NAMES_SQL = (
    "SELECT DISTINCT UNNEST(CAST(json_extract_string(payload, '$.seats[*].player')"
    " AS VARCHAR[])) FROM events WHERE type = 'hand_started' AND {rows}"
    " UNION SELECT DISTINCT unnest([payload->>'player', payload->>'payer',"
    " payload->>'payee', payload->>'alias']) FROM events WHERE hand_id IS NULL"
    " AND type IN ('buy_in', 'cash_out', 'payment', 'player_alias') AND {rows}")


def player_names(ledger: Any) -> set[str]:
    """Every player name the ledger holds: seated in a hand, in a book entry (a buy-in, a
    cash-out, a payment's payer or payee) or in a ``player_alias`` row, either side.

    The derived tables record those names up to the head they were built from
    (``derived_state``'s ``players``, a JSON list, :func:`ledger.audit.tables.refresh`);
    when they belong to this ledger (that head's chain hash) only the rows after it are read,
    as :func:`alias_sessions` does. Reading the seats of every ``hand_started`` row costs
    about 0.2 s of CPU at 100,000 hands, which ``hand start`` must not pay. Otherwise (no
    derived tables, or tables of another ledger) every row is read.

    Raises:
        LedgerError: the ledger cannot be read.
    """
    known, since = at_head(ledger, "players")
    rows = ledger.query(PLAYER_NAMES_SQL.format(rows="position > $1"), [since])
    return set(known or ()) | {r[0] for r in rows if r[0] is not None}


def at_head(ledger: Any, key: str) -> tuple[Any, int]:
    """``(value, head)``: the JSON value ``key`` of ``derived_state`` and the ledger position
    it holds up to, when the derived tables were built from this ledger's rows (the row at
    their head has the chain hash they recorded; an empty ledger's head is 0); ``(None, 0)``
    otherwise (never built, built before ``key`` was kept, or from other rows): the caller
    then reads every row.

    Raises:
        LedgerError: the ledger cannot be read.
    """
    # derived tables never written: known from the catalog (about 1 ms), not from a query of
    # the missing table (10-15 ms: ledger.store.duck.present_tables), on every live action
    if "derived_state" not in {row[0] for row in ledger.query(TABLES_HERE)}:
        return None, 0
    try:
        state = dict(ledger.query("SELECT key, value FROM derived_state"))
    except LedgerError:  # a derived_state edited by hand: read as none
        return None, 0
    if key in state and state.get("head", "").isdigit():
        head = int(state["head"])
        row = ledger.query("SELECT hash FROM events WHERE position = ?", [head])
        if head == 0 or (row and row[0][0] == state.get("head_hash")):
            return json.loads(state[key]), head
    return None, 0


def shared_hand(ledger: Any, a: Sequence[str], b: Sequence[str]) -> str | None:
    """The first hand (in ledger order) where a player named in ``a`` and one named in ``b``
    were both seated, None when none."""
    rows = ledger.query(
        "SELECT hand_id FROM events WHERE type = 'hand_started'"
        " AND list_has_any(CAST(json_extract_string(payload, '$.seats[*].player')"
        " AS VARCHAR[]), $1)"
        " AND list_has_any(CAST(json_extract_string(payload, '$.seats[*].player')"
        " AS VARCHAR[]), $2) ORDER BY position LIMIT 1", [list(a), list(b)])
    return rows[0][0] if rows else None


def shared_session(ledger: Any, a: Sequence[str], b: Sequence[str]) -> str | None:
    """The first session (in ledger order) where a player named in ``a`` and one named in
    ``b`` both have a book entry in force (a buy-in, a cash-out, or a payment as payer or
    payee; a retracted one counts for nothing, as in the books), None when none."""
    rows = ledger.query(
        "WITH who AS (SELECT session, position, unnest([payload->>'player',"
        " payload->>'payer', payload->>'payee']) AS player FROM events b"
        " WHERE hand_id IS NULL AND type IN ('buy_in', 'cash_out', 'payment')"
        " AND NOT EXISTS (SELECT 1 FROM events c WHERE c.type = 'entry_corrected'"
        " AND c.stream = b.stream AND CAST(c.payload->>'seq' AS BIGINT) = b.seq"
        " AND c.payload->>'replacement' IS NULL))"
        " SELECT session FROM who GROUP BY session"
        " HAVING bool_or(list_contains($1, player)) AND bool_or(list_contains($2, player))"
        " ORDER BY min(position) LIMIT 1", [list(a), list(b)])
    return rows[0][0] if rows else None


def latest_session(ledger: Any) -> str | None:
    """The session opened last (None: no session)."""
    rows = ledger.query("SELECT session FROM events WHERE type = 'session_opened'"
                        " ORDER BY position DESC LIMIT 1")
    return rows[0][0] if rows else None


def hands_again_of(ledger: Any, hand: str) -> list[str]:
    """The hands whose ``hand_started`` records ``hand`` again (``hand again``: its
    ``source`` names it, :data:`ledger.model.events.AGAIN_OF`), in ledger order, voided or
    not (the caller decides whether a void is in force)."""
    return [h for h, in ledger.query(
        "SELECT hand_id FROM events WHERE seq = 1 AND type = 'hand_started'"
        " AND payload->'source'->>'again_of' = $1 ORDER BY position", [hand])]


def unclosed_sessions(ledger: Any) -> list[str]:
    """The sessions opened with no ``session_closed`` row, in the order they were opened (a
    close taken back is for :func:`replay.sessions.open_state` to say)."""
    return [s for s, in ledger.query(
        "SELECT session FROM events WHERE hand_id IS NULL AND type IN ('session_opened',"
        " 'session_closed') GROUP BY session HAVING bool_and(type = 'session_opened')"
        " ORDER BY min(position)")]


def stored_rows(ledger: Any, streams: Sequence[str]) -> dict[tuple[str, int], str]:
    """``{(stream, seq): the stored event JSON}`` of every row of ``streams``."""
    if not streams:
        return {}
    rows = ledger.query("SELECT stream, seq, CAST(payload AS VARCHAR) FROM events"
                        " WHERE stream IN (SELECT UNNEST(?))", [list(streams)])
    return {(stream, seq): payload for stream, seq, payload in rows}


def platform_names(ledger: Any) -> dict[str, str]:
    """``{platform id: the latest name it played under}`` for the players a PokerNow import
    knows by their id (its ``player_alias`` rows, id → name, in sessions whose players are
    platform ids: :func:`platform_sessions`), or the name a host gave him there with ``player
    alias NAME ID`` (a row NAME → id: the books then know him as NAME, README "PokerNow");
    a row a ``player unalias`` ended left out; an id a host's rows name, as the books resolve
    him (:func:`ledger.model.names.resolved_aliases`: ``balances``, ``standings`` and the
    exports name him so too, the latest alias winning). Empty when there are none.

    First the sessions with an alias (:func:`alias_sessions`), then the payloads of those
    sessions' openings, hands and aliases alone. Reading the payload of rows spread over the
    whole ledger (every opening) costs about 0.3 ms a row, 0.2 s at 100,000 hands: a ``state``
    must not pay that on a ledger without aliases."""
    sessions = platform_sessions(ledger, alias_sessions(ledger))
    if not sessions:
        return {}
    rows = ledger.query(
        "SELECT payload->>'player', payload->>'alias', list_contains($1, session)"
        " FROM events WHERE type IN ('player_alias', 'player_unaliased') ORDER BY position",
        [sorted(sessions)])
    # (player, alias, of a platform session) in ledger order; an alias ended (player None)
    # takes away its latest row still in force, whatever session holds it, as the books do
    # (ledger.model.names.aliases_in_force)
    kept: list[tuple[str, str, bool]] = []
    for player, alias, platform in rows:
        if player is None:
            last = [k for k, (_, a, _) in enumerate(kept) if a == alias]
            if last:
                p, a, here = kept.pop(last[-1])
                if here and all(p != q and a != q for q, _, on in kept if on):
                    # an id left with no name: still one a host may name (NAME → id)
                    kept.insert(last[-1], (p, p, True))
        else:
            kept.append((player, alias, bool(platform)))
    named = shown_names((p, a) for p, a, here in kept if here)
    # an id a host named (`player alias NAME ID`, chains and a name turned round followed) is
    # shown as the books group him, the same answer as balances and standings: the player he
    # is, by that player's own name when it is an id of a name
    books = resolved_aliases([(p, a) for p, a, _ in rows])
    shown = {pid: named.get(books[pid], books[pid]) if pid in books else name
             for pid, name in named.items()}
    return {pid: name for pid, name in shown.items() if pid != name}


def shown_names(rows: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{platform id: his name}`` of ``(player, alias)`` rows in ledger order: a PokerNow
    row names the id ``player`` ``alias``; a host's row whose ``alias`` is an id already named
    (``player alias Marty HXN7RGKNLI``), or the name a host gave ids (``player alias Marty2
    Marty``), names them ``player`` from then on, as the books resolve him
    (:func:`ledger.audit.books.resolve_aliases`), and a later PokerNow name of his leaves it;
    a host's row making another name stand for that name (``player alias Marty M7``) names
    no id.

    >>> shown_names([("HXN7", "Mdey"), ("Marty", "HXN7"), ("HXN7", "Mdey 2")])
    {'HXN7': 'Marty'}
    >>> shown_names([("id1", "A8"), ("Dave", "id1"), ("Dave", "P7"), ("P7", "Dave")])
    {'id1': 'P7'}
    """
    out: dict[str, str] = {}
    hosted: set[str] = set()
    for player, alias in rows:
        if alias in out:
            out[alias] = player
            hosted.add(alias)
        elif renamed := [pid for pid in hosted if out[pid] == alias]:
            out.update(dict.fromkeys(renamed, player))
        elif any(out[pid] == player for pid in hosted):
            continue  # another name for a host-named player: alias stands for him, no id
        elif player not in hosted:
            out[player] = alias
    return out


def platform_sessions(ledger: Any, sessions: Collection[str]) -> set[str]:
    """Those of ``sessions`` whose players are platform ids
    (:func:`ledger.model.platform.marks_platform_session`): a PokerNow log opened it, or one
    of its hands was read from one. The openings are read first, then the hands of the other
    sessions only (a session of 500 hands, about 5 ms).

    Raises:
        LedgerError: the ledger cannot be read.
    """
    if not sessions:
        return set()
    marked = platform_sessions_of(ledger.query(
        "SELECT session, type, payload->'source'->>'format' FROM events"
        " WHERE type = 'session_opened' AND list_contains($1, session)", [sorted(sessions)]))
    rest = sorted(set(sessions) - marked)
    if rest:
        marked |= platform_sessions_of(ledger.query(
            "SELECT DISTINCT session, type, payload->'source'->>'format' FROM events"
            " WHERE type = 'hand_started' AND list_contains($1, session)"
            " AND payload->'source'->>'format' = $2", [rest, PLATFORM_FORMAT]))
    return marked


def alias_sessions(ledger: Any) -> set[str]:
    """The sessions with a ``player_alias`` or ``player_unaliased`` row. The derived tables
    record those up to the head they were built from (``derived_state``'s
    ``alias_sessions``, with that head's chain hash); when they belong to this ledger only
    the rows after that head are looked at,
    which the ledger's order makes cheap: a ``state`` on a ledger of 100,000 hands read the
    ``type`` column of every row, 40 ms. Otherwise every row is (about 13 ms of CPU at
    3.5 million rows).

    Raises:
        LedgerError: the ledger cannot be read.
    """
    sessions, since = at_head(ledger, "alias_sessions")
    known = set(sessions or ())
    # the range (which the two types bound) is a filter DuckDB applies inside its scan of the
    # compressed column, the IN after it: half the CPU of the IN alone over every row
    return known | {s for (s,) in ledger.query(
        "SELECT DISTINCT session FROM events WHERE position > $1"
        " AND type BETWEEN 'player_alias' AND 'player_unaliased'"
        " AND type IN ('player_alias', 'player_unaliased') AND session IS NOT NULL", [since])}


# ----------------------------------------------------------------------------- lookups for a report


def hand_heads(ledger: Any) -> list[tuple[str, str | None, int, str]]:
    """``(hand, session, rows, hash of its last row)`` of every hand in ledger order (of its
    first row). The chain hash of a hand's last row seals every row of the hand (and of the
    ledger before it), so it changes exactly when the hand gains a row (a correction, a void,
    a longer export): what a page of the hand is keyed on."""
    return [(h, s, int(n), last) for h, s, n, last in ledger.query(
        "SELECT hand_id, arg_min(session, position), count(*), arg_max(hash, position)"
        " FROM events WHERE hand_id IS NOT NULL GROUP BY hand_id ORDER BY min(position)")]


def read_hands(ledger: Any, hands: Sequence[str]) -> dict[str, list[StoredEvent]]:
    """``{hand: its stored rows by seq}`` for those of ``hands`` the ledger holds, read with
    one query (what :meth:`ledger.store.store.Ledger.read` gives for each)."""
    if not hands:
        return {}
    out: dict[str, list[StoredEvent]] = {}
    for row in ledger.query(f"SELECT {COLUMNS} FROM events WHERE hand_id IS NOT NULL"
                            " AND stream IN (SELECT UNNEST(?)) ORDER BY stream, seq",
                            [list(hands)]):
        out.setdefault(row[1], []).append(StoredEvent(*row))
    return out


def amendments(ledger: Any) -> list[tuple[str, int, Any]]:
    """``(hand, seq, event)`` of every correction and void in ledger order (typed events:
    ``by``, ``reason``).

    Raises:
        MalformedEvent: a stored payload that does not parse.
    """
    rows = ledger.query("SELECT hand_id, seq, CAST(payload AS VARCHAR) FROM events"
                        " WHERE hand_id IS NOT NULL AND type IN ('correction', 'hand_voided')"
                        " ORDER BY position")
    return [(hand, int(seq), parse_event(payload)) for hand, seq, payload in rows]
