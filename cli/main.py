"""The ``handledger`` command: a thin click group; the ledger travels in ``ctx.obj``.

Every expected failure (bad input, illegal action, busy ledger) is a
:class:`ledger.model.errors.LedgerError`: the command prints one line to stderr and exits 2,
never a traceback. Audit-style commands exit 1 when they find discrepancies.
"""

from __future__ import annotations

import functools
import importlib
import io
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click
from click.core import ParameterSource

from cli.context import (
    DEFAULT_DB,
    DEFAULT_WAIT,
    ClosedPipe,
    Context,
    Group,
    exit_at_once,
    exits_at_once,
    interrupted,
    one_line,
)
from cli.utf8 import check_utf8, escaped, is_utf8
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.names import check_new_name
from ledger.store import landing
from ledger.store.threads import MAX_THREADS, use_threads

#: The module of each command, imported only when that command runs (or for ``--help``): a
#: live ``act`` is a new process each time, and must not pay for the renderers, the books or
#: the key store. Every module lists its commands in ``COMMANDS``.
COMMAND_MODULES = {
    **dict.fromkeys(("init", "import", "verify", "schema", "export", "run"), "cli.cmd_ledger"),
    **dict.fromkeys(("replay", "show", "dask-replay"), "cli.cmd_hands"),
    **dict.fromkeys(("session", "buyin", "cashout", "pay", "entry", "player", "audit"),
                    "cli.cmd_sessions"),
    **dict.fromkeys(("hand", "act", "state", "table"), "cli.cmd_live"),
    **dict.fromkeys(("whatif", "correct", "void", "undo", "history"), "cli.cmd_disputes"),
    **dict.fromkeys(("balances", "standings", "settle", "sql", "chart", "demo-series"),
                    "cli.cmd_series"),
    "view": "cli.cmd_view",
    **dict.fromkeys(("checkpoint", "key"), "cli.cmd_checkpoint"),
    "report": "cli.cmd_report",
    "serve": "cli.cmd_serve",
}


class LazyGroup(Group):
    """The top-level group: a command's module is imported (its commands checked by
    :func:`_text_only` and added) when the command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            for command in importlib.import_module(module).COMMANDS:
                _text_only(command)
                self.add_command(command)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    default=lambda: os.environ.get("HANDLEDGER_DB", DEFAULT_DB),
    show_default=f"$HANDLEDGER_DB or ./{DEFAULT_DB}",
    help="The ledger database file.",
)
@click.option(
    "--wait", "wait_seconds", type=click.FloatRange(min=0), default=DEFAULT_WAIT,
    envvar="HANDLEDGER_WAIT", show_default=True,
    help="Seconds to wait for a ledger another process is writing ($HANDLEDGER_WAIT).",
)
@click.option(
    "--no-wait", is_flag=True, envvar="HANDLEDGER_NO_WAIT",
    help="Fail at once when another process holds the ledger ($HANDLEDGER_NO_WAIT=1).",
)
@click.option(
    "--threads", type=click.IntRange(1, MAX_THREADS), default=None, envvar="HANDLEDGER_THREADS",
    help="DuckDB's threads in this process (default: one a CPU; $HANDLEDGER_THREADS).",
)
@click.version_option(package_name="handledger")
@click.pass_context
def cli(ctx: click.Context, db: str, wait_seconds: float, no_wait: bool,
        threads: int | None) -> None:
    """An event-sourced, hash-chained poker hand-history ledger that replays and audits
    home games: pots, side pots, splits and high-low declarations."""
    from ledger.store import waiting

    given = ("--db" if ctx.get_parameter_source("db") is not ParameterSource.DEFAULT
             or "HANDLEDGER_DB" not in os.environ else "$HANDLEDGER_DB")
    if not db:
        raise MalformedInput(f"{given} {db!r} names no file: give the ledger's path (default "
                             f"./{DEFAULT_DB}, or $HANDLEDGER_DB)")
    if not is_utf8(db):  # DuckDB opens no such path: it failed with a C++ std::bad_cast
        raise MalformedInput(f"{given} '{escaped(db)}': DuckDB opens only a path that is "
                             "UTF-8 text, and this one has a byte that is not")
    waiting.configure(0 if no_wait else wait_seconds, lambda line: click.echo(line, err=True))
    use_threads(threads)  # None: DuckDB's own count, after a command in this process set one
    ctx.obj = Context(db)


#: Parameters that name files (their text is any name the system allows), not text of events.
_FILE_PARAMS = frozenset({"against", "keys_dir", "out"})


#: Text arguments (by parameter name) that cannot be empty, and what each must give: an
#: event holds them as a nonempty string (ledger/model/events.py), and an empty one would
#: otherwise be refused in pydantic's words, or looked up as a hand named ''.
NEEDED = {"by": "a name", "reason": "a reason", "hand_id": "a hand id", "hand": "a hand id",
          "hand_ids": "a hand id",
          "game_code": "a game code"}


def _text_only(command: click.Command) -> None:
    """Make ``command`` (every command of a group) refuse, with one line, a text argument
    that is not UTF-8 (a byte that is not, which Python keeps as a lone surrogate): no event
    can hold it and no query can look it up; one of :data:`NEEDED` given empty
    (``--by: a name is needed``), a ``--reason`` of only whitespace, and a ``--by`` name a
    command may not give (:func:`ledger.model.names.check_new_name`: whitespace around it,
    a first ``-``). File names are left alone."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _text_only(sub)
        return
    texts = {p.name: p.opts[-1] if isinstance(p, click.Option) else (p.metavar or p.name.upper())
             for p in command.params
             if p.name and not isinstance(p.type, click.Path) and p.name not in _FILE_PARAMS}
    callback = command.callback
    if callback is None or not texts:
        return

    @functools.wraps(callback)
    def checked(*args: Any, **kwargs: Any) -> Any:
        for name, shown in texts.items():
            values = kwargs.get(name)
            for value in values if isinstance(values, tuple | list) else (values,):
                if isinstance(value, str):
                    check_utf8(value, shown)
                if value == "" and name in NEEDED:
                    raise MalformedInput(f"{shown}: {NEEDED[name]} is needed")
                if name == "by" and isinstance(value, str):  # a person's name, as typed
                    check_new_name(value, "--by")
                if name == "reason" and isinstance(value, str) and not value.strip():
                    raise MalformedInput(f"{shown}: {NEEDED[name]} is needed (only whitespace "
                                         "given)")
        return callback(*args, **kwargs)

    command.callback = checked


#: The exit status of a command whose reader closed its standard output (``| head -1``): what
#: the shell shows for a program killed by SIGPIPE (128 + 13), as a C tool would be.
CLOSED_PIPE = 128 + 13


def main() -> None:
    """Console entry point: exit 0 done (an import's ``warning:`` lines name hands it stored:
    no refusal), 1 the books or the chain are not right, 2 bad input (one line, never a
    traceback), 130 interrupted (Ctrl-C: "Aborted", nothing half written),
    141 standard output closed by its reader (nothing on stderr).
    """
    sys.exit(run())


def hold_interrupts() -> None:
    """For the console script's process: Ctrl-C is "Aborted" (KeyboardInterrupt, :func:`run`)
    until a write commits; from the moment its commit starts Ctrl-C is held, and the command
    prints its output and ends as it would have (:mod:`ledger.store.landing`). A held
    interrupt is raised where new work would begin (the next transaction, an import's next
    file, ``table``'s next line); saving the derived tables after the write may be cut short
    (:meth:`cli.context.Context.save_tables`). Left alone when SIGINT is not Python's default
    handler (ignored in a background job)."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    landing.configure(True)
    signal.signal(signal.SIGINT, _on_interrupt)


def _on_interrupt(signum: int, frame: object) -> None:
    if not landing.hold():
        raise KeyboardInterrupt


def leave(code: int) -> NoReturn:
    """End the process with exit status ``code`` (of :func:`run`), Ctrl-C ignored from here
    (the command is done: nothing to abort, and Python's teardown would otherwise die of it):
    as :func:`main` does, or, when the command asked for it
    (:func:`cli.context.exit_at_once`), as soon as standard output and error are flushed,
    without the interpreter's teardown (``os._exit``). Output closed by its reader meanwhile
    is :data:`CLOSED_PIPE`, as in :func:`run`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not exits_at_once():
        sys.exit(code)
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        code = _closed_pipe()
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


def _from_environment(exc: click.ClickException) -> str | None:
    """The environment variable whose value ``exc`` refuses (``HANDLEDGER_WAIT=abc``), when
    the option's value came from it (click records each value's source); else None."""
    if not isinstance(exc, click.BadParameter) or exc.ctx is None or exc.param is None:
        return None
    param = exc.param
    if (not isinstance(param, click.Option) or not isinstance(param.envvar, str)
            or exc.ctx.get_parameter_source(param.name or "") is not ParameterSource.ENVIRONMENT):
        return None
    return param.envvar


def run(args: Sequence[str] | None = None) -> int:
    """The command line ``args`` (default ``sys.argv[1:]``) run as the ``handledger``
    command runs it, every failure one line on stderr; returns the exit status (see
    :func:`main`)."""
    exit_at_once(False)
    _buffered_stdout()
    try:
        code = cli.main(args=list(args) if args is not None else None, prog_name="handledger",
                        standalone_mode=False)
        sys.stdout.flush()  # what is still buffered meets a closed pipe here, not at exit
    except (ClosedPipe, BrokenPipeError):
        return _closed_pipe()
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("Aborted", err=True)
        return 130
    except click.ClickException as exc:  # a usage error: one line, how to get the usage
        hint = ""
        variable = _from_environment(exc)
        if variable is not None:  # named as the user gave it, not as the option it sets
            exc.param_hint = f"${variable}"  # type: ignore[attr-defined]
        elif isinstance(exc, click.UsageError) and exc.ctx is not None:
            hint = f" (`{exc.ctx.command_path} -h` shows the usage)"
        click.echo(f"error: {one_line(exc.format_message())}{hint}", err=True)
        return exc.exit_code
    except LedgerError as exc:  # raised outside a command's invoke (e.g. option callbacks)
        if interrupted(exc):
            click.echo("Aborted", err=True)
            return 130
        click.echo(f"error: {one_line(str(exc))}", err=True)
        return 2
    except Exception as exc:
        if not interrupted(exc):  # Ctrl-C as DuckDB or pydantic passed it on (closing, say)
            raise
        click.echo("Aborted", err=True)
        return 130
    return code if isinstance(code, int) else 0


def _buffered_stdout() -> None:
    """Give standard output a buffer when Python runs it unbuffered (``PYTHONUNBUFFERED``,
    ``-u``): its text layer then writes straight to the file and drops what a short write
    left (a pipe whose reader closes mid-write takes part of a large write), so ``export |
    head -1`` exited 0 with the rest lost unseen. The buffer writes the rest or meets the
    closed pipe (BrokenPipeError: exit :data:`CLOSED_PIPE`); output still goes out at once,
    every line."""
    out = sys.stdout
    raw = getattr(out, "buffer", None)
    if not isinstance(raw, io.FileIO) or not isinstance(out, io.TextIOWrapper):
        return
    out.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=out.encoding,
                                  errors=out.errors, line_buffering=True, write_through=True)


def _closed_pipe() -> int:
    """Python's recipe for SIGPIPE (the ``signal`` module's documentation): standard output
    pointed at the null device, so that the flush at exit meets no closed pipe and prints
    nothing; returns :data:`CLOSED_PIPE`."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's captured output)
        pass
    return CLOSED_PIPE
