"""Everything a static report of the books shows, read once from a ledger as of its head.

:func:`open_report` opens the ledger read-only with its derived tables caught up
(:func:`replay.books.fresh_books`) and yields a :class:`ReportBooks`; its
:meth:`ReportBooks.collect` gathers a :class:`SeriesReport`:

* the standings grid (:func:`ledger.audit.standings_grid.standings`, the same as ``handledger
  standings``) in chips, and in money when every session counts in one currency;
* the rows of the series chart (:func:`ledger.audit.hand_nets.hand_nets`, what ``handledger
  chart`` plots), a chart per chip unit (chips of different values do not add up:
  :func:`ledger.audit.hand_nets.hand_nets_by_unit`), and the place in them where each session
  starts;
* per session (:class:`SessionEntry`): its date and chip value, each player's buy-ins,
  cash-outs and net, the buy-in, cash-out and payment entries in ledger order (as corrected:
  :func:`ledger.audit.load.session_rows`), the settle-up of what is still owed
  (:func:`ledger.audit.settlement.settlement`), the audit's findings in it and its hands,
  and each correction of its hands appended after later hands or cash-outs took their chips,
  with the chips it leaves owed (:func:`replay.late_corrections.late_corrections`, the
  notes of ``audit``, ``settle`` and ``balances``);
* per hand (:class:`HandEntry`): what the replay made of it, the audit's findings naming it
  (a payout discrepancy is the finding ``payout``), its corrections and voids with author and
  reason, its signed ones checked against the key directory, and a ``key``: a digest of
  everything in the ledger that its page shows (its rows, sealed by the chain hash of the
  last, its session's chip value, what its signatures' check said and its late-correction
  notes, which later hands of its session move), so a page can be kept
  when its key has not changed;
* the signatures (docs/LEDGER.md, "Anchoring it"), checked by the code ``audit --keys`` and
  ``verify`` use: every signed correction, void and undo
  (:func:`ledger.audit.signatures.signed_amendments`), and the ledger's own checkpoints file
  as ``verify --against`` checks it (:func:`ledger.store.anchor.own_checkpoints`), each
  signed checkpoint's signer and whether its signature verifies.

:meth:`ReportBooks.hand_rows` reads the stored rows of hands in batches, for
:func:`replay.handview.hand_view`. Chips are integers; money is in integer minor units.
Nothing here writes the ledger or any file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.audit import (
    hand_nets,
    listing,
    money_units,
    player_balances,
    settlement,
    standings_grid,
)
from ledger.audit.catchup import aliases
from ledger.audit.checks import Finding
from ledger.audit.load import head as head_position
from ledger.audit.load import session_rows
from ledger.audit.signatures import SignedAmendment, signed_amendments
from ledger.audit.tables import head_hash, read_audit
from ledger.model import events as ev
from ledger.model.errors import LedgerError
from ledger.store.anchor import OwnCheckpoints, own_checkpoints
from ledger.store.chain import SESSION_PREFIX
from ledger.store.store import StoredEvent
from ledger.store.streams import hand_heads, platform_names, read_hands
from replay.books import Note, fresh_books, standings_of
from replay.handview import Money, session_money
from replay.ingest.export import Proof, proven, session_chips
from replay.late_corrections import late_corrections
from replay.progress import Progress, silent

__all__ = ["HandEntry", "UnitChart", "Movement", "EntryFix", "SessionEntry", "SeriesReport",
           "ReportBooks", "open_report"]

_BATCH = 250  # hands read per query


def _quiet(line: str) -> None:
    """A :data:`replay.books.Note` that says nothing."""


@dataclass(frozen=True)
class HandEntry:
    """One hand: ``ord`` its place in the ledger (from 1), ``game``, ``status``, ``players``,
    ``pot_total`` (chips), ``corrected`` (a correction or a void applies), ``findings`` (the
    audit's, naming it), ``amendments`` ``(kind, by, reason)`` of what the host did to it,
    ``"correction"``, ``"undo"`` or ``"void"`` (:func:`replay.amendment_kinds.
    amendment_kinds`: a void of an ended hand once, not as its correction too), in ledger
    order, ``signatures``: its signed ones checked against the key directory, and
    ``key`` (see the module doc)."""

    hand: str
    session: str | None
    ord: int
    game: str
    status: str
    players: int
    pot_total: int
    corrected: bool
    findings: tuple[Finding, ...]
    amendments: tuple[tuple[str, str, str], ...]
    key: str
    signatures: tuple[SignedAmendment, ...] = ()

    @property
    def disputed(self) -> bool:
        """The audit names it (a payout discrepancy or any other finding)."""
        return bool(self.findings)


@dataclass(frozen=True)
class Movement:
    """A session event that moves chips or money: ``kind`` ``buy_in``, ``rebuy``, ``top_up``
    (``amount`` in chips), ``cash_out`` (chips) or ``payment`` from ``player`` to ``other``
    (minor units, with its ``reason``; None on a side is the house, who keeps the rake, or
    with ``bank`` the bank, who holds the buy-ins); players under their series names;
    ``position`` its place in the ledger."""

    position: int
    kind: str
    player: str | None
    amount: int
    other: str | None = None
    reason: str | None = None
    bank: bool = False


_ENTRIES = ("buy_in", "cash_out", "payment")


def _movement(position: int, e: Any, names: Any) -> Movement:
    if e.type == "buy_in":
        return Movement(position, e.kind, names(e.player), e.chips)
    if e.type == "cash_out":
        return Movement(position, "cash_out", names(e.player), e.chips)
    return Movement(position, "payment", None if e.payer is None else names(e.payer),
                    e.amount_minor, None if e.payee is None else names(e.payee), e.reason,
                    e.bank)


@dataclass(frozen=True)
class EntryFix:
    """A book entry retracted (``now`` None) or amended (``now``: the entry as corrected) by
    an ``entry_corrected`` event at ledger ``position``: the entry's ``seq`` in the session's
    stream, the ``was`` entry as recorded, the ``reason`` and who (``by``)."""

    position: int
    seq: int
    was: Movement
    now: Movement | None
    reason: str
    by: str


@dataclass(frozen=True)
class SessionEntry:
    """One session (``name`` None: the hands of no session). ``money``: its chip value (None:
    chips only); ``players``: dicts as :func:`ledger.audit.listing.player_sessions` (chips);
    ``buy_ins``, ``cash_outs``, ``payments`` (:class:`Movement`, entries as corrected);
    ``transfers``: the settle-up of what is still owed after the payments recorded ``(from,
    to, minor units)`` in ``unit`` (decimals, currency), or ``settle_error`` saying why it
    cannot be settled (None for the hands of no session: they are not settled); ``owed``: the
    money still owed (minor units, 0: settled, or a hand is ``in_progress``: nothing is owed
    until its pot is paid, as ``settle`` refuses then); ``fixes``: its entries retracted or
    amended; ``findings``: the audit's in this session; ``hands`` in ledger order;
    ``in_progress``: its hands still open (:func:`ledger.audit.player_balances.open_hands`:
    ``{"hand", "session", "pot", "players"}``, chips), in ledger order; ``late``: each
    correction of its hands appended after the chips moved on
    (:class:`replay.late_corrections.LateCorrection`), in ledger order."""

    name: str | None
    date: str | None
    opened: bool
    closed: bool
    money: Money | None
    players: tuple[dict[str, Any], ...]
    buy_ins: tuple[Movement, ...]
    cash_outs: tuple[Movement, ...]
    payments: tuple[Movement, ...]
    transfers: tuple[tuple[str | None, str | None, int], ...]
    settle_error: str | None
    unit: tuple[int, str | None]
    owed: int
    fixes: tuple[EntryFix, ...]
    findings: tuple[Finding, ...]
    hands: tuple[HandEntry, ...]
    in_progress: tuple[dict[str, Any], ...] = ()
    late: tuple[Any, ...] = ()

    def late_worth(self, correction: Any) -> str:
        """What the chips ``correction`` leaves owed are worth, as ``balances --money`` says
        it after its words (`` (Ann +25.00 USD, Cy -25.00 USD)``); ``""`` in plain chips."""
        if self.money is None:
            return ""
        return " (" + ", ".join(f"{p} {'+' if n > 0 else ''}{self.money.text(n)}"
                                for p, n in correction.owed) + ")"

    @property
    def signatures(self) -> tuple[SignedAmendment, ...]:
        """The signed corrections and voids of its hands as checked, in ledger order."""
        return tuple(sorted((a for h in self.hands for a in h.signatures),
                            key=lambda a: a.position))

    @property
    def signature_line(self) -> str | None:
        """One line on them (:func:`ledger.audit.signatures.summary_line`); None: none."""
        from ledger.audit.signatures import summary_line

        return summary_line(self.signatures)


@dataclass(frozen=True)
class UnitChart:
    """The series chart of one chip ``unit`` (:data:`ledger.audit.money_units.ChipUnit`): its
    ``sessions`` (None: hands of no session), the ``rows`` ``(ord, player, net)`` of their
    hands in chips and ``starts`` ``(ord of its first hand, session)``."""

    unit: money_units.ChipUnit
    sessions: list[str | None]
    rows: list[tuple[int, str, int]]
    starts: list[tuple[int, str | None]]


@dataclass(frozen=True)
class SeriesReport:
    """The whole report: the ledger ``head`` position and its chain ``head_hash``; the
    ``standings`` in chips and ``money`` (None unless every session has one currency); the
    ``charts``, one per chip unit (:class:`UnitChart`, in order of first hand; none without
    hands); the ``sessions``; every hand in ledger order; the audit's ``findings`` that
    name no session; ``incomplete`` hands (the log stops before their end); ``names``, the
    players known by a PokerNow id and their names (:attr:`ReportBooks.names`);
    ``signatures``: every signed correction and void checked against the key directory, in
    ledger order (empty when none was given); ``checkpoints``: the ledger's own checkpoints
    file checked (None: it has none, or no key directory was given)."""

    head: int
    head_hash: str
    standings: standings_grid.Standings
    money: standings_grid.Standings | None
    charts: list[UnitChart]
    sessions: tuple[SessionEntry, ...]
    hands: tuple[HandEntry, ...]
    findings: tuple[Finding, ...]
    incomplete: tuple[str, ...]
    names: dict[str, str] = field(default_factory=dict)
    signatures: tuple[SignedAmendment, ...] = ()
    checkpoints: OwnCheckpoints | None = None
    #: where the hash chain breaks, when the report was made anyway (``--broken-ok``)
    broken: str | None = None

    @property
    def signature_line(self) -> str | None:
        """One line on every signed correction and void
        (:func:`ledger.audit.signatures.summary_line`); None when there are none."""
        from ledger.audit.signatures import summary_line

        return summary_line(self.signatures)

    @property
    def ranked(self) -> list[dict[str, Any]]:
        """The rows of :attr:`standings` (chips), most won first in the order of ``standings
        --money`` (:attr:`money`) when the sessions count money of one currency — a loss of
        50 chips of 0.05 USD (-2.50 USD) above one of 263 chips of 0.01 USD (-2.63 USD) —
        else in that of ``standings`` in chips. One order: the money grid's, never re-sorted
        here (:func:`ledger.audit.standings_grid.standings`)."""
        if self.money is None:
            return list(self.standings.players)
        by_player = {p["player"]: p for p in self.standings.players}
        return [by_player[p["player"]] for p in self.money.players]

    @property
    def flagged(self) -> list[HandEntry]:
        """The hands the audit names, corrected or voided, in ledger order."""
        return [h for h in self.hands if h.disputed or h.corrected or h.amendments]

    @property
    def finding_kinds(self) -> list[tuple[str, int]]:
        """``(kind, how many)`` of every finding of the audit, in the sessions and outside
        them, by kind: each once (the entry of the hands of no session holds the same
        findings as :attr:`findings`)."""
        kinds: dict[str, int] = {}
        named = (f for s in self.sessions if s.name is not None for f in s.findings)
        for f in [*named, *self.findings]:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
        return sorted(kinds.items())


class ReportBooks:
    """A ledger open read-only with its derived tables as of its head (see :func:`open_report`);
    ``keys``: the key directory signatures are checked against (None: not checked)."""

    def __init__(self, ledger: Any, keys: Any = None, broken: str | None = None) -> None:
        self.ledger = ledger
        self.keys = keys
        #: where the hash chain breaks (a report made with ``--broken-ok``), else None
        self.broken = broken
        #: per hand, its signed corrections and voids as checked (filled by :meth:`collect`)
        self.signed: dict[str, list[SignedAmendment]] = {}
        #: per hand, the words of its corrections appended after the chips moved on
        #: (:attr:`replay.handview.HandView.late`; filled by :meth:`collect`)
        self.late: dict[str, tuple[str, ...]] = {}
        money: dict[str, list[Any]] = {}
        for row in session_rows(ledger, types=["session_opened", "session_changed"]):
            money.setdefault(row.session, []).append(row.event)
        #: per session, its opening as its chip value stands (for a hand's page)
        self.opened: dict[str, ev.SessionOpened] = {
            name: opened for name, events in money.items()
            if (opened := session_money(events)) is not None}
        #: the players known by a PokerNow id and the names the reads show them by (a hand's
        #: page names them so: :func:`ledger.store.streams.platform_names`)
        self.names: dict[str, str] = platform_names(ledger)

    def collect(self) -> SeriesReport:
        """The :class:`SeriesReport` (see the module doc).

        Raises:
            LedgerError: the derived tables cannot be read; MalformedEvent: a stored payload
                that does not parse.
        """
        con = self.ledger.connection
        alias = aliases(con)

        def names(player: str) -> str:
            return alias.get(player, player)

        audit = read_audit(con)
        signatures = [] if self.keys is None else signed_amendments(
            self.ledger, self.keys, chip_of=session_chips(self.ledger))
        self.signed = {}
        for a in signatures:
            self.signed.setdefault(a.hand, []).append(a)
        late: dict[str | None, list[Any]] = {}
        words: dict[str, list[str]] = {}
        for c in late_corrections(self.ledger):
            late.setdefault(c.session, []).append(c)
            words.setdefault(c.hand, []).append(c.words())
        self.late = {hand: tuple(w) for hand, w in words.items()}
        hands = self._hands(con, audit.findings)
        by_session: dict[str | None, list[HandEntry]] = {}
        for h in hands:
            by_session.setdefault(h.session, []).append(h)
        players: dict[str | None, list[dict[str, Any]]] = {}
        for p in listing.player_sessions(con):
            players.setdefault(p["session"], []).append(p)
        listed = _one_book_of_no_session(listing.session_list(con), players)
        moves, fixes = self._movements(names), self._entry_fixes(names)
        owed = settlement.owed(con)
        in_play: dict[str | None, list[dict[str, Any]]] = {}
        for h in player_balances.open_hands(con, None):
            in_play.setdefault(h["session"], []).append(h)
        sessions = tuple(
            replace(self._session(con, s, players.get(s["session"], []),
                                  moves.get(s["session"], []),
                                  [f for f in audit.findings if f.session == s["session"]],
                                  by_session.get(s["session"], []), owed.get(s["session"], 0),
                                  fixes.get(s["session"], []), in_play.get(s["session"], [])),
                    late=tuple(late.get(s["session"], ())))
            for s in listed)
        standings = standings_of(self.ledger, False)
        try:
            money = standings_of(self.ledger, True)
        except LedgerError:  # the sessions count in different currencies
            money = None
        if money is not None and money.unit[1] is None:
            money = None
        head = head_position(self.ledger)
        units = hand_nets.hand_nets_by_unit(con)
        several = sum(None in named for _, named, _ in units) > 1
        return SeriesReport(
            head=head, head_hash=head_hash(con, head), standings=standings, money=money,
            charts=[UnitChart(unit, named, rows, _starts(named, rows, by_session, several))
                    for unit, named, rows in units],
            sessions=sessions, hands=tuple(hands),
            findings=tuple(f for f in audit.findings if f.session is None),
            incomplete=tuple(h for h, _ in audit.incomplete), names=self.names,
            signatures=tuple(signatures),
            checkpoints=own_checkpoints(self.ledger, self.keys) if self.keys is not None
            else None, broken=self.broken)

    def hand_rows(self, hands: Sequence[str]) -> Iterator[tuple[str, list[StoredEvent]]]:
        """``(hand, its stored rows by seq)`` for each of ``hands`` in the order given, read
        a batch at a time."""
        for i in range(0, len(hands), _BATCH):
            batch = hands[i:i + _BATCH]
            rows = read_hands(self.ledger, batch)
            for hand in batch:
                yield hand, rows[hand]

    def _hands(self, con: Any, findings: list[Finding]) -> list[HandEntry]:
        named: dict[str, list[Finding]] = {}
        for f in findings:
            if f.hand is not None:
                named.setdefault(f.hand, []).append(f)
        from replay.amendment_kinds import amendment_kinds

        amended = amendment_kinds(self.ledger)  # what the host did: correct, undo, void
        heads = {hand: (n, last) for hand, _, n, last in hand_heads(self.ledger)}
        out = []
        for h in listing.hand_list(con):
            hand, session = h["hand"], h["session"]
            n, last = heads[hand]
            opened = self.opened.get(session) if session else None
            signed = tuple(self.signed.get(hand, ()))
            key = hashlib.sha256("\n".join(
                [hand, str(n), last, opened.model_dump_json() if opened else "",
                 *(f"{a.seq} {a.status} {a.note}" for a in signed), *self.late.get(hand, ())]
            ).encode()).hexdigest()
            out.append(HandEntry(
                hand=hand, session=session, ord=int(h["ord"]), game=h["game"],
                status=h["status"], players=int(h["players"]), pot_total=int(h["pot_total"]),
                corrected=bool(h["corrected"]), findings=tuple(named.get(hand, ())),
                amendments=tuple(amended.get(hand, ())), key=key, signatures=signed))
        return out

    def _movements(self, names: Any) -> dict[str | None, list[Movement]]:
        out: dict[str | None, list[Movement]] = {}
        for r in session_rows(self.ledger, types=["buy_in", "cash_out", "payment"]):
            out.setdefault(r.session, []).append(_movement(r.position, r.event, names))
        return out

    def _entry_fixes(self, names: Any) -> dict[str | None, list[EntryFix]]:
        out: dict[str | None, list[EntryFix]] = {}
        streams: dict[str, dict[int, Any]] = {}
        for r in session_rows(self.ledger, types=["entry_corrected"]):
            e = r.event
            if r.session not in streams:
                streams[r.session] = {row.seq: row for row in
                                      self.ledger.read(SESSION_PREFIX + r.session)}
            stored = streams[r.session].get(e.seq)
            if stored is None or stored.type not in _ENTRIES:
                continue
            now = None if e.replacement is None else _movement(
                stored.position, ev.parse_event(e.replacement), names)
            out.setdefault(r.session, []).append(EntryFix(
                r.position, e.seq, _movement(stored.position, stored.event, names), now,
                e.reason, e.by))
        return out

    def _session(self, con: Any, s: dict[str, Any], players: list[dict[str, Any]],
                 moves: list[Movement], findings: list[Finding],
                 hands: list[HandEntry], owed: int, fixes: list[EntryFix],
                 in_play: list[dict[str, Any]]) -> SessionEntry:
        name = s["session"]
        money = (Money(s["chip_value_minor"], s["currency"], s["decimals"])
                 if s["currency"] else None)
        transfers: tuple[tuple[str | None, str | None, int], ...] = ()
        error = None
        unit: tuple[int, str | None] = (int(s["decimals"] or 0), s["currency"])
        if name is not None:
            try:
                found, books = settlement.settlement(con, name)
                transfers, unit = tuple(found), books.unit
            except LedgerError as exc:
                error = str(exc)
        return SessionEntry(
            name=name, date=s["date"], opened=bool(s["opened"]), closed=bool(s["closed"]),
            money=money, players=tuple(players),
            buy_ins=tuple(m for m in moves if m.kind in ("buy_in", "rebuy", "top_up")),
            cash_outs=tuple(m for m in moves if m.kind == "cash_out"),
            payments=tuple(m for m in moves if m.kind == "payment"),
            transfers=transfers, settle_error=error, unit=unit,
            owed=owed if name is not None and not in_play else 0, fixes=tuple(fixes),
            findings=tuple(findings), hands=tuple(hands), in_progress=tuple(in_play))


def _starts(named: list[str | None], rows: list[tuple[int, str, int]],
            by_session: dict[str | None, list[HandEntry]], several: bool
            ) -> list[tuple[int, str | None]]:
    """``(ord of its first hand, session)`` of each of ``named`` (the sessions of a chart's
    rows); with ``several`` (the hands of no session count chips of several values, each
    its own: a chart each), those of no session start at their first in ``rows``."""
    out = []
    for n in named:
        hands = by_session.get(n)
        if not hands:
            continue
        first = hands[0].ord
        if n is None and several:
            ords = {o for o, _, _ in rows}
            first = next((h.ord for h in hands if h.ord in ords), first)
        out.append((first, n))
    return out


def _one_book_of_no_session(listed: list[dict[str, Any]],
                            players: dict[str | None, list[dict[str, Any]]]
                            ) -> list[dict[str, Any]]:
    """The sessions of ``listed`` (:func:`ledger.audit.listing.session_list`) with one entry
    for the hands of no session, which list a row per chip unit when they count chips of
    several values (each hand its own unit): then the entry has no chip value (its
    ``currency`` None, its hands summed) and each of its players' rows in ``players`` names
    its unit (``unit``, as a standings column is headed) and the money of a chip of it
    (``money``, None without a currency)."""
    loose = [s for s in listed if s["session"] is None]
    if len(loose) < 2:
        return listed
    one = {**loose[0], "chip_value_minor": None, "currency": None, "decimals": None,
           "hands": sum(s["hands"] for s in loose)}
    players[None] = [
        {**p, "unit": money_units.chip_unit_text((p["chip_value_minor"], p["decimals"] or 0,
                                              p["currency"])),
         "money": Money(p["chip_value_minor"], p["currency"], p["decimals"])
         if p["currency"] else None} for p in players.get(None, [])]
    return [one if s is loose[0] else s for s in listed if s["session"] is not None
            or s is loose[0]]


#: What ``report`` says of a broken chain (:func:`replay.ingest.export.proven`).
REPORT = Proof(
    refused="no report written (its pages would show rows changed outside handledger as the "
            "books)",
    retry="report with --broken-ok for a site of the rows as they are",
    anyway="reported anyway (--broken-ok): the site shows the rows as they are, and its index "
           "says the chain breaks")


@contextmanager
def open_report(path: str, *, jobs: int = 1, progress: Progress = silent,
                note: Note = _quiet, keys: Any = None, broken_ok: bool = False
                ) -> Iterator[ReportBooks]:
    """The ledger at ``path`` as :class:`ReportBooks`, its derived tables as of its head
    (computed in memory when the saved ones are behind: the file is never written), closed
    after the block; ``keys``: the key directory (a :class:`ledger.store.keys.KeyStore`) its
    signatures are checked against (None: not checked). Its hash chain is proven first, as
    ``export`` proves it (:func:`replay.ingest.export.proven`): a site vouches for the rows
    it shows (the index names the chain's head). ``broken_ok``: a broken chain is a
    ``warning:`` line given to ``note``, and the report says where it breaks.

    Raises:
        ChainBroken: the chain breaks, naming where as ``verify`` does (``…: no report
            written (…); run `handledger verify`, or report with --broken-ok …``), unless
            ``broken_ok``; LedgerCorrupt: a block of the events fails its checksum;
        NotFound: no ledger at ``path``; LedgerBusy, LedgerError: as
            :func:`replay.books.fresh_books`.
    """
    from ledger.store.store import Ledger

    said: list[str] = []
    with Ledger(path, read_only=True, sound=False) as ledger:
        proven(ledger, broken_ok, said.append, REPORT)
    for line in said:
        note(line)
    broken = said[0].removeprefix("warning: ").removesuffix(f": {REPORT.anyway}") if said \
        else None
    with fresh_books(path, jobs=jobs, progress=progress, note=note) as ledger:
        yield ReportBooks(ledger, keys, broken)
