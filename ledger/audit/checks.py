"""The audit: small named checks over the series books, each returning discrepancies as values.

Issue 5 ("does every chip add up?"). Every check takes a :class:`ledger.audit.books.Series` and
returns a list of :class:`Finding` (never raises for bad books); :func:`audit` runs
:data:`CHECKS` and orders the findings by session, then hand, then check. Amounts are chips,
except ``settlement`` (money, minor units of the session's currency).

* :func:`payout` — a recorded payout ≠ the recomputed award (the replay's discrepancies).
* :func:`chip_conservation` — per hand, contributions + carried-in ≠ awards + returned +
  carried; carried chips that the session's next hand does not bring in.
* :func:`stack_continuity` — a starting stack ≠ the stack after his previous hand plus the
  buy-ins between (the first hand starts from the buy-in; sitting out keeps the stack).
* :func:`session_balance` — a cash-out ≠ the stack the hands leave him with; chips still on
  the table when the session is closed; and in total, buy-ins ≠ cash-outs where no finding
  above explains the difference (e.g. behind a hand whose payouts are unknown).
* :func:`settlement` — once a session is closed and payments are recorded: payments ≠ what
  the nets call for (``net × chip value``); one finding per player who still owes.
* :func:`ledger_mismatch` — a platform's ledger statement (PokerNow's ledger CSV, the
  ``platform_ledger`` event) ≠ the replayed session: per player buy-ins, buy-outs, net.

Each finding is reported once: the books follow the chips actually on the table, so a wrong
payout or an unrecorded top-up does not make every later hand look wrong too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.audit.books import HandFacts, Series, SessionBook
from ledger.audit.settle import fewest_transfers

KINDS = ("payout", "chip_conservation", "stack_continuity", "session_balance", "settlement",
         "ledger_mismatch")


@dataclass(frozen=True)
class Finding:
    """One audit finding. ``hand``/``player`` None when it is about the whole session or table;
    ``expected`` what the books call for, ``actual`` what was recorded (chips, or minor units
    for ``settlement``); ``message`` one sentence with both numbers and the signed difference."""

    kind: str
    session: str | None
    hand: str | None
    player: str | None
    expected: int
    actual: int
    message: str

    @property
    def diff(self) -> int:
        """``actual − expected`` (positive: more than the books call for)."""
        return self.actual - self.expected

    def as_json(self) -> dict[str, Any]:
        """The stable JSON shape: kind, session, hand, player, expected, actual, message."""
        return {"kind": self.kind, "session": self.session, "hand": self.hand,
                "player": self.player, "expected": self.expected, "actual": self.actual,
                "message": self.message}


Check = Callable[[Series], list[Finding]]


def _books(series: Series) -> list[SessionBook]:
    return list(series.sessions.values())


def payout(series: Series) -> list[Finding]:
    """Recorded payouts that differ from the engine's awards (from the replay, per player;
    ``player`` None for an unverifiable hand whose table total is wrong)."""
    return [d for h in series.hands for d in hand_payout(h)]


def hand_payout(h: HandFacts) -> list[Finding]:
    """:func:`payout` for one hand."""
    return [Finding("payout", h.session, h.hand, None if f.player == "*" else f.player,
                        f.recomputed, f.recorded, f.message) for f in h.payouts]


def chip_conservation(series: Series) -> list[Finding]:
    """Per hand: contributions + carried-in = awards + returned + carried (verifiable hands);
    per session: chips carried out of a hand come into the session's next hand."""
    out = [d for h in series.hands for d in hand_conservation(h)]
    for book in _books(series):
        out.extend(carried_chips(book))
    return out


def hand_conservation(h: HandFacts) -> list[Finding]:
    """The per-hand part of :func:`chip_conservation`."""
    if h.pot_out is None or h.pot_out == h.pot_in:
        return []
    return [Finding(
        "chip_conservation", h.session, h.hand, None, h.pot_in, h.pot_out,
        f"hand {h.hand}: {h.pot_in} chips went in (carried-in included) but awards, "
        f"returns and carried chips come to {h.pot_out} ({h.pot_out - h.pot_in:+d})")]


def carried_chips(book: SessionBook) -> list[Finding]:
    """The per-session part of :func:`chip_conservation`: chips carried out of a hand come
    into the session's next hand, and none are left when the session closes."""
    out: list[Finding] = []
    if book.name is None:
        return out
    pending, source = 0, None
    for h in book.hands:
        if h.carried_in != pending:
            where = f"hand {source} carried {pending} chips" if source else "no hand " \
                "carried chips"
            out.append(Finding(
                "chip_conservation", book.name, h.hand, None, pending, h.carried_in,
                f"hand {h.hand} brings in {h.carried_in} carried chips but {where} into it "
                f"({h.carried_in - pending:+d})"))
        pending, source = h.carried, h.hand
    if book.closed and pending:
        out.append(Finding(
            "chip_conservation", book.name, source, None, pending, 0,
            f"hand {source} carried {pending} chips out but the session closed without a "
            f"hand that brings them in ({-pending:+d})"))
    return out


def stack_continuity(series: Series) -> list[Finding]:
    """A player's starting stack ≠ his stack after his previous hand plus the buy-ins between
    (his first hand: his buy-ins). Checked in opened sessions only."""
    out = []
    for book in _books(series):
        for s in book.starts:
            if s.expected is None or s.expected == s.actual:
                continue
            if s.previous is None:
                basis = f"his buy-ins come to {s.bought}" if s.bought else "he has no buy-in"
            else:
                basis = f"he left hand {s.previous} with {s.expected - s.bought}"
                basis += f" and bought {s.bought} since" if s.bought else " and bought nothing"
            out.append(Finding(
                "stack_continuity", book.name, s.hand, s.player, s.expected, s.actual,
                f"hand {s.hand}: {s.player} starts with {s.actual} but {basis}: expected "
                f"{s.expected} ({s.actual - s.expected:+d})"))
    return out


def session_balance(series: Series) -> list[Finding]:
    """Cash-outs against the stacks the hands leave; chips left on the table of a closed
    session; and, for a closed session, buy-ins against cash-outs in total (reported only for
    a difference that the per-player and per-hand findings do not already explain)."""
    out: list[Finding] = []
    for book in _books(series):
        if not book.followed:
            continue
        mine = _cash_outs(book) + _left_on_table(book)
        out.extend(mine)
        if book.closed:
            out.extend(_total(book, sum(d.diff for d in mine)))
    return out


def _cash_outs(book: SessionBook) -> list[Finding]:
    out = []
    for c in book.cash_outs:
        if c.expected is None or c.expected == c.actual:
            continue
        have = (f"the hands leave him {c.expected}" if c.seated
                else "he has no chips at the table (no buy-in since his last cash-out)")
        out.append(Finding(
            "session_balance", book.name, None, c.player, c.expected, c.actual,
            f"session {book.name}: {c.player} cashed out {c.actual} chips but {have} "
            f"({c.actual - c.expected:+d})"))
    return out


def _left_on_table(book: SessionBook) -> list[Finding]:
    if not book.closed:
        return []
    return [Finding(
        "session_balance", book.name, None, p.player, p.stack, 0,
        f"session {book.name} is closed but {p.player} never cashed out the {p.stack} chips "
        f"the hands leave him ({-p.stack:+d})")
        for p in book.players.values() if p.seated and p.stack]


def _total(book: SessionBook, cash_out_diffs: int) -> list[Finding]:
    """Σ cash-outs = Σ buy-ins + what the hands moved (known) + the gaps already found."""
    buy_in = sum(p.buy_in for p in book.players.values())
    cash_out = sum(p.cash_out for p in book.players.values())
    moved = sum(h.leak + h.carried_in - h.carried for h in book.hands if h.leak is not None)
    gaps = sum(s.actual - s.expected for s in book.starts if s.expected is not None)
    expected = buy_in + moved + gaps + cash_out_diffs
    if cash_out == expected:
        return []
    return [Finding(
        "session_balance", book.name, None, None, expected, cash_out,
        f"session {book.name}: buy-ins total {buy_in} and the other findings account for "
        f"{expected - buy_in:+d}, but cash-outs total {cash_out} ({cash_out - expected:+d})")]


def settlement(series: Series) -> list[Finding]:
    """For each closed session with payments: each player's payments received − paid (money)
    must equal his net × chip value. The differences are settled on paper
    (:func:`ledger.audit.settle.fewest_transfers`) and each player who must still pay is
    named once, with whom he owes."""
    out = []
    for book in _books(series):
        if not (book.closed and book.payments):
            continue
        due = {p.player: book.money(p.net) for p in book.players.values()}
        got = {p.player: p.received_minor - p.paid_minor for p in book.players.values()}
        owed = {p: due[p] - got[p] for p in due if due[p] != got[p]}
        if not owed:
            continue
        if sum(owed.values()):
            debts = {p: [] for p in owed}
        else:
            debts = {}
            for payer, payee, amount in fewest_transfers(owed):
                debts.setdefault(payer, []).append((payee, amount))
        for player, to in debts.items():
            text = "; ".join(f"{player} must still pay {q} {book.format(a)}" for q, a in to)
            out.append(Finding(
                "settlement", book.name, None, player, due[player], got[player],
                f"session {book.name}: payments come to {book.format(got[player])} for "
                f"{player} but his net calls for {book.format(due[player])} "
                f"({_signed(book, got[player] - due[player])})" + (f": {text}" if text else "")))
    return out


def _signed(book: SessionBook, minor: int) -> str:
    return ("+" if minor > 0 else "") + book.format(minor)


_FIGURES = ("buy-ins", "buy-outs", "net")


def ledger_mismatch(series: Series) -> list[Finding]:
    """Each session's latest platform ledger statement (PokerNow's ledger CSV) against the
    books at its place in the ledger, per player: buy-ins, buy-outs (cash-outs + chips still
    at the table) and net (the rules'). One finding per player whose figures differ;
    ``expected``/``actual`` are the books' and the statement's net when the nets differ, else
    the first figure that differs. Plus any findings supplied in ``Series.external``."""
    out = [d for d in series.external if isinstance(d, Finding)]
    for book in _books(series):
        s = book.statement
        for line in s.lines if s else ():
            stated = line.stated or (0, 0, 0)
            diffs = [(name, b, a) for name, b, a in zip(_FIGURES, line.books, stated, strict=True)
                     if b is not None and a != b]
            if not diffs:
                continue
            _, expected, actual = next((d for d in diffs if d[0] == "net"), diffs[0])
            who = f"{line.nickname} ({line.player})" if line.nickname not in (
                None, line.player) else line.player
            source = f"the {s.platform} ledger" + (f" {s.file}" if s.file else "")
            said = "has no row for him" if line.stated is None else "says " + ", ".join(
                f"{name} {a}" for name, _, a in diffs)
            books = ", ".join(f"{name} {b}" for name, b, _ in diffs)
            signed = ", ".join(f"{name} {a - b:+d}" for name, b, a in diffs)
            out.append(Finding(
                "ledger_mismatch", book.name, None, line.player, expected, actual,
                f"session {book.name}: {source} {said} for {who} but the replayed session "
                f"gives {books} ({signed})"))
    return out


CHECKS: list[Check] = [payout, chip_conservation, stack_continuity, session_balance, settlement,
                       ledger_mismatch]


def audit(series: Series, *, session: str | None = None,
          checks: Sequence[Check] = tuple(CHECKS)) -> list[Finding]:
    """Run ``checks`` and return every finding (only ``session``'s when given), ordered by
    session (ledger order), hand (ledger order; session-wide findings last) and check."""
    order = {name: i for i, name in enumerate(series.sessions)}
    ords = {h.hand: h.ord for h in series.hands}
    found = []
    for rank, check in enumerate(checks):
        for d in check(series):
            if session is None or d.session == session:
                found.append((order.get(d.session, len(order)), ords.get(d.hand or "", 1 << 62),
                              rank, d))
    found.sort(key=lambda item: item[:3])
    return [d for *_, d in found]
