"""The books as the commands read them, always as of the ledger's head: balances, settle-up,
the hand-by-hand nets of the chart, the audit, and SQL over the derived tables (docs/SQL.md).

Each function first catches the derived tables up with the ledger (only the sessions that moved
are replayed: :func:`replay.projections.catch_up`), then reads them (:mod:`ledger.audit.reports`).
"""

from __future__ import annotations

from typing import Any

from ledger.audit import reports
from ledger.audit.tables import AuditReport
from ledger.model.errors import NotFound
from replay.progress import Progress, silent
from replay.projections import audit_report, catch_up


def balances(ledger: Any, session: str | None, *, money: bool,
             progress: Progress = silent) -> reports.Balances:
    """Each player's net, buy-ins, cash-outs, hands and sessions (:func:`reports.balances`).

    Raises:
        NotFound: no such session; LedgerError: a hand the rules reject, mixed currencies.
    """
    catch_up(ledger, progress=progress)
    return reports.balances(ledger.connection, session, money)


def settle(ledger: Any, session: str | None, *, progress: Progress = silent
           ) -> tuple[list[tuple[str, str, int]], reports.Balances]:
    """The fewest transfers that settle the nets up (:func:`reports.settlement`).

    Raises:
        LedgerError: the nets do not sum to zero; NotFound: no such session.
    """
    catch_up(ledger, progress=progress)
    return reports.settlement(ledger.connection, session)


def chart_rows(ledger: Any, *, money: bool, progress: Progress = silent
               ) -> list[tuple[int, str, int]]:
    """``(ord, player, net)`` of every player in every hand, in ledger order.

    Raises:
        NotFound: the ledger holds no hands.
    """
    catch_up(ledger, progress=progress)
    rows = reports.hand_nets(ledger.connection, money)
    if not rows:
        raise NotFound("no hands in the ledger to chart")
    return rows


def audit(ledger: Any, session: str | None, *, jobs: int = 1, progress: Progress = silent
          ) -> tuple[AuditReport, list[Any]]:
    """The audit as of the head and its findings (only ``session``'s when given).

    Raises:
        NotFound: no such session.
    """
    report = audit_report(ledger, jobs=jobs, progress=progress)
    if session is not None and session not in report.hands:
        raise NotFound(f"no session {session!r} in the ledger")
    return report, [d for d in report.findings if session is None or d.session == session]


def sql(ledger: Any, query: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """One read-only statement over the events, derived tables and views, caught up first
    (:func:`ledger.audit.tables.query`, which opens the file again read-only).

    Raises:
        LedgerError: not a single read-only statement, or a DuckDB error.
    """
    from ledger.audit.tables import query as run_query

    catch_up(ledger)
    path = ledger.path
    ledger.close()
    return run_query(path, query)
