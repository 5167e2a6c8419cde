"""Read a PokerNow game log (and its ledger CSV) into ledger events (FORMATS.md §2).

:func:`read_pokernow_log` returns a :class:`PnGame`: the hands (:class:`PnHand`, each a complete
event stream HandStarted … HandEnded) and the session events between them, in log order, plus every
problem found as a :class:`ledger.model.errors.MalformedInput` value (nothing is dropped or guessed
silently). :func:`read_pokernow_ledger` reads the ledger export.

Conventions (the decisions FORMATS.md leaves to the importer):

* **Order** and **tables**: :mod:`ledger.formats.pokernow.rows` (rows sorted by ``at`` and
  ``order``; a file holding several tables' logs, each under its own header, is one game per
  table: the first is the session, the next ``<session>-2``, ``<session>-3``…, each
  :class:`PnGame` of them in ``PnGame.more`` of the first).
* **Players** are their PokerNow ids (the name is cut at the last `` @ ``); each new name of an id
  becomes a ``PlayerAlias(player=id, alias=name)`` item just before the item that first shows it.
  ``changed the ID from OLD to NEW`` is ``PlayerAlias(player=NEW, alias=OLD)`` at that line;
  logged in the middle of a hand, the rest of that hand's lines (naming NEW) are read for the
  seat OLD.
* **Units.** One decision per log: any amount with a decimal point makes it a cents log — every
  amount becomes integer cents exactly (``Decimal``), ``Unit(decimals=2)``; otherwise whole chips,
  ``Unit()``.
* **Seats** come from ``Player stacks``, rotated so the seat left of the button is first and the
  button last. ``(dead button)``: ``HandStarted.button`` is ``None`` and the seats are rotated as
  if the button were the player just before the small blind (heads-up: the small blind; with no
  small blind, the player just before the big blind).
* **Forced bets**: small/big blind, ante, straddle; ``missing small blind`` is ``dead_blind``
  (dead), ``missed big blind`` is ``posted_blind`` (live); a bomb-pot bet (``posts a bet of N``
  or ``calls N (bomb pot bet)``) is an ``ante``. ``Stakes.min_bet`` is the big blind posted (not
  all in), else the table's level: the last ``The game's big blind was changed`` line or big
  blind posted in full before the hand (a big blind all in short does not change the bet sizes,
  RULES.md §4.2).
* **Actions** are read as what they do (:meth:`ledger.formats.pokernow.chips.Chips.act`): a
  ``calls N`` with nothing more to put in is a ``Check``; ``raises to N``/``bets N`` where N is
  the bet (an all-in's) is a ``Call``. A big blind posted all in below the level leaves the
  bet to call at the level (RULES.md §4.2), as PokerNow has the others call it: ``calls 60``
  over a big blind all in for 53 is a ``Call`` of 60, and the ``Uncalled bet`` of 7 PokerNow
  gives back is returned (§1.4). With no level known, ``calls N`` above the bet while it is
  that short blind is a ``Call`` of the bet, and the ``Uncalled bet`` then given back for the
  excess was never in: it is no ``RecordedPayout`` (``HandStarted.source['over_call']`` says
  how much per player); an excess that never comes back is reported. Any other call above
  the bet (or below it, not all in) does not match it: reported, and the hand refused.
* **Hole cards** are dealt ``??`` to everybody. The exporter (``Your hand is`` has no name) is the
  one player whose shown cards match those lines and who never shows other cards; when he is found
  his own cards are dealt known. ``HandStarted.source['your_hand']`` always keeps the line.
* **Shows** become ``Reveal`` events, also when logged after ``-- ending hand --`` (they go just
  before ``HandEnded``). A show of some of the cards (``shows a 9♦.``) reveals those; the others
  stay ``??`` (the exporter's are his known ones), so the hand is partly known. A player who
  folded and then shows is no showdown: his cards go to ``HandStarted.source['shown_after_fold']``
  instead.
* **Run it twice.** ``All players in hand choose to run it twice`` (or the first ``(second run)``
  board) is ``RunCount(runs=2)``; second-run boards are ``CardsDealt(run=2)`` with only the new
  cards; ``collected`` lines are ``RecordedPayout(run=1/2)`` in such a hand, ``run=None``
  otherwise. A double board (``(second board)``) is read the same way and flagged in the source.
* **Session items.** An admin approval or a join with a stack is ``SeatChange(join) + BuyIn``,
  unless the player is still at the table: the ``joined the game`` line that follows an
  approval, or a sit-back, with the same stack adds nothing (with another stack it is reported;
  after he busted to 0 it is a buy-in). ``stand up`` and ``sit back`` are a ``SeatChange`` only:
  the stack stays at the table, no chips move; ``quits`` is ``SeatChange + CashOut(stack)``; an
  admin stack update is ``BuyIn(top_up)`` of the increase or ``CashOut`` of the decrease;
  ``rebought. New stack N`` is ``BuyIn(rebuy)`` of N minus the stack the player had; a bounty is a
  ``Payment`` (``amount_minor`` = the amount in the log's minor unit; PokerNow moves those chips
  between the two stacks). Session lines logged between
  ``starting hand`` and ``Player stacks`` (the joins of a first hand) are placed before the hand;
  those logged during a hand, after it. A ``SessionOpened`` item comes first.
* **A log that begins inside a hand** (an export cut at its oldest rows): the hand lines
  before the first ``starting hand`` line (its ``ending hand`` line and the shows after it
  among them) are that hand's, which cannot be read without its start: none is read, and
  ``PnGame.cut`` names their lines, one cut hand (not an error per line). Such a line after
  the first starting line is an error of its own.
* **Restarts.** A hand whose number comes again before it ended is ``voided`` (events end with
  ``HandVoided(reason='restarted', by='pokernow')``); the last hand of a log cut mid-hand is
  ``incomplete`` (``HandEnded(status='incomplete')``), and reported, naming its lines (a log
  is newest first: an export cut at its newest rows stops inside a hand); a hand with no
  ending before another number starts is ``incomplete`` too, and reported.
* **Checks.** Each hand's chips are followed (running street totals): a call that does not match
  the bet, an all-in that leaves chips behind, ``put in − returned ≠ collected`` on a complete
  hand, or a hand that does not start with the stacks the previous hand and the session lines
  left (between consecutive hand numbers) is reported in ``errors``. An error about a hand that
  was built names it by its hand id (``LedgerError.hand``, as the engine's do), one about a
  session line names the session.
* **Findings and refusals.** Three findings are facts of a hand stored as the site played and
  paid it, :class:`ledger.model.errors.StoredFinding` values: starting stacks that do not follow
  the previous hand, ``put in − returned ≠ collected``, and a hand with no ending line (kept as
  incomplete); the audit reports each such hand. Every other error about a hand is a refusal:
  nothing of that hand is imported (:mod:`ledger.formats.pokernow.importer`), nor of the hands
  and session lines after it in the log (their stacks carry from it: ``PnGame.refused``); one
  about a session line refuses the file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ledger.formats.files import file_name
from ledger.formats.pokernow.hand import build_hand
from ledger.formats.pokernow.lines import HAND_KINDS, SESSION_KINDS, Line
from ledger.formats.pokernow.model import BuildContext, HandBlock, PnHand, Row
from ledger.formats.pokernow.rows import Table, read_tables
from ledger.formats.pokernow.session import SessionItem, SessionTracker
from ledger.formats.pokernow.statement import LedgerRow, read_pokernow_ledger
from ledger.model.errors import MalformedInput, StoredFinding
from ledger.model.events import SessionOpened, Unit
from ledger.model.names import followed

__all__ = [
    "LedgerRow",
    "PnGame",
    "PnHand",
    "SessionItem",
    "default_session",
    "read_pokernow_ledger",
    "read_pokernow_log",
]


@dataclass(frozen=True)
class PnGame:
    """One imported log.

    ``players``: id → the last name seen; ``names``: id → every name seen. ``items``: hands and
    session events (SessionOpened, PlayerAlias, SeatChange, BuyIn, CashOut, Payment) in log order.
    ``errors``: every row that could not be read or does not add up, in CSV line order
    (:class:`ledger.model.errors.StoredFinding` for the facts stored as logged, see the module
    doc).
    ``exporter``: the id whose ``Your hand is`` lines these are, when the shows prove it.
    ``more``: the games of the other tables the same file holds, in file order (each with its
    own session, errors and ``more`` empty).
    ``first_row``: the table's oldest row (its ``at``, ``order`` and entry, one a line), None
    when it has none: every export of a game, however much of it, begins with it.
    """

    session: str
    unit: Unit
    players: dict[str, str]
    names: dict[str, set[str]]
    items: list[PnHand | SessionItem]
    errors: list[MalformedInput]
    exporter: str | None = None
    more: tuple[PnGame, ...] = ()
    first_row: str | None = None
    refused: tuple[tuple[int, int, int], ...] = ()
    """Each hand a line of it refuses, in log order: ``(index, number, line)``, ``index``
    the first of ``items`` after it (the stacks of the hands from there on carry from it)."""
    cut: tuple[int, ...] = ()
    """The file lines of the hand the log begins inside (an export cut at its oldest rows:
    its hand lines before the first ``starting hand`` line), in file order; none is read."""
    cut_number: int | None = None
    """That hand's number, when its ``ending hand`` line is among them."""
    lines: dict[int, int] = field(default_factory=dict)
    """The file line of each session item a row gave, by its index in ``items`` (the
    opening, which no row gives, has none)."""
    of_hand: dict[int, str] = field(default_factory=dict)
    """The hand whose rows gave a session item (a name an id first had there), by the
    item's index in ``items``: its hand id, or ``#number`` for a hand that was not built.
    Nothing of a refused hand is stored (FORMATS.md §2), nor these items."""


def _chips_converter(cents: bool) -> Callable[[str], int]:
    """The amount converter of a log: decimal text → integer chips, or cents when ``cents``."""
    scale = Decimal(100) if cents else Decimal(1)

    def chips(text: str) -> int:
        """Amount text → integer chips (cents in a cents log). Raises ValueError."""
        try:
            value = Decimal(text) * scale
        except InvalidOperation as exc:
            raise ValueError(f"{text!r} is not an amount") from exc
        if value != value.to_integral_value() or value < 0:
            raise ValueError(f"amount {text!r} is not a whole number of "
                             f"{'cents' if cents else 'chips'}")
        return int(value)

    return chips


class _Grouper:
    """Splits the sorted rows into hand attempts and session rows, in log order."""

    def __init__(self, file: str, errors: list[MalformedInput]) -> None:
        self.file, self.errors = file, errors
        self.seq: list[tuple[str, Any]] = []
        self.current: HandBlock | None = None
        self.last: HandBlock | None = None
        self.pending: list[Row] = []
        self.level: str | None = None
        self.begun = False  # a starting line was met
        self.cut: list[Row] = []  # the rows of the hand the log begins inside

    def error(self, row: Row, message: str, hand: int | None,
              kind: type[MalformedInput] = MalformedInput) -> None:
        self.errors.append(kind(message, file=self.file, line=row.line,
                                hand=None if hand is None else f"#{hand}", action=row.entry))

    def close(self, status: str) -> None:
        assert self.current is not None
        self.current.status = status  # type: ignore[assignment]
        self.seq.extend(("session", row) for row in self.pending)
        self.pending, self.current = [], None

    def start(self, row: Row) -> None:
        if self.current is not None:
            number = self.current.start.parsed.number
            if number != row.parsed.number:
                self.error(self.current.start, f"hand #{number} has no ending line before hand "
                           f"#{row.parsed.number} starts; kept as incomplete", number,
                           StoredFinding)
            self.close("voided" if number == row.parsed.number else "incomplete")
        self.current = HandBlock(start=row, level_bb=self.level)
        self.seq.append(("hand", self.current))
        self.last, self.begun = None, True

    def end(self, row: Row) -> None:
        current = self.current
        if current is None and not self.begun:
            self.cut.append(row)  # the end of the hand the log begins inside
            return
        if current is None or current.start.parsed.number != row.parsed.number:
            self.error(row, "an ending line without its starting line", row.parsed.number)
            return
        current.end, self.last = row, current
        self.close("complete")

    def hand_line(self, row: Row) -> None:
        if self.current is not None:
            self.current.body.append(row)
        elif row.parsed.kind == "show" and self.last is not None:
            self.last.after.append(row)  # shows may be logged after "-- ending hand --"
        elif not self.begun:
            self.cut.append(row)  # a line of the hand the log begins inside
        else:
            self.error(row, "a hand line outside any hand (skipped)", None)

    def session_line(self, row: Row) -> None:
        current = self.current
        if current is None:
            self.seq.append(("session", row))
        elif not any(r.parsed.kind == "stacks" for r in current.body):
            self.seq.insert(len(self.seq) - 1, ("session", row))  # before the open hand
        else:
            self.pending.append(row)  # after the open hand

    def add(self, row: Row) -> None:
        """Place one row (in log order)."""
        line: Line = row.parsed
        if line.kind == "start":
            self.start(row)
        elif line.kind == "end":
            self.end(row)
        elif line.kind in HAND_KINDS:
            self.hand_line(row)
            if line.kind == "post" and line.what == "big blind" and not line.all_in:
                self.level = line.amount  # the level of the next hands
        elif line.kind in SESSION_KINDS:
            if line.kind == "id_change" and self.current is not None:
                self.current.body.append(row)  # the rest of the hand names the new id
            self.session_line(row)
        elif line.kind == "blind_level" and line.what == "big blind":
            self.level = line.amount2
        elif line.kind == "ignore" and line.refs:  # kept for the names it shows
            if self.current is not None:
                self.current.body.append(row)
            else:
                self.seq.append(("session", row))

    def finish(self) -> list[tuple[str, Any]]:
        current = self.current
        if current is not None:  # the log stops inside its newest hand
            rows = sorted([current.start, *current.body], key=lambda r: r.line)
            number = current.start.parsed.number
            said = (f"line {rows[0].line}" if len(rows) == 1
                    else f"its {len(rows)} lines ({rows[0].line} to {rows[-1].line})")
            self.error(rows[0], f"the log stops inside hand #{number}, before its ending line "
                       "(an export cut at the game's newest rows, or taken during the hand): "
                       f"{said} kept as an incomplete hand, every chip returned", number,
                       StoredFinding)
            self.close("incomplete")
        return self.seq


def _id_changes(rows: list[Row]) -> dict[str, str]:
    """``{former id: the id it finally became}`` from ``changed the ID`` lines."""
    return followed({r.parsed.former: r.parsed.player  # type: ignore[misc]
                     for r in rows if r.parsed.kind == "id_change"})


def _find_exporter(blocks: list[HandBlock], renamed: dict[str, str]) -> str | None:
    """The one player whose shown cards match ``Your hand is`` and who never shows other cards
    (known by his last id, ``renamed``)."""
    votes: Counter[str] = Counter()
    contradicted: set[str] = set()
    dealt_hands: list[set[str]] = []
    for block in blocks:
        mine = next((set(r.parsed.cards) for r in block.body if r.parsed.kind == "your_hand"),
                    None)
        if mine is None:
            continue
        seated = {renamed.get(pid, pid) for r in block.body if r.parsed.kind == "stacks"
                  for _, pid, _ in r.parsed.seats}
        dealt_hands.append(seated)
        for row in block.body + block.after:
            if row.parsed.kind != "show" or row.parsed.player is None:
                continue
            player, shown = renamed.get(row.parsed.player, row.parsed.player), set(row.parsed.cards)
            if shown == mine:
                votes[player] += 1
            elif not shown <= mine:
                contradicted.add(player)
    candidates = [p for p in votes if p not in contradicted and all(p in s for s in dealt_hands)]
    return candidates[0] if len(candidates) == 1 else None


def _unread_row_in(block: HandBlock, unread: list[MalformedInput]) -> bool:
    """Whether a row of the hand ``block`` could not be read (``unread``: the errors of the
    rows read before any hand was built, :mod:`ledger.formats.pokernow.rows`, each naming
    the ``#number`` of the hand open at its row): one that names its number at a line among
    its rows' (the file is newest first, a hand's rows between its ending and starting
    lines)."""
    rows = [block.start, *block.body, *block.after, *([block.end] if block.end else [])]
    low, high = min(r.line for r in rows), max(r.line for r in rows)
    number = f"#{block.start.parsed.number}"
    return any(e.hand == number and e.line is not None and low <= e.line <= high
               for e in unread)


def _name_hands(errors: list[MalformedInput], hands: list[PnHand]) -> None:
    """An error about a hand that was built names it by its hand id (as the engine's do), not
    by its ``#number``: the hand of that number whose start is the nearest at or below the
    error's line (the file is newest first)."""
    for error in errors:
        if not (error.hand or "").startswith("#") or error.line is None:
            continue
        mine = [h for h in hands if f"#{h.number}" == error.hand and h.line >= error.line]
        if mine:
            error.hand = min(mine, key=lambda h: h.line).hand_id


def default_session(path: Path) -> str:
    """The session name of a log when none is given: the game id of a
    ``poker_now_log_<id>.csv`` file name, else the file's stem."""
    stem = file_name(path.stem)  # a name that is not UTF-8 is written with \\xNN escapes
    match = re.match(r"poker_now_log_(.+)$", stem)
    return match.group(1) if match else stem


def read_pokernow_log(path: str | Path, *, session: str | None = None) -> PnGame:
    """Read a PokerNow game-log CSV export.

    Args:
        path: the ``entry,at,order`` CSV file.
        session: the session name (also the ``<game>`` of hand ids); default: the game id of a
            ``poker_now_log_<id>.csv`` file name, else the file's stem.

    Returns:
        A :class:`PnGame` (the first table's; the others in ``PnGame.more``); amounts in integer
        chips of ``PnGame.unit`` (cents when the log has decimal amounts). Unreadable rows and
        chip counts that do not add up are in ``errors``.

    Raises:
        MalformedInput: the file has no ``entry,at,order`` header, or nothing after it (no
            hand and no session line: a download that failed).
        OSError: the file cannot be opened (MalformedInput when it is not UTF-8).
    """
    path = Path(path)
    name = session or default_session(path)
    tables = read_tables(path)
    if len(tables) == 1 and not tables[0].rows and not tables[0].errors:
        raise MalformedInput("no hand and no entry: only the log's header line (a download "
                             "that failed?)", file=file_name(path), line=1)
    games = [_read_game(path, table, name if i == 0 else f"{name}-{i + 1}",
                        i + 1 if len(tables) > 1 else None) for i, table in enumerate(tables)]
    return replace(games[0], more=tuple(games[1:]))


def _read_game(path: Path, table: Table, name: str, number: int | None) -> PnGame:
    """One table's game; ``number``: its place in a file of several tables."""
    rows, errors = table.rows, table.errors
    for error in table.book:  # a line of the session's book: the file is refused whole
        error.session = name
    cents = any("." in amount for row in rows for amount in row.parsed.amounts())
    unit = Unit(decimals=2) if cents else Unit()
    seq = _Grouper(file_name(path), errors)
    for row in rows:
        seq.add(row)
    grouped = seq.finish()
    renamed = _id_changes(rows)
    exporter = _find_exporter([block for kind, block in grouped if kind == "hand"], renamed)
    ctx = BuildContext(
        file=file_name(path.name),
        game_key=re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "game",
        session=name, unit=unit, chips=_chips_converter(cents), exporter=exporter, errors=errors,
        renamed=renamed,
    )
    tracker = SessionTracker(ctx)
    source = {"format": "pokernow", "file": file_name(path.name), "exporter": exporter}
    if number is not None:  # one of several tables in the file, under its header's line
        source.update(table=number, header_line=table.header_line)
    tracker.items.append(SessionOpened(
        session=name, date=rows[0].at[:10] if rows else None, decimals=unit.decimals,
        source=source,
    ))
    refused: list[tuple[int, int, int]] = []
    unread = [e for e in errors if e.hand is not None and not isinstance(e, StoredFinding)]
    for kind, value in grouped:
        if kind == "hand":
            known = len(errors)
            built = build_hand(value, ctx)
            bad = built is None or _unread_row_in(value, unread) or any(  # a line refuses it
                e.hand is not None and not isinstance(e, StoredFinding) for e in errors[known:])
            tracker.hand(value, built, refused=bad)
            if bad:
                refused.append((len(tracker.items), value.start.parsed.number or 0,
                                value.start.line))
        else:
            tracker.session_row(value)
    _name_hands(errors, [i for i in tracker.items if isinstance(i, PnHand)])
    for error in errors:  # the events record the file's name; errors name the path as given
        if error.file == ctx.file:
            error.file = file_name(path)
    errors.sort(key=lambda e: e.line or 0)
    first = f"{rows[0].at}\n{rows[0].order}\n{rows[0].entry}" if rows else None
    ends = [r.parsed.number for r in seq.cut if r.parsed.kind == "end"]
    return PnGame(session=name, unit=unit, players=tracker.players, names=tracker.names,
                  items=tracker.items, errors=errors, exporter=exporter, first_row=first,
                  refused=tuple(refused), cut=tuple(sorted(r.line for r in seq.cut)),
                  cut_number=ends[0] if ends else None, lines=tracker.lines,
                  of_hand=tracker.of_hand)
