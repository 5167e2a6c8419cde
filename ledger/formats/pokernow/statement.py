"""The PokerNow ledger CSV (FORMATS.md §2, "PokerNow ledger CSV") → one row per player id.

Header ``player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net``
(some exports add ``nit_escrow`` before ``net``). One CSV row per seat session; an open session
has an empty ``buy_out``. Rows are grouped by ``player_id`` (a rebuy or re-seat makes a new row).

Units: the file does not say. Integer values are taken as they stand — they already are the
game's minor units (cents in a cents game, chips otherwise). A file with any decimal point is read
as money with two decimals and converted to integer cents exactly.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ledger.formats.files import csv_error, file_name, read_text
from ledger.model.errors import MalformedInput

_REQUIRED = ("player_nickname", "player_id", "buy_in", "buy_out", "stack", "net")
_AMOUNTS = ("buy_in", "buy_out", "stack", "nit_escrow", "net")


@dataclass(frozen=True)
class LedgerRow:
    """One player's totals over his seat sessions, integer minor units.

    ``nickname``: the name of his latest session (by ``session_start_at``); ``nicknames``: every
    name, first seen first. ``sessions``: CSV rows merged; ``open``: a session has no end yet
    (its chips are in ``stack``). ``line``: CSV line of his first row. ``net = buy_out + stack +
    nit_escrow − buy_in``.
    """

    player_id: str
    nickname: str
    nicknames: tuple[str, ...]
    sessions: int
    buy_in: int
    buy_out: int
    stack: int
    nit_escrow: int
    net: int
    open: bool
    line: int


def _values(row: dict[str, str], scale: Decimal, file: str, line: int) -> dict[str, int]:
    values = {}
    for column in _AMOUNTS:
        text = (row.get(column) or "").strip() or "0"
        try:
            value = Decimal(text) * scale
        except InvalidOperation as exc:
            raise MalformedInput(f"{column} {text!r} is not a number", file=file,
                                 line=line) from exc
        if value != value.to_integral_value():
            raise MalformedInput(f"{column} {text!r} has more than two decimals", file=file,
                                 line=line)
        values[column] = int(value)
    if values["net"] != values["buy_out"] + values["stack"] + values["nit_escrow"] - values[
        "buy_in"
    ]:
        raise _net_not_totals(row, values, scale != 1, file, line)
    return values


def _net_not_totals(row: dict[str, str], values: dict[str, int], decimal: bool, file: str,
                    line: int) -> MalformedInput:
    """The refusal of a row whose net is not ``buy_out + stack + nit_escrow − buy_in``
    (FORMATS.md §2, "PokerNow ledger CSV"), naming its player and each amount as the file
    writes them (``decimal``: dollars and cents; ``nit_escrow`` only when the file has it)."""
    terms = [c for c in ("buy_out", "stack", "nit_escrow") if c in row]
    total = sum(values[c] for c in terms) - values["buy_in"]
    who = f"{(row.get('player_nickname') or '').strip()} ({row['player_id'].strip()})"
    sums = " + ".join(f"{c} {_amount(values[c], decimal)}" for c in terms)
    return MalformedInput(
        f"the net of {who} is {_amount(values['net'], decimal)}, not {sums} − buy_in "
        f"{_amount(values['buy_in'], decimal)} = {_amount(total, decimal)}", file=file,
        line=line)


def _amount(chips: int, decimal: bool) -> str:
    """``chips`` (minor units) as the file writes amounts: dollars and cents when ``decimal``."""
    return f"{Decimal(chips) / 100:.2f}" if decimal else str(chips)


def read_pokernow_ledger(path: str | Path, *, zero_sum: bool = True) -> list[LedgerRow]:
    """Read a PokerNow ledger CSV into one :class:`LedgerRow` per player id (first-seen order).

    ``zero_sum=False`` accepts nets that do not sum to zero (a reader of a statement it does
    not store); ``import --ledger`` refuses them.

    Raises:
        MalformedInput: a missing column, an unreadable amount, a row whose net does not equal
            ``buy_out + stack + nit_escrow − buy_in`` (naming its player and those amounts),
            or (``zero_sum``) nets that do not sum to zero (at the last row's line, naming each
            player, his net and line).
        OSError: the file cannot be opened.
    """
    path = Path(path)
    file = file_name(path.name)
    reader = csv.DictReader(io.StringIO(read_text(path, name=file), newline=""))
    try:
        missing = [c for c in _REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise MalformedInput(f"not a PokerNow ledger (missing {', '.join(missing)})",
                                 file=file, line=1)
        records, previous = [], reader.line_num
        for row in reader:
            records.append((previous + 1, row))
            previous = reader.line_num
    except csv.Error as exc:
        raise csv_error(file, reader.line_num, exc) from None
    decimal = any("." in (row.get(c) or "") for _, row in records for c in _AMOUNTS)
    scale = Decimal(100) if decimal else Decimal(1)
    groups: dict[str, list[tuple[int, dict[str, str], dict[str, int]]]] = {}
    for line, row in records:
        pid = (row.get("player_id") or "").strip()
        if not pid:
            raise MalformedInput("a row without player_id", file=file, line=line)
        groups.setdefault(pid, []).append((line, row, _values(row, scale, file, line)))
    result = []
    for pid, rows in groups.items():
        latest = max(enumerate(rows), key=lambda r: ((r[1][1].get("session_start_at") or ""),
                                                     r[0]))[1]
        names = tuple(dict.fromkeys(row["player_nickname"] for _, row, _ in rows))
        total = {c: sum(v[c] for _, _, v in rows) for c in _AMOUNTS}
        result.append(LedgerRow(
            player_id=pid, nickname=latest[1]["player_nickname"], nicknames=names,
            sessions=len(rows), open=any(not (r.get("session_end_at") or "").strip()
                                         for _, r, _ in rows),
            line=rows[0][0], **total,
        ))
    if zero_sum and sum(r.net for r in result):
        raise _not_zero_sum(result, file, decimal)
    return result


def _not_zero_sum(rows: list[LedgerRow], file: str, decimal: bool) -> MalformedInput:
    """The refusal of a statement whose nets do not sum to zero (FORMATS.md §2, "PokerNow
    ledger CSV": the nets of a game sum to zero), at its last row's line, naming every player
    with his net and line, amounts as the file writes them (``decimal``: dollars and cents)."""
    def money(chips: int) -> str:
        text = _amount(chips, decimal)
        return text if chips < 0 else f"+{text}"

    who = ", ".join(f"{r.nickname} ({r.player_id}) {money(r.net)} (line {r.line})"
                    for r in rows)
    total = money(sum(r.net for r in rows)).removeprefix("+")
    return MalformedInput(f"the nets sum to {total}, not zero: {who}; the nets of a game's "
                          "ledger sum to zero (FORMATS.md §2), so a row of it is wrong or "
                          "missing", file=file, line=max(r.line for r in rows))
