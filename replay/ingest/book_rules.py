"""A file's book entries held to the rules of the commands that write them.

A JSON-lines file's session rows are the host's books (README "JSON lines"): each buy-in,
cash-out and payment it writes is checked as ``buyin``, ``cashout`` and ``pay`` check the
entry they append, by the same code (:mod:`replay.sessions.entries`,
:mod:`replay.sessions.payments`), against the books at its place: the session's stream before
its seq (amendments before it applied; each name folded as the player it is, as the commands
and the audit resolve ``player alias``: :func:`replay.sessions.state.series_names`, so a
cash-out or rebuy under an alias follows a buy-in under the other name; each row is stored
as the file writes it), the hands of the session for who is in its books,
and, for what a payer still owes, the hands' nets as ``settle`` reckons them
(:func:`ledger.audit.settlement.settlement`) with the payments before it. One row refused refuses
its file whole, in one line naming file, line and session.

* a buy-in: the player's name (:func:`ledger.model.names.check_name`; a player first named
  there, one printing like a player of the books, or a word of the action notation:
  :func:`replay.sessions.entries.new_player`), a rebuy or top-up of a player with no buy-in
  yet, his buy-ins together beyond the ledger's bound (:func:`~replay.sessions.entries.
  buy_in_kind`); the session opened before it; the hand it was made before (``before``), a
  hand of the session (:func:`~replay.sessions.entries.hand_of_session`);
* a cash-out: the player's name and that he has chips at the table, a buy-in and no
  cash-out since (:func:`~replay.sessions.entries.not_at_table`); the chips the table holds
  are :mod:`replay.ingest.table_bound`'s;
* a payment: the names, two players (or a player and the house), each in the session's books
  (:func:`replay.sessions.state.in_books`), within the payer's buy-ins
  (:func:`~replay.sessions.payments.within_buy_ins`), and, unless the row says
  ``"more_than_owed": true`` (what ``pay --more-than-owed`` records and an export writes) or
  gives a ``reason`` (a site's bounty, FORMATS.md §2: no settling up), not beyond what is owed
  (:func:`~replay.sessions.payments.beyond_owed`'s rules).

What ``pay --again`` allows a file's row has by its own seq: two payments of one amount are two
rows, as an export writes them. What a closed session takes is :mod:`replay.ingest.closed`'s.
A payment followed by more hands of its session is bounded as while ``settle`` cannot say (its
payments together within the payer's buy-ins): the derived tables count the session's hands
after it. A hand of the session corrected, voided or undone after a payment (rows of its stream
after the payment's: an export of a hand corrected with ``--closed`` once the session was
settled up) counts for that payment as it stood at its place, its rows after it not applied
(:class:`_Then`); a hand still in play there leaves settle nothing to say, as above.
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.names import check_name

#: The book entries checked here.
ENTRIES = ("buy_in", "cash_out", "payment")


class Refusal(NamedTuple):
    """A book row of a file that its command would refuse: its ledger ``position`` (the
    caller names its file line), ``session`` and the refusal's text."""

    position: int
    session: str
    message: str


def first_refused_entry(ledger: Any, since: int, *, short: bool = False) -> Refusal | None:
    """The first buy-in, cash-out or payment stored after ledger position ``since`` (an
    import's rows, inside its transaction) that its command would have refused at its place
    (module doc), or None. ``short``: hands of the file were refused, so the books lack them
    and settle's reckoning cannot say what a payer still owes: its payments are bounded by
    his buy-ins instead. The book rows of their sessions are read in one query; the derived
    tables are caught up only when a payment is bounded by what is owed."""
    sessions = [s for (s,) in ledger.query(
        "SELECT DISTINCT session FROM events WHERE position > $1 AND type IN ('buy_in',"
        " 'cash_out', 'payment') AND session IS NOT NULL AND stream = 'session:' || session"
        " ORDER BY session", [since])]
    if not sessions:
        return None
    rows = ledger.query(
        "SELECT session, position, seq, type, payload FROM events WHERE list_contains($1,"
        " session) AND stream = 'session:' || session ORDER BY session, seq", [sessions])
    reads, owed = _Reads(ledger), _Owed(ledger, sessions, short=short)
    seated: dict[str, set[str]] = {s: set() for s in sessions}
    for session, player in ledger.query(  # seated_in of each session, in one query
            "SELECT DISTINCT session, UNNEST(CAST(json_extract_string(payload,"
            " '$.seats[*].player') AS VARCHAR[])) FROM events WHERE type = 'hand_started'"
            " AND list_contains($1, session)", [sessions]):
        seated[session].add(player)
    found = []
    for session, group in itertools.groupby(rows, key=lambda r: r[0]):
        refused = _first_in(reads, owed, session, list(group), since, seated[session])
        if refused is not None:
            found.append(refused)
    return min(found, default=None)


def _first_in(reads: Any, owed: _Owed, session: str, rows: list[tuple[Any, ...]],
              since: int, seated: set[str]) -> Refusal | None:
    """The first row of ``session`` stored after ``since`` refused, of its stream's
    ``(session, position, seq, type, payload)`` ``rows`` by seq, or None; ``seated``: the
    players of its hands. The books fold each name as the player it is
    (:func:`replay.sessions.state.series_names`, as the commands and the audit resolve
    aliases) and each row at its place among the hands (:mod:`ledger.audit.placing`: a
    buy-in made before a hand just before it, as the commands' books count it); each row is
    stored as the file writes it."""
    from ledger.audit.placing import hand_starts, named_hand, place
    from replay.sessions.state import SessionState, fold_row, fold_rows, series_names

    players = series_names(reads)
    state, folded = SessionState(), []
    parsed = [(position, seq, kind, ev.parse_stored(kind, payload))
              for _, position, seq, kind, payload in rows]
    named = [(session, h) for *_, e in parsed if (h := named_hand(e)) is not None]
    if named:  # a buy-in made before a hand counts there (ledger order between equals)
        starts = hand_starts(reads.connection, named)
        parsed.sort(key=lambda r: place(r[0], session, r[3], starts))
    for position, seq, kind, e in parsed:
        if position > since and kind in ENTRIES:
            said = _said(e, seq, state)
            try:
                _check(reads, owed, session, state, position, e, said, seated, players)
            except LedgerError as exc:
                return Refusal(position, session, _in_file(exc.message, said))
        folded.append((seq, e))
        if kind == "entry_corrected":  # it amends an entry before it: the books again
            state = fold_rows(folded, players)
        else:
            last = state.last_seq
            fold_row(state, seq, e, players)
            state.last_seq = max(last, seq)  # rows in place order
    return None


def _said(e: Any, seq: int, state: Any) -> str:
    """The row as a refusal names it: ``its payment at seq 28 (Erin pays Alice 179.00 USD)``,
    a player's name longer than a name may be cut there (its refusal says so)."""
    from ledger.model.names import MAX_NAME_LENGTH
    from replay.sessions.payments import party

    if e.type == "payment":
        what = (f"{party(e.payer, e.bank)} pays {party(e.payee, e.bank)} "
                f"{state.money(e.amount_minor)}")
    else:
        cut = e.player[:MAX_NAME_LENGTH] + "…" if len(e.player) > MAX_NAME_LENGTH else e.player
        what = f"{cut}, {e.chips} chips" + (f", {e.kind}" if e.type == "buy_in" else "")
    return f"its {e.type} at seq {seq} ({what})"


def _in_file(message: str, said: str) -> str:
    """A command's refusal ``message`` as a file's row's: led by the row (``said``) unless
    it names it, its flag as the file gives it, and (once) that nothing of the file was
    written (:func:`replay.ingest.wording.of_the_file`)."""
    from replay.ingest.wording import of_the_file

    text = message if message.startswith(said) else f"{said}: {message}"
    text = text.replace("; --more-than-owed records it anyway", "; a row with "
                        '"more_than_owed": true records it anyway (as pay --more-than-owed)')
    return of_the_file(text)


def _check(reads: Any, owed: _Owed, session: str, state: Any, position: int, e: Any,
           said: str, seated: set[str], players: dict[str, str]) -> None:
    """Refuse the book row ``e`` at ``position`` as its command would, ``state`` being its
    session's books before it, each name folded as the player it is (``players``: the
    series' alias map, :func:`replay.sessions.state.series_names`): a buy-in or cash-out
    under an alias is its player's, as ``buyin`` and ``cashout`` take it.

    Raises:
        LedgerError: the command's refusal."""
    from replay.sessions.amounts import bounded
    from replay.sessions.entries import buy_in_kind, hand_of_session, new_player, not_at_table
    from replay.sessions.state import in_books, no_session

    if not state.opened:
        raise no_session(session, [])
    if e.type == "buy_in":
        check_name(e.player)
        if e.player not in in_books(reads, session, state, seated=seated):
            new_player(reads, session, state, e.player, said, seated=seated)
        bounded(state, said, e.chips)
        buy_in_kind(session, state, players.get(e.player, e.player), e.chips, e.kind, said,
                    fix="make its kind buy_in")
        if e.before is not None:
            hand_of_session(reads, session, e.before, said)
    elif e.type == "cash_out":
        check_name(e.player)
        away = not_at_table(session, state, players.get(e.player, e.player), e.chips)
        if away is not None:
            raise away
    else:
        _check_payment(reads, owed, session, state, position, e, said, seated)


def _check_payment(reads: Any, owed: _Owed, session: str, state: Any, position: int, e: Any,
                   said: str, seated: set[str]) -> None:
    """Refuse the payment ``e`` as ``pay`` would (:func:`_check`); one with the bank
    (``bank``) by its names alone: the chips in no player's net it pays are the late
    corrections', which the file's rows around it decide (``settle`` nets it off)."""
    from replay.sessions.payments import not_in_books, within_buy_ins
    from replay.sessions.state import in_books

    for who in (e.payer, e.payee):
        if who is not None:
            check_name(who)
    if e.payer == e.payee:
        raise MalformedInput("a payment needs two different players")
    known = in_books(reads, session, state, seated=seated)
    for who in (e.payer, e.payee):
        if who is not None and who not in known:
            raise not_in_books(who, session, known)
    if e.bank:
        return
    if e.payer is not None:
        within_buy_ins(reads, session, state, e.payer, e.amount_minor, said, "")
    if not e.more_than_owed and e.reason is None:
        owed.check(reads, session, state, position, e, said)


class _Reads:
    """The ledger as the checks read it, each query asked once: nothing is written while
    they run, and the same reads (a session's seats, the aliases) serve every row."""

    def __init__(self, ledger: Any) -> None:
        self._ledger = ledger
        self._memo: dict[tuple[str, str], Any] = {}

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        key = (sql, repr(params))
        if key not in self._memo:
            self._memo[key] = self._ledger.query(sql, params)
        return self._memo[key]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ledger, name)


class _Owed:
    """What the payers of ``sessions`` still owe as ``settle`` reckons it, read once the
    derived tables are caught up (at the first payment bounded so): each session's players'
    rows (:func:`ledger.audit.settlement.session_nets`), the ledger position of its last hand,
    and, asked only when the rules part on it, whether settle can say (a hand in play, nets
    that do not sum to zero: :func:`ledger.audit.settlement.settlement` refuses)."""

    def __init__(self, ledger: Any, sessions: list[str], *, short: bool = False) -> None:
        self._ledger, self._sessions = ledger, sessions
        self._nets: dict[str, list[dict[str, Any]]] | None = None
        self._last: dict[str, int] = {}
        self._says: dict[str, bool] = dict.fromkeys(sessions, False) if short else {}
        self._then_books: _Then | None = None

    def _load(self) -> dict[str, list[dict[str, Any]]]:
        from ledger.audit.settlement import session_nets
        from replay.projections import catch_up

        if self._nets is None:
            self._last = dict(self._ledger.query(
                "SELECT session, max(position) FROM events WHERE seq = 1 AND hand_id IS NOT"
                " NULL AND list_contains($1, session) GROUP BY session", [self._sessions]))
            self._nets = {}
            if self._last and not self._says:  # no hand: no net to settle (within_owed)
                try:
                    catch_up(self._ledger)
                    self._nets = session_nets(self._ledger.connection, self._sessions)
                except LedgerError:  # a hand the rules refuse: settle cannot say anywhere
                    self._says = dict.fromkeys(self._sessions, False)
        return self._nets

    def _then(self, session: str, position: int, nets: list[dict[str, Any]]
              ) -> tuple[list[dict[str, Any]], int] | None:
        """:meth:`_Then.at`, the hands' spans read at the first payment that asks."""
        if self._then_books is None:
            self._then_books = _Then(self._ledger, self._sessions)
        return self._then_books.at(session, position, nets)

    def _can_say(self, session: str) -> bool:
        from ledger.audit.settlement import settlement

        if session not in self._says:
            try:
                settlement(self._ledger.connection, session)
                self._says[session] = True
            except LedgerError:
                self._says[session] = False
        return self._says[session]

    def check(self, reads: Any, session: str, state: Any, position: int, e: Any,
              said: str) -> None:
        """Refuse the payment ``e`` at ``position`` beyond what is owed, as ``pay`` does
        without ``--more-than-owed`` (:func:`replay.sessions.payments.beyond_owed`): by
        what its payer still owes where settle can say and the session has hands, else by
        his buy-ins with what he paid before; and a payment with the house by what it is
        owed or was paid, the payments before it counted.

        Raises:
            LedgerError: the refusal ``pay`` gives."""
        from replay.sessions.payments import paid_by, within_buy_ins, within_house, within_owed

        nets = self._load()
        payer, minor = e.payer, e.amount_minor
        then = self._then(session, position, nets.get(session, [])) if nets else None
        if payer is not None:
            def by_buy_ins() -> None:
                within_buy_ins(reads, session, state, payer, minor, said, "",
                               before=paid_by(reads, state, payer))

            if self._last.get(session, 0) > position or (nets and then is None):
                by_buy_ins()  # hands after it, or one in play there: not its books
            else:
                try:
                    hands = within_owed(reads, session, state, payer, minor, said,
                                        books=then[0] if then else [], payments=state.payments)
                except LedgerError:
                    if self._can_say(session):
                        raise
                    hands = False
                if not hands:
                    by_buy_ins()
                else:
                    try:
                        by_buy_ins()
                    except LedgerError:
                        if not self._can_say(session):
                            raise
        if None in (e.payer, e.payee):
            within_house(self._ledger, session, state, minor, said, paying=payer is None,
                         payments=state.payments, rake_shift=then[1] if then else 0)


class _Then:
    """The books of a session as they stood at a payment's place where a hand of it has rows
    after the payment (a correction, a void or an undo appended once the session was settled
    up): each such hand replayed without those rows (:func:`replay.fold.replay_events`), its
    players' nets (the books' net, :attr:`replay.hand_replay.HandReplay.paid_net`) and the
    rake the books count (:func:`ledger.audit.rake_count.counted_rake`) put back as they
    were there. The session's hands' spans are read once, a hand's stream only when a
    payment falls inside its span."""

    def __init__(self, ledger: Any, sessions: list[str]) -> None:
        self._ledger = ledger
        self._spans: dict[str, list[tuple[str, int, int]]] = {s: [] for s in sessions}
        for hand, session, first, last in ledger.query(
                "SELECT hand_id, any_value(session), min(position), max(position) FROM events"
                " WHERE hand_id IS NOT NULL AND list_contains($1, session) GROUP BY hand_id"
                " ORDER BY min(position)", [sessions]):
            self._spans[session].append((hand, first, last))
        self._rows: dict[str, list[tuple[int, Any]]] = {}
        self._unit: dict[str, int] = {}

    def at(self, session: str, position: int, nets: list[dict[str, Any]]
           ) -> tuple[list[dict[str, Any]], int] | None:
        """``(nets, rake_shift)``: the players' rows of ``nets`` (:func:`ledger.audit.
        reports.session_nets`, minor units) as they stood at ``position``, and what to add to
        the rake the house is owed (minor units) to have it as it stood there; None when a
        hand of ``session`` was still in play there (or did not replay), when settle could
        not say."""
        inside = [h for h, first, last in self._spans.get(session, ()) if first < position < last]
        if not inside:
            return nets, 0
        from ledger.audit.rake_count import counted_rake
        from replay.fold import replay_events

        unit = self._chip_value(session)
        moved: dict[str, int] = {}
        rake = 0
        for hand in inside:
            rows = self._stream(hand)
            try:
                was = replay_events([e for at, e in rows if at < position], session=session)
                now = replay_events([e for _, e in rows], session=session)
            except IllegalAction:
                return None
            if was.result.status == "open":
                return None
            for player in set(was.paid_net) | set(now.paid_net):
                shift = was.paid_net.get(player, 0) - now.paid_net.get(player, 0)
                moved[player] = moved.get(player, 0) + shift * unit
            rake += (counted_rake(was.discrepancies) - counted_rake(now.discrepancies)) * unit
        books = [dict(p) for p in nets]
        names = {p["player"]: p for p in books}
        for player, shift in moved.items():
            if player in names:
                names[player]["net"] += shift
            elif shift:  # a seat name the books list under another: within_owed's alias group
                books.append({"player": player, "net": shift, "hands": 0, "paid_minor": 0,
                              "received_minor": 0})
        return books, rake

    def _stream(self, hand: str) -> list[tuple[int, Any]]:
        if hand not in self._rows:
            self._rows[hand] = [(at, ev.parse_stored(kind, payload)) for at, kind, payload in
                                self._ledger.query(
                                    "SELECT position, type, payload FROM events WHERE"
                                    " hand_id = $1 ORDER BY seq", [hand])]
        return self._rows[hand]

    def _chip_value(self, session: str) -> int:
        if session not in self._unit:
            rows = self._ledger.query(
                "SELECT chip_value_minor FROM session_book WHERE session = $1", [session])
            self._unit[session] = int(rows[0][0] or 1) if rows else 1
        return self._unit[session]
