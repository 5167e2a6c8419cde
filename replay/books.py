"""The books as the commands read them, always as of the ledger's head: balances, standings,
settle-up, the hand-by-hand nets of the chart, the audit, and SQL over the derived tables.

A read opens the ledger read-only, never writes it and never creates a file. The commands that
append events save the derived tables as of their head (:func:`replay.projections.save_tables`),
so a read usually finds them fresh. When they are behind the ledger (a live hand recorded since,
a write interrupted before it saved them) or do not match it (changed outside handledger, an
older shape), the read copies them into memory over the read-only file it holds
(:meth:`ledger.store.store.Ledger.overlaid`) and catches them up there, replaying only the
sessions that moved (:func:`replay.projections.catch_up`); tables that do not match the
ledger are said in a one-line note. Then they are read (:mod:`ledger.audit.player_balances`,
:mod:`ledger.audit.standings_grid`, :mod:`ledger.audit.settlement`,
:mod:`ledger.audit.hand_nets`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, NamedTuple

from ledger.audit import hand_nets, player_balances, settlement, standings_grid
from ledger.audit.catchup import moved
from ledger.audit.tables import AuditReport, read_audit
from ledger.model.errors import LedgerError, NotFound
from ledger.model.shell import shell_arg
from ledger.store.duck import duckdb
from ledger.store.store import Ledger
from replay.progress import Progress, silent
from replay.projections import catch_up

Note = Callable[[str], None]
#: Called with the ledger a read holds, before it is closed: what the caller reads beside the
#: books from the same open (the platform names a command prints them with), never a write.
Opened = Callable[[Ledger], object]


def _quiet(line: str) -> None:
    """A :data:`Note` that says nothing."""


@contextmanager
def fresh_books(path: str, *, jobs: int | None = 1, progress: Progress = silent,
                note: Note = _quiet, opened: Opened | None = None) -> Iterator[Ledger]:
    """The ledger at ``path`` with its derived tables as of its head, closed after the block
    (see the module doc); handed to ``opened`` first, when given.

    Raises:
        NotFound: no ledger at ``path``; LedgerBusy: another process is writing it;
        LedgerError: a stored hand the rules reject, or another database failure.
    """
    ledger = Ledger(path, read_only=True)
    try:
        plan = _plan(ledger)
        if not plan.fresh:
            _caught_up(ledger, plan.full if plan.mismatch else None, jobs, progress, note)
        if opened is not None:
            opened(ledger)
        yield ledger
    finally:
        ledger.close()


def _plan(ledger: Ledger) -> Any:
    """What moved since the derived tables were saved; a damaged block met reading them is
    the one line of a corrupt ledger (:meth:`ledger.store.store.Ledger.translate`)."""
    try:
        return moved(ledger.reads())  # its small reads kept for at_head (ledger.store.kept)
    except LedgerError as e:
        if isinstance(e.__cause__, duckdb.Error):
            raise ledger.translate(e.__cause__) from e
        raise


def _caught_up(ledger: Ledger, mismatch: str | None, jobs: int | None, progress: Progress,
               note: Note) -> None:
    """``ledger`` (open read-only) with its derived tables caught up in memory, on the same
    connection (:meth:`ledger.store.store.Ledger.overlaid`); ``mismatch``: why the stored
    tables do not match the ledger (said in a note)."""
    ledger.overlaid()
    if mismatch is not None:
        note(f"note: {mismatch}: the derived tables are computed in memory for this read "
             "(`handledger replay` saves them)")
    try:
        catch_up(ledger, jobs=jobs, progress=progress)
    except duckdb.Error as e:  # a damaged block met while replaying: one line, not a trace
        ledger.close()
        raise ledger.translate(e) from e
    except BaseException:
        ledger.close()
        raise


def balances(path: str, session: str | None, *, money: bool, progress: Progress = silent,
             note: Note = _quiet, opened: Opened | None = None, unbalanced: Note = _quiet
             ) -> player_balances.Balances:
    """Each player's net, buy-ins, cash-outs, hands and sessions (:func:`player_balances.balances`);
    ``corrected_late`` set for each correction appended after the chips moved on
    (:func:`replay.late_corrections.late_corrections`); ``opened`` as :func:`fresh_books`';
    a line to ``unbalanced`` per session whose chips do not follow its books, as ``settle``
    says it (:func:`books_off_lines`), said once the ledger is closed.

    Raises:
        NotFound: no such session; LedgerError: a hand the rules reject, mixed currencies.
    """
    from replay.late_corrections import late_corrections

    with fresh_books(path, progress=progress, note=note, opened=opened) as ledger:
        books = player_balances.balances(ledger.connection, session, money, chips_ok=False)
        if books.unbalanced:
            _carried_aside(ledger, books, session, money)
        late = late_corrections(ledger, session)
        if late:
            worth = _worth(ledger, money)
            books = replace(books, corrected_late=[
                {**c.as_json(), "note": f"note: session {c.session}: {c.words()}"
                 f"{worth(c)}, not moved at the table (net and cash-out − buy-in differ by "
                 "it)"} for c in late])
        off = books_off_lines(ledger, session)
    for line in off:
        unbalanced(line)
    return books


def _session_units(ledger: Ledger) -> dict[str, tuple[int, int, str | None]]:
    """``{session: (minor units a chip is worth, decimals, currency)}`` of every session
    (a session of plain chips: ``(1, 0, None)``)."""
    return {name: (int(value or 1), int(decimals or 0), currency) for name, value, decimals,
            currency in ledger.connection.execute(
                "SELECT session, chip_value_minor, decimals, currency FROM session_book"
                " WHERE session IS NOT NULL").fetchall()}


def _worth(ledger: Ledger, money: bool) -> Callable[[Any], str]:
    """What the chips a late correction leaves owed are worth, as ``balances --money`` says
    it after its words (`` (Ann +25.00 USD, Cy -25.00 USD)``); nothing in chips."""
    from ledger.model.money import format_money

    units = _session_units(ledger) if money else {}

    def worth(c: Any) -> str:
        if c.session not in units:
            return ""
        value, decimals, currency = units[c.session]
        return " (" + ", ".join(
            f"{p} {'+' if n > 0 else ''}{format_money(n * value, decimals, currency)}"
            for p, n in c.owed) + ")"

    return worth


def _carried_aside(ledger: Ledger, books: Any, session: str | None, money: bool) -> None:
    """Give each of ``books.unbalanced`` (:class:`player_balances.Balances`') whose sessions
    hold chips carried to a next hand that no ended hand holds yet (:func:`_carried`) those
    chips as ``carried`` (chips of its unit; with ``money``, minor units): the nets sum short
    of zero by them until that hand ends."""
    carried = _carried(ledger, books.in_progress, session, money)
    for u in books.unbalanced:
        chips, _, rule = carried.get((u["chip_value_minor"], u["decimals"], u["currency"]),
                                     (0, [], ""))
        if chips:
            u["carried"] = chips
            u["carried_rule"] = rule


def _carried(ledger: Ledger, in_progress: list[dict[str, Any]], session: str | None,
             money: bool) -> dict[tuple[Any, ...], tuple[int, list[str], str]]:
    """Per chip unit ``(chip_value_minor, decimals, currency)`` (with ``money``: ``(None,
    decimals, currency)``), the chips of ``session`` (None: every session) carried to a next
    hand that no ended hand holds yet (:func:`replay.carry.still_carried`, RULES.md §3.8,
    §7.1; chips of the unit, with ``money`` minor units), and the closed sessions among those
    that hold them, which deal no hand that takes them (owed by nobody), and the RULES.md
    sections of the rule that carried them, by the options of the hands that carried them
    (:func:`ledger.model.carry_rules.carry_sections`; either rule's, ``EITHER``, when those
    hands' rules differ). ``in_progress``: the hands still open
    (:func:`player_balances.open_hands`)."""
    from ledger.model.carry_rules import EITHER
    from replay.carry import still_carried

    in_play: dict[str, list[str]] = {}
    for h in in_progress:
        if h["session"] is not None:
            in_play.setdefault(h["session"], []).append(h["hand"])
    carried: dict[tuple[Any, ...], tuple[int, list[str], str]] = {}
    rules: dict[tuple[Any, ...], set[str]] = {}
    for name, value, decimals, currency, closed in ledger.connection.execute(
            "SELECT DISTINCT r.session, coalesce(r.chip_value_minor, 1),"
            " coalesce(r.decimals, 0), nullif(r.currency, ''), coalesce(b.closed, false)"
            " FROM player_session_results r JOIN session_book b USING (session)"
            " WHERE r.session IS NOT NULL AND ($1 IS NULL OR r.session = $1)"
            " ORDER BY ALL", [session]).fetchall():
        cited: set[str] = set()
        chips = still_carried(ledger, name, in_play.get(name, []), cited)
        if chips:
            key = (None, int(decimals), currency) if money else (int(value), int(decimals),
                                                                   currency)
            before, shut, _ = carried.get(key, (0, [], ""))
            seen = rules.setdefault(key, set())
            seen |= cited
            carried[key] = (before + chips * (int(value) if money else 1),
                            [*shut, *([name] if closed else [])],
                            next(iter(seen)) if len(seen) == 1 else EITHER)
    return carried


def standings(path: str, *, money: bool, progress: Progress = silent, note: Note = _quiet,
              opened: Opened | None = None, unbalanced: Note = _quiet
              ) -> standings_grid.Standings:
    """The sessions × players grid of nets with totals (:func:`standings_grid.standings`),
    its ``unbalanced`` set as :func:`balances` sets it (``carried``: the chips carried to a
    session's next hand that no ended hand holds yet); ``opened`` as :func:`fresh_books`';
    ``unbalanced`` told what ``balances`` tells it, of every session.

    Raises:
        LedgerError: a hand the rules reject, mixed currencies with ``money``.
    """
    with fresh_books(path, progress=progress, note=note, opened=opened) as ledger:
        grid = standings_of(ledger, money)
        off = books_off_lines(ledger, None)
    for line in off:
        unbalanced(line)
    return grid


def standings_of(ledger: Ledger, money: bool) -> standings_grid.Standings:
    """The grid of :func:`standings` read from ``ledger``, its tables as of its head: its
    ``unbalanced`` given ``carried`` (with ``closed`` and ``carried_rule``) for each unit
    whose sum row holds chips carried to a session's next hand that no ended hand holds yet
    (:func:`_carried`). ``handledger standings`` and the report's index read it.

    Raises:
        LedgerError: mixed currencies with ``money``.
    """
    grid = standings_grid.standings(ledger.connection, money)
    sums = {(u["chip_value_minor"], u["decimals"], u["currency"]): u for u in grid.unbalanced}
    for key, (chips, closed, rule) in _carried(ledger, grid.in_progress, None,
                                               money).items():
        u = sums.get(key) or dict(zip(("chip_value_minor", "decimals", "currency"), key,
                                      strict=True), net_sum=0)
        sums[key] = {**u, "carried": chips, "closed": closed, "carried_rule": rule}
    return replace(grid, unbalanced=list(sums.values()))


def session_list(path: str, *, progress: Progress = silent, note: Note = _quiet
                 ) -> list[dict[str, Any]]:
    """Sessions in ledger order: ``session``, ``date``, ``closed``, ``buy_ins`` (in effect),
    ``buy_ins_retracted``, ``hands`` (every hand), ``hands_voided`` (of them),
    ``owed_minor`` (money still owed after the payments recorded) with its ``decimals`` and
    ``currency``, and ``settled`` (closed and nothing owed); ``books_off`` (only then): how
    many findings ``audit --session`` gives the session (a hand paid wrong, chips never
    cashed out, a cash-out counted wrong: settling goes by the hands' nets, so a session can
    be settled with its books off), but those of its ``settlement`` check, the money still
    owed that ``owed_minor`` says, and ``findings`` how many of each kind (``{"payout": 2,
    "session_balance": 2}``); ``close_checkpoint_missing``
    (true, only then): the checkpoints file holds no checkpoint of its close, and
    ``close_checkpoint_why`` why: ``stopped`` (its close stopped before writing it), ``no
    file``, ``parted`` (the file holds a checkpoint the ledger does not extend) or ``damaged``
    (:func:`ledger.store.sidecar.unanchored_closes`); ``carried_to_none`` (only then): of a
    closed session whose last hand carries chips to a next hand that no hand took, ``{"hand",
    "chips"}`` (:func:`replay.carry.left_to_none`): what it "owes" is owed by nobody, and
    ``settled`` is false; ``bank`` (only then): of a closed session, ``[{"player",
    "amount"}]`` the lines ``settle`` gives with the bank still to pay (minor units, positive
    what the player pays the bank: :func:`replay.bank.bank_books`), and ``settled`` is
    false."""
    from ledger.store.sidecar import unanchored_closes
    from ledger.store.streams import session_summaries
    from replay.bank import bank_books
    from replay.carry import left_to_none
    from replay.late_corrections import late_corrections

    with fresh_books(path, progress=progress, note=note) as ledger:
        out = session_summaries(ledger)
        bank: dict[str, list[dict[str, Any]]] = {}
        if any(s["closed"] for s in out):  # a bank line keeps a closed session unsettled
            late = late_corrections(ledger)
            worth = {s: u[0] for s, u in _session_units(ledger).items()} if late else {}
            for name, player, n in bank_books(ledger, late, worth).standing:
                bank.setdefault(name, []).append({"player": player, "amount": n})
        lost = {s["session"]: left for s in out
                if s["closed"] and (left := left_to_none(ledger, s["session"])) is not None}
        closes = unanchored_closes(ledger, path)
        missing = {name for name, _, _ in closes.missing}
        due = settlement.owed(ledger.connection)
        units = {name: (d, c) for name, d, c in ledger.connection.execute(
            "SELECT session, decimals, currency FROM session_book").fetchall()}
        voided = dict(ledger.connection.execute(
            "SELECT session, count(*) FROM hands WHERE status = 'voided'"
            " AND session IS NOT NULL GROUP BY session").fetchall())  # of none: in no book
        off: dict[str | None, dict[str, int]] = {}
        for f in read_audit(ledger.connection).findings:
            if f.kind == "settlement":  # the money still owed: ``owed_minor`` says it
                continue
            kinds = off.setdefault(f.session, {})
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
    for s in out:
        if off.get(s["session"]):
            s["findings"] = dict(sorted(off[s["session"]].items()))
            s["books_off"] = sum(s["findings"].values())
        s["hands_voided"] = voided.get(s["session"], 0)
        s["owed_minor"] = due.get(s["session"], 0)
        s["decimals"], s["currency"] = units.get(s["session"], (0, None))
        s["settled"] = s["closed"] and not s["owed_minor"]
        if s["closed"] and s["session"] in bank:  # chips in no net, still with the bank
            s["bank"] = bank[s["session"]]
            s["settled"] = False
        if s["session"] in lost:
            hand, chips, *_ = lost[s["session"]]
            s["carried_to_none"] = {"hand": hand, "chips": chips}
            s["settled"] = False
        if s["session"] in missing:
            s["close_checkpoint_missing"] = True
            s["close_checkpoint_why"] = closes.why
    return out


class Settled(NamedTuple):
    """What :func:`settle` found: ``transfers`` ``(session, from, to, amount)`` and the
    ``books`` they settle, in one unit; or, when the hands read count money of more than one
    unit and no session was named, ``books`` None and ``blocks``, each session settled in its
    own unit (:data:`settlement.SessionBlock`), with ``loose`` the hands of no session, which
    are settled in none. ``waiting``: the sessions left unsettled, a hand of each still in
    progress (:func:`settlement.waiting_sessions`; only when no session was named).
    ``refused``: the sessions left unsettled because settling each alone is refused (a
    player lost more than his buy-ins there, its nets do not sum to minus its rake),
    ``{"session", "error"}``, the error ``settle --session`` of it gives (only when no
    session was named: :func:`_refusing`).
    ``late``: each correction appended after later events took the hand's chips as it
    stood, the notes ``unbalanced`` was given as data: its
    :meth:`replay.late_corrections.LateCorrection.as_json` with ``owed_minor``, the chips it
    leaves owed in minor units of its session's money (``{player: chips × chip value}``,
    the unit of the transfers; a session of plain chips: the chips), and ``unheld_minor``
    the same of its ``unheld``. ``bank``: ``(session, player, amount)`` per player of those
    ``unheld`` chips, what he still pays the bank in minor units (negative: the bank pays
    him) after the payments recorded with it, no player's result owing it; none when every
    amount owed is in the nets or paid. ``bank_paid``: ``(session, player, amount)`` what
    those payments come to per player (positive: he paid the bank; :mod:`replay.bank`)."""

    transfers: list[settlement.SessionTransfer]
    books: player_balances.Balances | None
    blocks: list[settlement.SessionBlock] = []
    loose: int = 0
    waiting: list[dict[str, Any]] = []
    late: list[dict[str, Any]] = []
    bank: list[tuple[str, str, int]] = []
    bank_paid: list[tuple[str, str, int]] = []
    refused: list[dict[str, str]] = []


def settle(path: str, session: str | None, *, progress: Progress = silent,
           note: Note = _quiet, unbalanced: Note = _quiet, opened: Opened | None = None
           ) -> Settled:
    """The fewest transfers that settle the nets up, ``(session, from, to, amount)``: of
    ``session`` (:func:`settlement.settlement`), or of every session, each settled among its
    own players (:func:`settlement.settlement_by_session`: a payment settles a session), in
    one money; where the hands read count money of different currencies or decimals, each
    session in its own (:func:`settlement.settlement_each`, :class:`Settled`'s ``blocks``:
    docs/LIVE.md "settle"), a session with a hand still in progress left out and named in
    :class:`Settled`'s ``waiting``, one whose own settle is refused left out and named in its
    ``refused`` (only when the whole ledger is refused); a line to ``unbalanced`` per
    session whose chips do not follow its books (cash-outs, stacks:
    :func:`_unbalanced_lines`), and one per correction appended after later events took the
    hand's chips as it stood, with the chips it leaves owed
    (:func:`replay.late_corrections.late_lines`), said once the ledger is closed;
    ``opened`` as :func:`fresh_books`'.

    Raises:
        LedgerError: the nets do not sum to zero (chips carried to a next hand that no hand
            took: naming the hand and the chips, :func:`_no_chips_left_to_none`), a hand
            of ``session`` (or of no session) is still in progress, or, of the whole
            ledger, what no one session's refusal explains; NotFound: no such session.
    """
    from replay.bank import bank_books
    from replay.late_corrections import late_corrections, late_lines

    waiting: list[dict[str, Any]] = []
    refused: list[dict[str, str]] = []
    with fresh_books(path, progress=progress, note=note, opened=opened) as ledger:
        _no_chips_left_to_none(ledger, session)
        if session is None:
            waiting = settlement.waiting_sessions(ledger.connection)
        apart = frozenset(w["session"] for w in waiting)
        try:
            settled, blocks, loose = _settled(ledger, session, apart)
        except LedgerError:
            refused = _refusing(ledger, apart) if session is None else []
            if not refused:
                raise
            apart |= {r["session"] for r in refused}
            settled, blocks, loose = _settled(ledger, session, apart)
        off = books_off_lines(ledger, session)
        late = late_corrections(ledger, session)
        units = _session_units(ledger) if late else {}
        with_bank = bank_books(ledger, late, {s: u[0] for s, u in units.items()}, session)
    for line in [*off, *late_lines(late)]:
        unbalanced(line)
    owed = [{**c.as_json(), "owed_minor": {p: n * units[c.session][0] for p, n in c.owed}}
            | ({"unheld_minor": {p: n * units[c.session][0] for p, n in c.unheld}}
               if c.unheld else {}) for c in late]
    return Settled(*settled, blocks, loose, waiting, owed, *with_bank, refused)


def _settled(ledger: Ledger, session: str | None, apart: frozenset[str]
             ) -> tuple[tuple[list[Any], Any], list[settlement.SessionBlock], int]:
    """:func:`settle`'s transfers and books, blocks and loose hands, the sessions ``apart``
    left out (none of them when ``session`` is named); refused as :func:`settle` is."""
    if session is None and settlement.units_differ(ledger.connection):
        return ([], None), *settlement.settlement_each(ledger.connection, apart)
    if session is None:
        return settlement.settlement_by_session(ledger.connection, apart), [], 0
    found, books = settlement.settlement(ledger.connection, session)
    return ([(session, a, b, n) for a, b, n in found], books), [], 0


def _refusing(ledger: Ledger, apart: frozenset[str]) -> list[dict[str, str]]:
    """The sessions (but ``apart``) whose own settle (``settle --session``) is refused, in
    ledger order: ``{"session", "error"}``, the error its settle gives; run only once
    settling the whole ledger was refused, so that the others are settled without them."""
    out = []
    for (name,) in ledger.connection.execute(
            "SELECT session FROM session_book WHERE session IS NOT NULL ORDER BY ord"
    ).fetchall():
        if name in apart:
            continue
        try:
            settlement.settlement(ledger.connection, name)
        except LedgerError as exc:
            out.append({"session": name, "error": str(exc)})
    return out


def _no_chips_left_to_none(ledger: Ledger, session: str | None) -> None:
    """Refuse to settle ``session`` (None: every session) while a session's last hand carries
    chips to a next hand that no hand took (:func:`replay.carry.left_to_none`): its players'
    nets sum to minus those chips, owed by nobody, until a hand takes them.

    Raises:
        LedgerError: naming the session, the hand, the chips and the ways forward.
    """
    from replay.carry import left_to_none, left_to_none_text, left_to_none_ways

    for name, closed in ledger.connection.execute(
            "SELECT session, coalesce(closed, false) FROM session_book WHERE session IS NOT"
            " NULL AND ($1 IS NULL OR session = $1) ORDER BY ord", [session]).fetchall():
        left = left_to_none(ledger, name)
        if left is not None:
            until = (", owed by nobody: the session is closed" if closed else
                     " until a hand takes them")
            raise LedgerError(
                f"cannot settle: {left_to_none_text(name, left)}: the players' nets sum to "
                f"{-left[1]:+d} chips{until}; {left_to_none_ways(left, bool(closed))}; "
                "then run `handledger settle` again")


def books_off_lines(ledger: Ledger, session: str | None) -> list[str]:
    """The ``note:`` lines ``settle``, ``balances`` and ``standings`` say of ``session``
    (None: every session) where its chips do not follow its books: the audit's
    ``session_balance`` and ``stack_continuity`` findings, a line per session and kind
    (:func:`_unbalanced_lines`). Reads the derived tables of ``ledger``, an open books
    ledger (:func:`fresh_books`); writes nothing."""
    found = [f for f in read_audit(ledger.connection).findings
             if f.kind in ("session_balance", "stack_continuity")
             and session in (None, f.session)]
    closed = {name for (name,) in ledger.connection.execute(
        "SELECT session FROM session_book WHERE closed").fetchall()} if found else set()
    return _unbalanced_lines(found, closed)


def _unbalanced_lines(findings: list[Any], closed: set[str] | frozenset[str] = frozenset()
                      ) -> list[str]:
    """A note per session whose chips do not follow its books (the audit's
    ``session_balance`` and ``stack_continuity`` findings): cash-outs that are not the chips
    its hands leave, a hand started with a stack the previous one did not leave (a rebuy not
    recorded, or a buy-in recorded wrong: :func:`_stack_fixes`). Settle goes by the hands'
    nets (docs/BOOKS.md, "Net has one meaning everywhere"), so what it asks for may not be what the
    players put on the table. ``closed``: the sessions
    closed, whose missing rebuy the command takes with ``--closed``."""
    what = {"session_balance": ("cash-outs differ from the chips its hands leave",
                                "a cash-out counted wrong: `handledger entry amend`; a hand "
                                "not recorded: record it"),
            "stack_continuity": ("hands start with stacks its books did not leave", "")}
    grouped: dict[tuple[str, str], list[int]] = {}
    each: dict[tuple[str, str], dict[str, list[int]]] = {}  # a player's differences, in order
    for f in findings:
        grouped.setdefault((f.session, f.kind), []).append(f.actual - f.expected)
        each.setdefault((f.session, f.kind), {}).setdefault(f.player, []).append(
            f.actual - f.expected)
    out = []
    for (name, kind), diffs in grouped.items():
        flag = " --closed" if name in closed else ""
        fix = (what[kind][1] if kind != "stack_continuity" else
               _stack_fixes(name, flag, any(d > 0 for d in diffs), any(d < 0 for d in diffs)))
        said = ", ".join(f"{player} " + " and ".join(f"{d:+d}" for d in ds)
                         for player, ds in each[name, kind].items())
        out.append(f"note: session {name}: {what[kind][0]} ({said} "
                   "chips); settle goes by the hands: `handledger audit --session "
                   f"{shell_arg(name)}` "
                   f"names each ({fix})")
    return out


def _stack_fixes(name: str, flag: str, plus: bool, minus: bool) -> str:
    """What clears a hand of session ``name`` that starts a player with a stack its books did
    not leave: more chips than the books give him (``plus``), a rebuy not recorded before the
    hand (``buyin --before HAND``); fewer (``minus``), a buy-in the books hold wrong, too
    many chips or entered twice (``entry amend`` / ``entry retract``), which a rebuy would
    only make worse; either, a stack typed wrong (the hand's start corrected) or a hand
    before it not recorded (a site's log with hands missing). ``flag``:
    `` --closed`` for a closed session."""
    rebuy = (f"a rebuy not recorded before the hand: `handledger buyin {shell_arg(name)} PLAYER "
             "CHIPS "
             f"--before HAND{flag}` counts it before that hand")
    wrong = (f"a buy-in recorded wrong (too many chips, or entered twice): `handledger entry "
             f"amend {shell_arg(name)} SEQ CHIPS --reason … --by …{flag}` or `handledger entry "
             "retract "
             f"{shell_arg(name)} SEQ --reason … --by …{flag}` (`handledger history --session "
             f"{shell_arg(name)}` "
             "lists the entries)")
    typed = ("or a stack typed wrong: its start replaced, `handledger correct HAND --replace 1 "
             "…`; or a hand before it not recorded (a log with hands missing): record or "
             "import it")
    if plus and minus:
        return f"a plus: {rebuy}; a minus: {wrong}; {typed}"
    return f"{rebuy if plus else wrong}; {typed}"


def chart_rows(path: str, *, money: bool, session: str | None = None,
               progress: Progress = silent, note: Note = _quiet, opened: Opened | None = None
               ) -> list[tuple[int, str, int]]:
    """``(ord, player, net)`` of every player in every hand (of ``session`` when given), in
    ledger order: the rows of :func:`chart_data`.

    Raises:
        as :func:`chart_data`.
    """
    return chart_data(path, money=money, session=session, progress=progress, note=note,
                      opened=opened)[0]


def chart_data(path: str, *, money: bool, session: str | None = None,
               progress: Progress = silent, note: Note = _quiet, opened: Opened | None = None
               ) -> tuple[list[tuple[int, str, int]], tuple[int, str | None]]:
    """``(ord, player, net)`` of every player in every hand (of ``session`` when given), in
    ledger order, and the unit of the nets, ``(decimals, currency)``: minor units of that
    money with ``money``, (0, None) in chips (:func:`hand_nets.chart_nets_unit`); ``opened``
    as :func:`fresh_books`'.

    Raises:
        NotFound: no such session, or no hands to chart; LedgerError: chips of different
            values (money of different currencies or decimals) to add up.
    """
    with fresh_books(path, progress=progress, note=note, opened=opened) as ledger:
        rows, unit = hand_nets.chart_nets_unit(ledger.connection, money, session)
    if not rows:
        raise NotFound("no hands in the ledger to chart" if session is None else
                       f"no hands in session {session!r} to chart")
    return rows, unit


def audit(path: str, session: str | None, *, jobs: int | None = 1, progress: Progress = silent,
          note: Note = _quiet, on_request: bool = False, keys: Any = None,
          opened: Opened | None = None, corrected: list[Any] | None = None
          ) -> tuple[AuditReport, list[Any]]:
    """The audit as of the head and its findings (only ``session``'s when given); with
    ``on_request`` also the checks run only when asked (``unsettled``), after the others;
    with ``keys`` (a :class:`ledger.store.keys.KeyStore`) last a ``signature`` finding per
    signed correction or void whose signature fails against it
    (:func:`ledger.audit.signatures.signature_findings`: they depend on the key directory, so
    the derived tables do not keep them). A ``note`` names the chips an open session carries
    to a next hand that no hand took (:func:`_carried_notes`), and one each correction
    appended after later events took the hand's chips as it stood names what it leaves owed
    (:func:`replay.late_corrections.late_lines`), or, given ``corrected``, goes there (each a
    :class:`replay.late_corrections.LateCorrection`). ``opened`` as :func:`fresh_books`'.

    Raises:
        NotFound: no such session; LedgerError: a damaged public key file.
    """
    from ledger.audit.checks import REGISTRY
    from ledger.audit.signatures import signature_findings
    from replay.ingest.export import session_chips
    from replay.late_corrections import late_corrections, late_lines

    with fresh_books(path, jobs=jobs, progress=progress, note=note, opened=opened) as ledger:
        report = read_audit(ledger.connection)
        extra = [] if not on_request else [
            f for book in settlement.session_books(ledger.connection)
            for check in REGISTRY if check.on_request for f in check.run(book)]
        if keys is not None:
            extra += signature_findings(ledger, keys, chip_of=session_chips(ledger))
        found = _of_session(report, report.findings + extra, session)
        _carried_notes(ledger, session, note)
        late = late_corrections(ledger, session)
        if corrected is not None:
            corrected.extend(late)
        else:
            for line in late_lines(late):
                note(line)
    return report, found


def _carried_notes(ledger: Ledger, session: str | None, note: Note) -> None:
    """A ``note`` per open session (``session``, or every one) whose last hand carries chips
    to a next hand that no hand took (:func:`replay.carry.left_to_none`): no finding while
    the session is open (the next hand takes them as it starts), but its players' nets sum to
    minus those chips until then, and it cannot settle or close. A closed one is a
    ``chip_conservation`` finding (:func:`ledger.audit.checks.carried_chips`)."""
    from replay.carry import left_to_none, left_to_none_text, left_to_none_ways

    for (name,) in ledger.connection.execute(
            "SELECT session FROM session_book WHERE session IS NOT NULL AND NOT closed"
            " AND ($1 IS NULL OR session = $1) ORDER BY ord", [session]).fetchall():
        left = left_to_none(ledger, name)
        if left is not None:
            note(f"note: {left_to_none_text(name, left)}: no finding while the session is "
                 f"open, but its players' nets sum to {-left[1]:+d} chips until a hand takes "
                 f"them, and it cannot settle or close; {left_to_none_ways(left)}")


def _of_session(report: AuditReport, found: list[Any], session: str | None) -> list[Any]:
    """``found``, only ``session``'s when given.

    Raises:
        NotFound: ``report`` has no hand of ``session``.
    """
    if session is not None and session not in report.hands:
        raise player_balances.no_such_session(session, (s for s in report.hands if s is not None))
    return [d for d in found if session is None or d.session == session]


def saved_audit(ledger: Ledger, session: str) -> list[Any]:
    """The audit's findings of ``session`` read from the derived tables of ``ledger``, which
    the caller has just saved as of its head (a write command's ledger, still open for
    writing: :meth:`cli.context.Context.save_tables`), as :func:`audit` finds them without
    opening the file again.

    Raises:
        NotFound: the session has no hand.
    """
    report = read_audit(ledger.connection)
    return _of_session(report, report.findings, session)


def sql(path: str, query: str, *, max_rows: int | None = None, timeout: float | None = None
        ) -> Any:
    """One read-only statement over the events, derived tables and views as of the head: at
    most ``max_rows`` rows within ``timeout`` seconds (defaults: :mod:`ledger.audit.sql`); a
    :class:`ledger.audit.sql.SqlResult`. The ledger is only ever opened read-only: derived
    tables behind the ledger are caught up in memory for this statement
    (:meth:`ledger.store.store.Ledger.overlay`) and the file is left as it was, so that
    ``sql`` runs beside other readers and never waits for them (docs/SQL.md).

    Raises:
        NotFound: no ledger at ``path``; LedgerBusy: another process is writing it (still,
            after the wait); LedgerError: not a single read-only statement, the time limit, or
            a DuckDB error.
    """
    from ledger.audit import sql as statement

    limits = {"max_rows": statement.MAX_ROWS if max_rows is None else max_rows,
              "timeout": statement.TIMEOUT if timeout is None else timeout or None}
    from ledger.store import duck

    with duck.private(), fresh_books(path) as ledger:  # file access off: its own DuckDB
        return statement.query(ledger.connection, query, **limits)
