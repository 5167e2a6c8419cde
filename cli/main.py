"""The ``handledger`` command: a thin click group; the ledger travels in ``ctx.obj``.

Every expected failure (bad input, illegal action, busy ledger) is a
:class:`ledger.model.errors.LedgerError`: the command prints one line to stderr and exits 2, never
a traceback. Audit-style commands exit 1 when they find discrepancies.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ledger.model.errors import LedgerError

DEFAULT_DB = "handledger.duckdb"


class Context:
    """What every command needs: the database path and a lazily opened ledger."""

    def __init__(self, db: str) -> None:
        self.db = db
        self._ledger = None

    def ledger(self, *, read_only: bool = False):  # noqa: ANN201 - ledger.store.store.Ledger
        from ledger.store.store import Ledger

        if self._ledger is None:
            if read_only and not Path(self.db).exists():
                raise LedgerError(f"no ledger at {self.db} (run `handledger init` or import)")
            self._ledger = Ledger(self.db, read_only=read_only)
        return self._ledger

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None


class Group(click.Group):
    """Turns LedgerError into one line on stderr and exit status 2."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except LedgerError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        finally:
            obj = ctx.obj
            if isinstance(obj, Context):
                obj.close()


@click.group(cls=Group)
@click.option(
    "--db",
    default=lambda: os.environ.get("HANDLEDGER_DB", DEFAULT_DB),
    show_default=f"$HANDLEDGER_DB or ./{DEFAULT_DB}",
    help="The ledger database file.",
)
@click.version_option(package_name="handledger")
@click.pass_context
def cli(ctx: click.Context, db: str) -> None:
    """An event-sourced, hash-chained poker hand-history ledger that replays and audits
    home games: pots, side pots, splits and high-low declarations."""
    ctx.obj = Context(db)


def _register() -> None:
    from cli import cmd_hands, cmd_ledger

    for module in (cmd_ledger, cmd_hands):
        for command in module.COMMANDS:
            cli.add_command(command)
    import importlib

    for name in ("cli.cmd_sessions", "cli.cmd_disputes", "cli.cmd_series", "cli.cmd_view"):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command module that has not landed yet
            if exc.name != name:
                raise
            continue
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    """Console entry point."""
    try:
        cli.main(prog_name="handledger")
    except LedgerError as exc:  # raised outside a command's invoke (e.g. option callbacks)
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
