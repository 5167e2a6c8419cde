"""A session's books as its stream says so far (:class:`SessionState`, corrections applied),
read without writing: whether it is opened or closed, its unit, who bought in, cashed out and
paid whom; the session names the ledger holds; a player's aliases; the stream as ``history
--session`` lists it; and :func:`append_entry`, the one way the session commands append.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ledger.model import events as ev
from ledger.model.errors import LedgerError, NotFound
from ledger.model.money import format_money
from ledger.model.names import check_not_look_alike, look_alikes, spelled
from ledger.model.shell import shell_arg
from ledger.store.streams import alias_pairs, seated_in, session_summaries

#: Book entries a correction may retract or amend.
ENTRY_TYPES = ("buy_in", "cash_out", "payment")


@dataclass
class SessionState:
    """What a session's stream says so far, corrections applied: opened, closed, the money's
    decimals and currency, who sits with chips (bought in since his last cash-out), who cashed
    out, the chips each bought in all (``chips_in``), the chips cashed out by all together
    (``chips_out``), the payments, every book entry by its seq
    as recorded (``entries``) and as amended last (``amended``), and the seqs of those
    retracted; ``closed_seq`` the seq of the closing."""

    opened: bool = False
    closed: bool = False
    closed_seq: int = 0
    chip_value_minor: int = 1
    decimals: int = 0
    currency: str | None = None
    seated: set[str] = field(default_factory=set)
    bought: set[str] = field(default_factory=set)
    chips_in: dict[str, int] = field(default_factory=dict)
    cashed: dict[str, int] = field(default_factory=dict)
    #: the seq of each player's last cash-out in force (the entry ``cashed`` counts)
    cashed_at: dict[str, int] = field(default_factory=dict)
    chips_out: int = 0
    payments: list[tuple[str | None, str | None, int]] = field(default_factory=list)
    #: the payments with the bank (:mod:`replay.bank`), None its side; none in ``payments``
    bank_payments: list[tuple[str | None, str | None, int]] = field(default_factory=list)
    entries: dict[int, Any] = field(default_factory=dict)
    amended: dict[int, Any] = field(default_factory=dict)
    retracted: set[int] = field(default_factory=set)
    last_seq: int = 0

    def money(self, minor: int) -> str:
        """``minor`` units as text in the session's currency."""
        return format_money(minor, self.decimals, self.currency)


@dataclass(frozen=True)
class Place:
    """Where a book entry's correction read from a file stands in the ledger, for
    :func:`replay.sessions.amending.check_correction`: ``words`` name it in a refusal (``its
    entry_corrected at seq 6 amends entry 4``), ``position`` is its ledger position (the
    hands stored before it are those a command would have seen), ``rake`` the chips the pots
    of those hands paid the table (:func:`replay.rake_taken.rake_by_hand`)."""

    words: str
    position: int
    rake: int


def session_state(ledger: Any, name: str, *, before: int | None = None,
                  players: Mapping[str, str] | None = None) -> SessionState:
    """The :class:`SessionState` of session ``name`` (not opened when it has no stream);
    ``before``: of its rows before that seq only (the books as a row at ``before`` found
    them, its amendments before it applied); ``players``: the series' alias map
    (:func:`series_names`): each entry's names folded as the player they name, as the audit
    folds them (else as stored)."""
    try:
        rows = ledger.read(f"session:{name}",
                           upto=None if before is None else max(before - 1, 0))
    except NotFound:
        return SessionState()
    return fold_rows(in_place(ledger, name, rows), players)


def in_place(ledger: Any, name: str, rows: Sequence[Any]) -> list[tuple[int, Any]]:
    """Session ``name``'s stored ``rows`` as ``(seq, event)`` in the order the books count
    them: by their place among the hands (:mod:`ledger.audit.placing`: a buy-in made before a
    hand, ``buyin --before``, just before it; as amended last), ledger order between equal
    places. Most sessions have no such buy-in: their rows in seq order."""
    from ledger.audit.placing import hand_starts, named_hand, place

    fixes = {r.event.seq: r.event.replacement for r in rows if r.type == "entry_corrected"}
    counted = {}  # the buy-ins in force, as amended last
    for r in rows:
        if r.type == "buy_in" and fixes.get(r.seq, r.event) is not None:
            fix = fixes.get(r.seq, r.event)
            counted[r.seq] = ev.parse_event(fix) if isinstance(fix, dict) else fix
    named = [(name, h) for e in counted.values() if (h := named_hand(e)) is not None]
    if not named:
        return [(r.seq, r.event) for r in rows]
    starts = hand_starts(ledger.connection, named)

    def placed(r: Any) -> int:
        e = counted.get(r.seq)
        return r.position if e is None else place(r.position, name, e, starts)

    return [(r.seq, r.event) for r in sorted(rows, key=placed)]


def fold_rows(rows: Sequence[tuple[int, Any]], players: Mapping[str, str] | None = None
              ) -> SessionState:
    """The :class:`SessionState` a session's stream ``rows`` (``(seq, event)`` by seq) say,
    each ``entry_corrected`` among them applied to the entry it names; ``players``: as for
    :func:`session_state`."""
    state = SessionState()
    fixes = {e.seq: e.replacement for _, e in rows if e.type == "entry_corrected"}
    for seq, e in rows:
        state.last_seq = max(state.last_seq, seq)  # rows in place order (:func:`in_place`)
        if seq in fixes and e.type in ENTRY_TYPES:  # (a statement retracted: no entry)
            state.entries[seq] = e
            if fixes[seq] is None:
                state.retracted.add(seq)
                continue
            e = state.amended[seq] = ev.parse_event(fixes[seq])
        _fold(state, seq, e if players is None else _as_players(e, players))
    return state


def _as_players(e: Any, players: Mapping[str, str]) -> Any:
    """Book entry ``e`` with its player (a payment's payer and payee) as the player the
    alias map ``players`` says the name is; any other event as it is."""
    if e.type in ("buy_in", "cash_out"):
        return e.model_copy(update={"player": players.get(e.player, e.player)})
    if e.type == "payment":
        return e.model_copy(update={"payer": e.payer and players.get(e.payer, e.payer),
                                    "payee": e.payee and players.get(e.payee, e.payee)})
    return e


def fold_row(state: SessionState, seq: int, e: Any,
             players: Mapping[str, str] | None = None) -> None:
    """Fold the row ``e`` at ``seq`` that follows the rows ``state`` folded, an
    ``entry_corrected`` being no more than a row there (its entry is amended by
    :func:`fold_rows` over the rows again); ``players``: as for :func:`session_state`."""
    state.last_seq = seq
    _fold(state, seq, e if players is None else _as_players(e, players))


def _fold(state: SessionState, seq: int, e: Any) -> None:
    if e.type in ENTRY_TYPES:
        state.entries.setdefault(seq, e)
    if e.type == "session_opened" and not state.opened:
        state.opened, state.decimals, state.currency = True, e.decimals, e.currency
        state.chip_value_minor = e.chip_value_minor
    elif e.type == "session_changed":
        state.chip_value_minor, state.currency = e.chip_value_minor, e.currency
        state.decimals = e.decimals
    elif e.type == "session_closed":
        state.closed, state.closed_seq = True, state.closed_seq or seq
    elif e.type == "buy_in":
        state.seated.add(e.player)
        state.bought.add(e.player)
        state.chips_in[e.player] = state.chips_in.get(e.player, 0) + e.chips
    elif e.type == "cash_out":
        state.seated.discard(e.player)
        state.cashed[e.player] = e.chips
        state.cashed_at[e.player] = seq
        state.chips_out += e.chips
    elif e.type == "payment":
        paid = state.bank_payments if e.bank else state.payments
        paid.append((e.payer, e.payee, e.amount_minor))


def open_state(ledger: Any, name: str, *, allow_closed: bool = False,
               players: Mapping[str, str] | None = None) -> SessionState:
    """The state of an opened session; ``players``: as for :func:`session_state`.

    Raises:
        NotFound: no such session (naming the closest names); LedgerError: it is closed
            (unless ``allow_closed``).
    """
    state = session_state(ledger, name, players=players)
    if not state.opened:
        raise no_session(name, [s["session"] for s in session_summaries(ledger)
                                if s["session"] and s["opened"]])
    if state.closed and not allow_closed:
        raise LedgerError(f"session {name!r} is closed: it takes no more hands or buy-ins "
                          "(payments still go in; a cash-out or a correction of its entries "
                          "with --closed)")
    return state


def party(name: str | None, bank: bool = False) -> str:
    """A payment's side as a line names it: the player, or ``the house`` for None (``the
    bank`` for None of a payment with the bank, ``bank``)."""
    return name if name is not None else "the bank" if bank else "the house"


def entry_said(entry: Any) -> str:
    """A book entry as every line names it, in poker's words: ``buy-in of Ann`` (a rebuy or
    top-up too), ``cash-out of Cy``, ``payment of Ann to Bob`` (``the house`` for the rake's
    side, :func:`party`), ``ledger statement`` (a platform's, ``platform_ledger``);
    ``entry 4 (buy-in of Ann)`` with its seq."""
    if entry.type == "payment":
        return (f"payment of {party(entry.payer, entry.bank)} to "
                f"{party(entry.payee, entry.bank)}")
    if entry.type == "platform_ledger":
        return "ledger statement"
    return f"{entry.type.replace('_', '-')} of {entry.player}"


def closed_flag_on_open(state: SessionState, session: str, typed: str) -> None:
    """Refuse ``--closed`` given to a write into ``session`` (``state``: its books) while it
    is open: the flag lets a write into a closed session's books, settled up at the close
    (docs/CORRECTIONS.md "A closed session's one rule"), and on an open one it says what is
    not so.
    ``typed``: the command as typed, ``--closed`` last.

    Raises:
        LedgerError: the session is open, naming it and the command; nothing written.
    """
    if not state.closed:
        raise LedgerError(f"{typed}: session {session} is open: --closed is for a closed "
                          "session's books; nothing written (leave out --closed)")


def closed_flag_on_hand(ledger: Any, sessions: Sequence[str | None], typed: str) -> None:
    """Refuse ``--closed`` given to a write into hands (``act``, ``correct``, ``void``,
    ``undo``) of ``sessions`` (each hand's, None for a hand of no session) when none of them
    is closed and one is open, as :func:`closed_flag_on_open` refuses it for a session's
    books, naming the first open one: the flag lets in nothing there. A ``void`` of hands of
    a closed session and of an open one takes it (the closed one's books need it). A hand of
    no session, or of a session never opened (a file's hands naming it), has no books settled
    at a close: it is let through, as ``session void`` lets such a session through.
    ``typed``: the command as typed, ``--closed`` last.

    Raises:
        LedgerError: naming the first open session and the command; nothing written.
    """
    states = {s: session_state(ledger, s) for s in dict.fromkeys(sessions) if s is not None}
    opened = {s: state for s, state in states.items() if state.opened}
    if any(state.closed for state in opened.values()):
        return
    for session, state in opened.items():
        closed_flag_on_open(state, session, typed)


def no_session(name: str, names: list[str], *, to_open: bool = True) -> NotFound:
    """The refusal of a command that needs session ``name``, which is none of the sessions
    ``names`` (the closest named): ``no session 'fri' (open it with `handledger session open
    fri`); did you mean 'friday'?``. When one of ``names`` differs from ``name`` only in case
    or in how its letters are encoded (:func:`ledger.model.names.look_alikes`), ``session
    open`` would refuse ``name`` beside it, so the refusal names that session alone: ``no
    session 'Friday'; did you mean 'friday'? (…)``. ``to_open`` False (a command that takes
    back what a session holds, ``session void``): opening one is no way through, so the
    refusal names the closest sessions, else the sessions there are: ``no session 'club-w2';
    did you mean 'club-w1'?``, ``no session 'x' (the ledger's sessions: 'fri', 'sat')``."""
    same = look_alikes(name, names)
    if same:
        return NotFound(f"no session {spelled(name)}; did you mean "
                        f"{' or '.join(map(spelled, same))}? (session names are kept as "
                        "typed: a new session named like it would be refused)")
    close = difflib.get_close_matches(name, names, n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    if not to_open:
        listed = ", ".join(map(repr, sorted(names)[:10])) + (", …" if len(names) > 10 else "")
        there = f" (the ledger's sessions: {listed})" if names else " (the ledger has none)"
        return NotFound(f"no session {name!r}{hint or there}")
    return NotFound(f"no session {name!r} (open it with `handledger session open "
                    f"{shell_arg(name)}`)"
                    f"{hint}")


def append_entry(ledger: Any, name: str, event: Any, state: SessionState) -> int:
    """Append ``event`` to the session's stream, expecting it where ``state`` saw it (a
    concurrent write is refused); returns the event's seq."""
    ledger.append(f"session:{name}", [event], expected_seq=state.last_seq)
    return state.last_seq + 1


def check_new_session_name(ledger: Any, name: str) -> None:
    """Refuse ``name`` for a new session (opened, or a file about to open it) when it prints
    like, or differs only in case from, a session the ledger holds.

    Raises:
        MalformedInput: the look-alike, both names spelled out.
    """
    check_not_look_alike(name, session_names(ledger), "session", "a session of the ledger")


def session_names(ledger: Any) -> list[str]:
    """Every session name the ledger holds: opened, or named by an imported hand or entry."""
    return [r[0] for r in ledger.query(
        "SELECT DISTINCT session FROM events WHERE session IS NOT NULL")]


class _Alias(NamedTuple):
    """An alias row as :func:`ledger.audit.books.resolve_aliases` reads it: ``player`` None
    is a ``player_unaliased`` (the alias ended)."""

    player: str | None
    alias: str

    @property
    def type(self) -> str:
        return "player_unaliased" if self.player is None else "player_alias"


def series_names(ledger: Any) -> dict[str, str]:
    """``{alias: player}``: the player each name given by ``player alias`` (or a PokerNow
    import) is across the series, resolved as the audit resolves them
    (:func:`ledger.audit.books.resolve_aliases`: in ledger order, chains followed, the
    latest statement winning, an alias ended by ``player unalias`` gone). A name not in it
    is the player of that name. Every book command's check takes a name through this map
    (:func:`alias_group`), so that an alias names one player there exactly as in the audit,
    ``balances`` and ``settle``."""
    from ledger.audit.books import resolve_aliases

    return resolve_aliases(_Alias(p, a) for p, a in alias_pairs(ledger))


def alias_group(ledger: Any, name: str, names: Mapping[str, str] | None = None) -> set[str]:
    """``name`` and every name that is the same player (:func:`series_names`; ``names``:
    that map, read already): his series name and each alias resolving to it."""
    names = series_names(ledger) if names is None else names
    me = names.get(name, name)
    return {name, me} | {a for a, p in names.items() if p == me}


def in_books(ledger: Any, session: str, state: SessionState, *,
             seated: set[str] | None = None, names: Mapping[str, str] | None = None
             ) -> set[str]:
    """The names in ``session``'s books: who bought in, cashed out, paid or was paid there or
    sat in one of its hands (``seated``: those, read already), and every alias of them
    (``player alias``; ``names``: :func:`series_names`, read already)."""
    known = {*state.chips_in, *state.cashed,
             *(seated_in(ledger, session) if seated is None else seated)}
    known.update(p for pair in state.payments for p in pair[:2] if p is not None)
    names = series_names(ledger) if names is None else names
    players = {names.get(n, n) for n in known}
    known.update(players)
    known.update(a for a, p in names.items() if p in players)
    return known


def history(ledger: Any, name: str) -> dict[str, Any]:
    """Session ``name``'s stream: every event with its seq, position, time and, for a book
    entry, the corrections that retracted or amended it (reason, author), as
    ``{"session", "events": [...]}``; the corrections themselves are listed too.

    Raises:
        NotFound: no such session.
    """
    open_state(ledger, name, allow_closed=True)
    rows = ledger.read(f"session:{name}")
    fixes: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if r.type == "entry_corrected":
            e = r.event
            fixes.setdefault(e.seq, []).append({"seq": r.seq, "by": e.by, "reason": e.reason,
                                                "replacement": e.replacement})
    return {"session": name, "events": [
        {"seq": r.seq, "position": r.position, "recorded_at": r.recorded_at.isoformat(),
         "type": r.type,
         "event": r.event.model_dump(mode="json", exclude={"type", "schema_version"}),
         "corrections": fixes.get(r.seq, [])} for r in rows]}
