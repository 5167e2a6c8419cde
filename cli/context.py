"""What every command gets in ``ctx.obj``: the ledger path and a lazily opened ledger; and the
group that turns every expected failure into one line and exit status 2."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import click

from ledger.model.errors import LedgerError

DEFAULT_DB = "handledger.duckdb"
#: Seconds an open waits for a ledger another process holds (``--wait``; ``--no-wait``: 0).
DEFAULT_WAIT = 30.0
#: The most worker processes ``--jobs`` takes: four a CPU of this machine, and never fewer
#: than 8 (a test machine's ``--jobs 2`` on one CPU). More only fills memory with processes
#: waiting for a CPU (each loads Python, DuckDB and the engine, about 100 MB).
MAX_JOBS = max(8, 4 * (os.cpu_count() or 1))
#: The ``--jobs`` option's type: 1 to :data:`MAX_JOBS`.
JOBS = click.IntRange(min=1, max=MAX_JOBS)

_at_once = False  # see exit_at_once


def exit_at_once(yes: bool = True) -> None:
    """Ask the console script (:mod:`cli.entry`) to end the process as soon as the command's
    output is flushed, skipping the interpreter's teardown (a live action is a process of its
    own, and freeing every module one by one took a sixth of it). Only for a command that
    leaves nothing to finish at exit: no threads, worker processes, temporary files or open
    connections (the ledger is closed when the command ends, :class:`Group`)."""
    global _at_once
    _at_once = yes


def exits_at_once() -> bool:
    """Whether the command run asked for :func:`exit_at_once`."""
    return _at_once


_own = False  # see own_process


def own_process() -> None:
    """Said by what runs the command in a process that ends when the command returns (the
    console script, :mod:`cli.entry`; a served command's fork, :mod:`cli.server`), never by
    a caller that goes on after it (a test's runner, a ``table`` session's lines): a
    command of :func:`one_action` then leaves the collector paused to the end."""
    global _own
    _own = True


@contextmanager
def one_action() -> Iterator[None]:
    """The body of a live command that is one action (``hand start``, ``act``, ``state``): the
    process ends as soon as its output is flushed (:func:`exit_at_once`), and the cyclic
    garbage collector is paused meanwhile (loading the command's modules and reading the
    hand makes many objects and frees almost none). In a process of the command's own
    (:func:`own_process`) it stays paused to the end: the first collection after the body
    would pass over every object it made (about 7 ms of CPU of an action of about 0.25 s),
    objects the process's end frees anyway, and DuckDB's instance is not made ready for a next
    ledger as the last one is detached (:func:`ledger.store.duck.ending_with_process`).
    Elsewhere the collector is restored as it was."""
    exit_at_once()
    if _own:  # the process ends with the action: the last detach leaves DuckDB as it is
        from ledger.store.duck import ending_with_process

        ending_with_process()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled and not _own:
            gc.enable()


class Context:
    """The database path and the ledger, opened on first use."""

    def __init__(self, db: str) -> None:
        self.db = db
        self._ledger: Any = None
        #: The head when the ledger was first opened for writing (position 0 for a new file);
        #: None while the command has not opened it so, or when it saves no tables.
        self.written_from: int | None = None
        #: Whether the derived tables are saved after a write (off for a live action, whose
        #: next read catches its session up in memory).
        self.saves_tables = True
        #: Whether this command made the ledger file (it was not there when first opened for
        #: writing): a write refused after that removes it again (:meth:`discard_new`).
        self.created = False
        #: The platform names (:meth:`names`) as read from the ledger last opened; None: not
        #: read since (every open forgets them: a later one may hold an alias more).
        self._names: Any = None

    def ledger(self, *, read_only: bool = False, existing: bool = False,
               checks: Callable[[], object] | None = None, sound: bool = True) -> Any:
        """The :class:`ledger.store.store.Ledger` at ``db`` (opened once).

        ``read_only`` or ``existing``: a missing file is an error, never created.
        ``sound`` False: a read-only open does not check the file's blocks (the command
        checks them itself, as ``verify`` and ``checkpoint`` do, in their own words).
        ``checks``: the command's preconditions that need no ledger file (its arguments, what
        a ledger with no rows refuses), run before a missing file is made: what they refuse
        leaves no file, and none was ever made (docs/COMMANDS.md "reads never write").

        Raises:
            NotFound: no ledger file; LedgerBusy, LedgerError: it cannot be opened; whatever
                ``checks`` raises.
        """
        from ledger.store.store import Ledger

        if self._ledger is None:
            if (read_only or existing) and self.db != ":memory:" and not Path(self.db).exists():
                from ledger.store.making import wait_until_made

                wait_until_made(self.db)  # one another process is making, else no ledger
            if not read_only and self.db != ":memory:" and not os.path.lexists(self.db):
                if checks is not None:
                    checks()
                self.created = True
            self._names = None
            self._ledger = Ledger(self.db, read_only=read_only, sound=sound)
            if not read_only and self.written_from is None and self.saves_tables:
                self.written_from = (self._ledger.opened_head or (0, ""))[0]
        return self._ledger

    def save_tables(self) -> bool:
        """After a command that opened the ledger for writing: the derived tables saved as
        of the head when it moved (:func:`replay.projections.save_tables`). Not saved (the
        file held by another process, a failure) is a note: the events are written, and
        reads compute the tables in memory. So is Ctrl-C meanwhile, or held since the write
        landed (:mod:`ledger.store.landing`): the write stands, and the command ends as it
        would have. A command may call it itself once it has written, to read the tables
        saved on the ledger it holds (then the group finds nothing more to save). Returns
        whether this call saved them (as of the head, on the ledger left open for writing)."""
        if (self.written_from is None or not self.saves_tables or self.db == ":memory:"
                or not Path(self.db).exists()):
            return False
        from cli import render
        from ledger.model.errors import LedgerError
        from ledger.store import landing
        from ledger.store.store import Ledger
        from replay.projections import save_tables

        reason, saved = None, False
        try:
            with landing.unheld():
                if self._ledger is None or self._ledger.read_only:
                    self.close()
                    self._ledger = Ledger(self.db, wait=False)
                now = (self._ledger.head() or (0, ""))[0]
                saved = now != self.written_from
                if saved:
                    save_tables(self._ledger, progress=render.progress)
                self.written_from = now
        except (KeyboardInterrupt, Exception) as exc:  # Ctrl-C however DuckDB passed it on
            if interrupted(exc):
                reason = "interrupted"
            elif isinstance(exc, LedgerError):
                reason = one_line(str(exc))
            else:
                raise
        if reason is not None:
            render.note(f"note: the derived tables were not saved ({reason}): "
                        "reads compute them in memory")
            return False
        return saved

    def discard_new(self) -> None:
        """The last resort after a refused or interrupted write (an expected failure, a
        non-zero exit, Ctrl-C): the ledger file this command made removed again, with its
        write-ahead log and DuckDB's temporary folder (``<file>.tmp``), when it holds no
        event, so that a refused write leaves no file (docs/COMMANDS.md "reads never write") and an
        interrupted one writes all or nothing.

        What can be checked without the file is checked before it is made (``checks`` of
        :meth:`ledger`: a command's arguments, an import's files no format reads); this is
        only for what cannot be known beforehand: an ``import`` or ``run`` whose files are all
        refused once read and checked whole (reading them first would read every file twice),
        a failure of the database. The file is removed while this process
        holds it for writing (no other process can have written it then). Not removed: a
        file that holds an event, or one another process holds now."""
        if not self.created:
            return
        self.created = False
        from ledger.store.store import Ledger

        try:
            if self._ledger is None or self._ledger.read_only:
                self.close()
                if not os.path.lexists(self.db):
                    return
                self._ledger = Ledger(self.db, wait=False)
            if self._ledger.count():
                return
            for path in (self.db, f"{self.db}.wal"):
                with suppress(FileNotFoundError):
                    os.unlink(path)
        except LedgerError:
            return
        finally:
            self.close()
        if not os.path.lexists(self.db):  # DuckDB's spill files, once it has let them go
            shutil.rmtree(f"{self.db}.tmp", ignore_errors=True)

    def names(self, *, keep: bool = False) -> Any:
        """The :class:`cli.names.Names` of the ledger's platform players, read once: as a
        read of the books that held the ledger read them (:meth:`read_names`, its
        ``opened``), else from the ledger this command has open, or opens read-only for
        them. That ledger is closed again (before the command prints: another process may
        write meanwhile) unless ``keep``: the command reads on from it, one open in all.

        Raises:
            NotFound: no ledger file; LedgerBusy, LedgerError: it cannot be opened.
        """
        if self._names is None:
            self.read_names(self.ledger(read_only=True))
        if not keep:
            self.close()
        return self._names

    def read_names(self, ledger: Any) -> None:
        """Read the platform names (:meth:`names`) from ``ledger``, an open
        :class:`ledger.store.store.Ledger`: what a read of the books (:mod:`replay.books`)
        calls while it holds the ledger, so that the command does not open it once more for
        them (an open costs about 30 ms of CPU)."""
        from cli.names import Names
        from ledger.store.streams import platform_names

        self._names = Names(platform_names(ledger))

    def close(self) -> None:
        """Close the ledger (it is opened again on next use). Closed open for writing at the
        head its derived tables were last saved at (or nothing written), there is nothing
        left to save: :meth:`save_tables` then does not open the file again for it."""
        self._close(check=True)

    def _close(self, *, check: bool) -> None:
        """:meth:`close`; not ``check``: the command is over (nothing is saved after it), and
        the head is not read to tell whether anything is left to save."""
        if self._ledger is not None:
            ledger, self._ledger = self._ledger, None
            try:
                if check and self.written_from is not None and not ledger.read_only:
                    with suppress(LedgerError):
                        if (ledger.head() or (0, ""))[0] == self.written_from:
                            self.written_from = None
            finally:
                ledger.close()


def _saved(ctx: click.Context) -> None:
    if isinstance(ctx.obj, Context):
        ctx.obj.save_tables()


def _discarded(ctx: click.Context) -> None:
    if isinstance(ctx.obj, Context):
        ctx.obj.discard_new()


def one_line(text: str) -> str:
    """``text`` on one line (a DuckDB message spreads over several: the statement, a caret)."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


#: pydantic's errors that carry a KeyboardInterrupt met in its Rust core as text: serialising
#: an event, and building a model's schema (a module's first import: "Error building
#: `default` serializer: ... KeyboardInterrupt:").
_PYDANTIC_WRAPS = ("PydanticSerializationError", "SchemaError")


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C as a library passed it on: a KeyboardInterrupt, DuckDB's
    ``RuntimeError: Query interrupted`` (raised where it was not asked to stop a query), or an
    error raised on account of one (pydantic wraps it in its own error while it serialises
    an event or builds a schema, :data:`_PYDANTIC_WRAPS`)."""
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        if isinstance(at, KeyboardInterrupt):
            return True
        if isinstance(at, RuntimeError) and "query interrupted" in str(at).lower():
            return True
        if type(at).__name__ in _PYDANTIC_WRAPS and "KeyboardInterrupt" in str(at):
            return True
        at = at.__cause__ or at.__context__
    return False


def error_line(exc: Exception) -> str | None:
    """The one line (``"error: ..."``) a command prints for an expected failure: a
    LedgerError, a file or path it cannot use (OSError), a value an event refuses (pydantic's
    ValidationError, met below the input checks); None for any other exception (a bug: its
    traceback is shown)."""
    if isinstance(exc, LedgerError):
        return f"error: {one_line(str(exc))}"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"error: {where}{one_line(str(exc.strerror or exc))}"
    from pydantic import ValidationError  # loaded here only for a command that failed

    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"error: invalid value ({where}: {one_line(str(first.get('msg')))})"
    return None


def refusal(exc: Exception) -> str:
    """The one error line of an expected failure (:func:`error_line`).

    Raises:
        KeyboardInterrupt: ``exc`` is an interrupt in disguise (:func:`interrupted`).
        Exception: ``exc`` itself when it is not an expected failure (a bug: its traceback
            is shown).
    """
    if interrupted(exc):
        raise KeyboardInterrupt from exc
    line = error_line(exc)
    if line is None:
        raise exc
    return line


class ClosedPipe(Exception):  # noqa: N818 - a condition, not a failure
    """Standard output was closed by its reader (``handledger export | head -1``): raised in
    place of BrokenPipeError so that click does not take it for its own, and turned by
    :func:`cli.main.run` into the exit a command killed by SIGPIPE shows (141)."""


class Group(click.Group):
    """Turns LedgerError, a file or path a command cannot use (OSError) and a value an event
    refuses (pydantic's ValidationError) into one line on stderr and exit status 2 (a ledger
    file the refused command made and left empty is removed, :meth:`Context.discard_new`), a closed
    standard output into :class:`ClosedPipe`, and Ctrl-C however a library passed it on into
    KeyboardInterrupt (:func:`interrupted`); restores the wait policy the ``--wait`` option
    set."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            done = super().invoke(ctx)
            _saved(ctx)
            return done
        except (click.exceptions.Exit, SystemExit) as exc:  # a command's own exit status
            code = exc.exit_code if isinstance(exc, click.exceptions.Exit) else exc.code
            if code not in (0, None):
                _discarded(ctx)
            _saved(ctx)
            raise
        except BrokenPipeError as exc:  # the reader went away (``| head``): not an error here
            raise ClosedPipe from exc
        except KeyboardInterrupt:  # aborted: a ledger it made and wrote nothing to goes too
            _discarded(ctx)
            raise
        except Exception as exc:
            if interrupted(exc):
                _discarded(ctx)
                raise KeyboardInterrupt from exc
            line = refusal(exc)
            _discarded(ctx)
            click.echo(line, err=True)
            ctx.exit(2)
        finally:
            obj = ctx.obj
            if isinstance(obj, Context):
                obj._close(check=False)  # the command is over
            from ledger.store import waiting

            waiting.configure()  # the library's policy again (a test runs many commands)
