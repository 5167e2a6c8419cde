"""The ``handledger`` command: a thin click group; the ledger travels in ``ctx.obj``.

Every expected failure (bad input, illegal action, busy ledger) is a
:class:`ledger.model.errors.LedgerError`: the command prints one line to stderr and exits 2,
never a traceback. Audit-style commands exit 1 when they find discrepancies.
"""

from __future__ import annotations

import os
import sys

import click

from cli.context import DEFAULT_DB, DEFAULT_WAIT, Context, Group
from ledger.model.errors import LedgerError


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    default=lambda: os.environ.get("HANDLEDGER_DB", DEFAULT_DB),
    show_default=f"$HANDLEDGER_DB or ./{DEFAULT_DB}",
    help="The ledger database file.",
)
@click.option(
    "--wait", "wait_seconds", type=click.FloatRange(min=0), default=DEFAULT_WAIT,
    envvar="HANDLEDGER_WAIT", show_default=True,
    help="Seconds to wait for a ledger another handledger process is writing ($HANDLEDGER_WAIT).",
)
@click.option(
    "--no-wait", is_flag=True, envvar="HANDLEDGER_NO_WAIT",
    help="Fail at once when another process holds the ledger ($HANDLEDGER_NO_WAIT=1).",
)
@click.version_option(package_name="handledger")
@click.pass_context
def cli(ctx: click.Context, db: str, wait_seconds: float, no_wait: bool) -> None:
    """An event-sourced, hash-chained poker hand-history ledger that replays and audits
    home games: pots, side pots, splits and high-low declarations."""
    from ledger.store import waiting

    waiting.configure(0 if no_wait else wait_seconds, lambda line: click.echo(line, err=True))
    ctx.obj = Context(db)


def _register() -> None:
    from cli import (
        cmd_checkpoint,
        cmd_disputes,
        cmd_hands,
        cmd_ledger,
        cmd_report,
        cmd_series,
        cmd_sessions,
        cmd_view,
    )

    for module in (cmd_ledger, cmd_hands, cmd_sessions, cmd_disputes, cmd_series, cmd_view,
                   cmd_checkpoint, cmd_report):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    """Console entry point: exit 0 done, 1 the books or the chain are not right, 2 bad input
    (one line, never a traceback), 130 interrupted (Ctrl-C: "Aborted", nothing half written).
    """
    try:
        code = cli.main(prog_name="handledger", standalone_mode=False)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("Aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:  # a usage error: one line, how to get the usage
        hint = ""
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            hint = f" (`{exc.ctx.command_path} -h` shows the usage)"
        click.echo(f"error: {exc.format_message()}{hint}", err=True)
        sys.exit(exc.exit_code)
    except LedgerError as exc:  # raised outside a command's invoke (e.g. option callbacks)
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)
