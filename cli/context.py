"""What every command gets in ``ctx.obj``: the ledger path and a lazily opened ledger; and the
group that turns every expected failure into one line and exit status 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from ledger.model.errors import LedgerError, NotFound

DEFAULT_DB = "handledger.duckdb"
#: Seconds an open waits for a ledger another process holds (``--wait``; ``--no-wait``: 0).
DEFAULT_WAIT = 30.0


class Context:
    """The database path and the ledger, opened on first use."""

    def __init__(self, db: str) -> None:
        self.db = db
        self._ledger: Any = None

    def ledger(self, *, read_only: bool = False, existing: bool = False) -> Any:
        """The :class:`ledger.store.store.Ledger` at ``db`` (opened once).

        ``read_only`` or ``existing``: a missing file is an error, never created.

        Raises:
            NotFound: no ledger file; LedgerBusy, LedgerError: it cannot be opened.
        """
        from ledger.store.store import Ledger

        if self._ledger is None:
            if (read_only or existing) and self.db != ":memory:" and not Path(self.db).exists():
                raise NotFound(f"no ledger at {self.db} (run `handledger init` or import)")
            self._ledger = Ledger(self.db, read_only=read_only)
        return self._ledger

    def names(self) -> Any:
        """The :class:`cli.names.Names` of the ledger's platform players (read, then the
        ledger is closed again: the commands that read the books open it themselves)."""
        from cli.names import Names
        from ledger.store.streams import platform_names

        names = Names(platform_names(self.ledger(read_only=True)))
        self.close()
        return names

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None


def one_line(text: str) -> str:
    """``text`` on one line (a DuckDB message spreads over several: the statement, a caret)."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C as a library passed it on: a KeyboardInterrupt, DuckDB's
    ``RuntimeError: Query interrupted`` (raised where it was not asked to stop a query), or an
    error raised on account of one (pydantic's serializer wraps it in its own error)."""
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        if isinstance(at, KeyboardInterrupt):
            return True
        if isinstance(at, RuntimeError) and "query interrupted" in str(at).lower():
            return True
        if type(at).__name__ == "PydanticSerializationError" and "KeyboardInterrupt" in str(at):
            return True
        at = at.__cause__ or at.__context__
    return False


class Group(click.Group):
    """Turns LedgerError, a file or path a command cannot use (OSError) and a value an event
    refuses (pydantic's ValidationError) into one line on stderr and exit status 2, and Ctrl-C
    however a library passed it on into KeyboardInterrupt (:func:`interrupted`); restores
    the wait policy the ``--wait`` option set."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except Exception as exc:
            if interrupted(exc):
                raise KeyboardInterrupt from exc
            if isinstance(exc, LedgerError):
                click.echo(f"error: {one_line(str(exc))}", err=True)
            elif isinstance(exc, OSError):
                where = f"{exc.filename}: " if exc.filename else ""
                click.echo(f"error: {where}{one_line(str(exc.strerror or exc))}", err=True)
            elif isinstance(exc, ValidationError):  # a value an event refuses, met below the
                first = exc.errors()[0]  # input checks
                where = ".".join(str(p) for p in first.get("loc", ()))
                click.echo(f"error: invalid value ({where}: "
                           f"{one_line(str(first.get('msg')))})", err=True)
            else:
                raise
            ctx.exit(2)
        finally:
            obj = ctx.obj
            if isinstance(obj, Context):
                obj.close()
            from ledger.store import waiting

            waiting.configure()  # the library's policy again (a test runs many commands)
