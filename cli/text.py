"""Text of the checks, for people: the audit's findings and summary, ``verify``'s verdict,
the signatures and checkpoints, SQL results. Pure functions from what the layers below
return to strings (the books: :mod:`cli.books_text`; a hand in dispute:
:mod:`cli.dispute_text`)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from ledger.model.shell import shell_arg

#: What a clean audit did not check: the books are the derived tables, caught up from the
#: rows that moved, and no read walks the hash chain (a second of CPU per hundred thousand
#: rows, docs/LEDGER.md "Tampering"): a row edited in place is ``verify``'s to find.
CLEAN_SCOPE = " in the books as stored (the hash chain not checked: `handledger verify`)"
#: What a clean audit of an exported Parquet dataset checked: ``dask-replay`` proves the
#: events' hash chain before it replays them (:mod:`replay.parquet_chain`).
EXPORT_SCOPE = " in the exported events, their hash chain proven row by row"


def audit_text(report: Any, found: list[Any], session: str | None = None, *,
               clean_scope: str = CLEAN_SCOPE) -> str:
    """One line per finding, a line naming the incomplete hands, and a summary line: what was
    found, by kind, then what was checked (``audit: 2 discrepancies (payout 1,
    session_balance 1); 3 hand(s) in 1 session(s) checked``: a finding may be a hand's or a
    session's); for a clean audit what it checked and did not (``clean_scope``: by default
    :data:`CLEAN_SCOPE`; :data:`EXPORT_SCOPE` for an exported dataset) (``report``:
    :class:`ledger.audit.tables.AuditReport`)."""
    lines = [f"{d.kind}: {d.message}" + _where(d, _chip(report, d)) for d in found]
    cut = incomplete_hands(report, session)
    if cut:
        lines.append(f"{len(cut)} incomplete hand(s), the log stopping before their end, "
                     f"counted with every chip returned: {', '.join(cut)}")
    books = [k for k in report.hands if k is not None and session in (None, k)]
    hands = sum(n for k, n in report.hands.items() if session in (None, k))
    scope = f"{hands} hand(s) in {len(books)} session(s)"
    if not found:
        lines.append(f"audit clean: {scope}; every chip adds up{clean_scope}"
                     + _still_owed(report, session))
    else:
        counts: dict[str, int] = {}
        for d in found:
            counts[d.kind] = counts.get(d.kind, 0) + 1
        kinds = ", ".join(f"{k} {n}" for k, n in counts.items())
        # what was found, then what was checked: a finding may be a session's, not a hand's
        lines.append(f"audit: {len(found)} discrepanc{'y' if len(found) == 1 else 'ies'} "
                     f"({kinds}); {scope} checked")
    return "\n".join(lines)


def _still_owed(report: Any, session: str | None) -> str:
    """What a clean audit adds when closed sessions (``session``, or every one) still owe
    money, no payment recorded (``report.owing``; the ``unsettled`` finding, run only on
    request): ``; 1 closed session still owes money (fri): …``, else nothing."""
    owing = [o.session for o in still_owing(report, session)]
    if not owing:
        return ""
    many = len(owing) > 1
    return (f"; {len(owing)} closed session{'s' if many else ''} still owe{'' if many else 's'}"
            f" money ({', '.join(owing)}): `handledger audit --unsettled` names who, "
            "`handledger settle` who pays whom")


def still_owing(report: Any, session: str | None) -> list[Any]:
    """The closed sessions (``session``, or every one) where money is still owed after the
    payments recorded (``report.owing``: :class:`ledger.audit.settlement.Owing`)."""
    return [o for o in getattr(report, "owing", ()) if session in (None, o.session)]


def owing_json(owing: Any, label: Any) -> dict[str, Any]:
    """``audit --json``'s object of a closed session still owing money (``owing``,
    :class:`ledger.audit.settlement.Owing`), what its clean line's ``still owes money`` says as
    data: ``{"session", "owed_minor", "decimals", "currency", "transfers": [{"from",
    "from_name", "to", "to_name", "amount_minor"}]}``, money in integer minor units of
    ``currency`` with ``decimals`` places, a transfer's ``from`` or ``to`` null with
    ``"house": true`` the house, as ``settle --json`` names them (``label``: a player's name
    as the text gives it); ``transfers`` null when the session's balances do not sum to zero
    (the audit's findings say why)."""
    found = owing.transfers()
    transfers = None if found is None else [
        {"from": a, "from_name": label(a), "to": b, "to_name": label(b), "amount_minor": n}
        | ({"house": True} if None in (a, b) else {}) for a, b, n in found]
    return {"session": owing.session, "owed_minor": owing.owed_minor,
            "decimals": owing.decimals, "currency": owing.currency, "transfers": transfers}


def incomplete_hands(report: Any, session: str | None = None) -> list[str]:
    """Hands whose log stops before their end (settled like a void, net 0: never a
    discrepancy, but named so the nets are read with care)."""
    return [hand for hand, s in report.incomplete if session in (None, s)]


#: The kinds of finding whose amounts are money in minor units (a session's payments), not
#: chips (:data:`ledger.audit.checks.REGISTRY`).
MONEY_KINDS = ("settlement", "unsettled")


def _chip(report: Any, d: Any) -> tuple[int, int, str | None] | None:
    """What a chip of the finding ``d``'s hand is worth, or of its session for a finding that
    names no hand (``(minor units, decimals, currency)``, ``report``'s ``units`` and
    ``session_units``); None: plain chips."""
    if d.hand is not None:
        return getattr(report, "units", {}).get(d.hand)
    return getattr(report, "session_units", {}).get(d.session)


def finding_unit(report: Any, d: Any) -> dict[str, Any]:
    """What the amounts (``expected``, ``actual``) of the finding ``d`` count, as ``audit
    --json`` gives it beside them (the text's ``; amounts in chips of 0.25 USD``):
    ``{"unit": "chips", "chip_value_minor", "decimals", "currency"}``, chips worth that
    many minor units of that currency (plain chips: 1, 0, None); a settlement's and an
    unsettled session's ``{"unit": "minor", "decimals", "currency"}``, money in its minor
    units (:data:`MONEY_KINDS`); a finding of no amount (``in_progress``, ``signature``)
    ``{"unit": None}``."""
    if d.kind in ("in_progress", "signature"):
        return {"unit": None}
    value, decimals, currency = _chip(report, d) or (1, 0, None)
    if d.kind in MONEY_KINDS:
        return {"unit": "minor", "decimals": decimals, "currency": currency}
    return {"unit": "chips", "chip_value_minor": value, "decimals": decimals,
            "currency": currency}


def _where(d: Any, chip: tuple[int, int, str | None] | None = None) -> str:
    """`` [session s, hand h, player p; expected 3500, actual 3375]``: what the finding ``d``
    names and compares; ``chip``, what a chip of its hand is worth, or of its session for a
    finding that names no hand (``(minor units, decimals, currency)``,
    :class:`ledger.audit.tables.AuditReport` ``units`` and ``session_units``), adds that its
    amounts are chips of it (``; amounts in chips of 0.01 USD``): every finding counts chips,
    as stored, which an import's warnings write as money; a settlement's amounts are the
    session's money in minor units (``; amounts in 0.01 USD``)."""
    parts = [f"{k} {v}" for k, v in (("session", d.session), ("hand", d.hand),
                                      ("player", d.player)) if v is not None]
    if d.kind in ("in_progress", "signature"):  # no amount to compare (until it ends)
        return f" [{', '.join(parts)}]"
    if chip is None or (d.kind in MONEY_KINDS and not chip[1] and chip[2] is None):
        unit = ""  # plain chips, or money of no unit to name
    elif d.kind in MONEY_KINDS:
        from ledger.model.money import format_money

        unit = f"; amounts in {format_money(1, chip[1], chip[2])}"
    else:
        unit = f"; amounts in {chips_of(chip)}"
    return f" [{', '.join(parts)}; expected {d.expected}, actual {d.actual}{unit}]"


def chips_of(chip: tuple[int, int, str | None]) -> str:
    """``chips of 0.01 USD``: the chips of a unit ``(minor units a chip is worth, decimals,
    currency)`` in words (a PokerNow log's cent, no currency: ``chips of 0.01``)."""
    from ledger.model.money import format_money

    return f"chips of {format_money(*chip)}"


def sql_table(columns: list[str], rows: list[tuple], *, more: str | None = None) -> str:
    """A plain text table (rich) of a query's result, with the row count (``more``: the line
    saying the rows were cut at the cap, in its place)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    console = Console(file=buf, width=100_000, color_system=None, highlight=False,
                      markup=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*("" if v is None else str(v) for v in r))
    console.print(table)
    text = "\n".join(line.rstrip() for line in buf.getvalue().strip("\n").splitlines())
    return text + "\n" + (more or f"({len(rows)} row{'s' if len(rows) != 1 else ''})")


def signatures_lines(signed: Sequence[Any], checkpoints: Any) -> list[str]:
    """``run``'s lines on the signatures: one on the signed corrections and voids
    (:func:`ledger.audit.signatures.summary_line`, then a ``signature FAILS:`` line per
    failing one, as ``verify`` names it) and one on the ledger's checkpoints file
    (:meth:`ledger.store.anchor.OwnCheckpoints.line`); none when there is neither."""
    from ledger.audit.signatures import summary_line

    lines = []
    if (line := summary_line(signed)) is not None:
        lines.append(f"signatures: {line}")
    lines += [f"signature FAILS: {s.line()}" for s in signed if s.status == "bad"]
    if checkpoints is not None:
        lines.append(checkpoints.line())
    return lines


def verify_text(verdict: Any) -> str:
    """``verify``'s lines (``verdict``: :class:`replay.verifying.Verdict`): the chain (its head,
    or where it breaks), a line per signed amendment whose signature fails or whose key is not
    here, a line for the signatures that verify (naming each unsigned ``undo`` that takes
    one back, as ``history`` does), the derived tables against the replay, the
    ledger's own checkpoints file when it was checked (unless a close's line below says the
    ledger parts from it), and the closes whose checkpoint is missing."""
    chain = verdict.chain
    if chain.ok:
        position, digest = chain.head
        lines = [f"ok: {chain.rows} events, hash chain intact, head {position}:{digest}"]
    elif chain.problem == "head":  # the rows intact: no position is to blame
        lines = [f"broken: {chain.message}"]
    else:
        lines = [f"broken at position {chain.first_bad}: {chain.problem}: {chain.message}"]
    from ledger.audit.signatures import signed_count

    for s in verdict.signatures:
        if s.status == "bad":
            lines.append(f"signature FAILS: {s.line()}")
        elif s.status == "unknown":
            lines.append(f"signature not checked: {s.line()}")
    good = signed_count(verdict.signatures)["good"]  # a void and its correction: one
    undone = [f"unsigned: {u.line()}" for u in verdict.unsigned]
    if good or undone:
        lines.append("; ".join([f"signatures: {good} signed correction(s) and void(s) verify",
                                *undone]))
    derived = verdict.derived
    if derived.sealed is not None:
        sealed = derived.sealed.removesuffix(" (run `verify`)")
        lines.append(f"derived tables FAIL their own check: {sealed}")
    if derived.difference is not None:
        lines.append(f"derived tables FAIL: {derived.difference}")
    elif derived.checked:
        lines.append(f"derived tables: as the events' replay gives them ({derived.rows} rows)")
    elif derived.reason is not None:
        lines.append(f"derived tables not checked: {derived.reason}")
    if verdict.own is not None and verdict.unanchored.why != "parted":  # else said below
        lines.append(verdict.own.line())
    lines += _unanchored_lines(verdict.unanchored)
    return "\n".join(lines)


def _unanchored_lines(closes: Any) -> list[str]:
    """``verify``'s line for each close whose checkpoint the ledger's checkpoints file lacks
    (``closes``: :class:`ledger.store.sidecar.Closes`), by why it lacks it."""
    state, why = closes.file, closes.why
    if why is None:
        return []
    against = f"`handledger verify --against {shell_arg(state.path)}`"
    if why == "parted":
        line, position, said = state.parted
        return [f"checkpoints FAIL: {state.path}:{line} holds a checkpoint of position "
                f"{position} this ledger does not extend ({said}), and none of the close of "
                + ", ".join(f"session {name} (entry {seq}, position {pos})"
                            for name, seq, pos in closes.missing)
                + f": rewritten since it was taken, not a checkpoint to take again; run "
                f"{against}"]
    out = []
    for name, seq, position in closes.missing:
        head = f"close checkpoint missing: session {name} (entry {seq}, position {position}): "
        if why == "damaged":
            out.append(head + f"{state.path} holds none of it, and its line "
                       f"{state.damaged.line} is damaged ({state.damaged.said()}): run "
                       f"{against}")
        elif why == "no file":
            out.append(head + f"there is no checkpoints file {state.path} (the ledger copied "
                       "without it?): put it back beside the ledger; if it never was, "
                       f"`handledger session close {shell_arg(name)}` takes the checkpoint")
        else:
            out.append(head + "its close stopped before writing its checkpoint (`handledger "
                       f"session close {shell_arg(name)}` takes it)")
    return out
