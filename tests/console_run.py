"""A ``handledger`` command run in this process exactly as the console script runs it
(:func:`cli.main.run`: exit status, every failure one line on stderr), on any ledger path: the
``user`` fixture of tests/conftest.py for a test whose ledger is not its ``db``. A command
that raises instead of printing its one line (a traceback in the real process) fails the test
that ran it. It costs a fraction of a new process (no interpreter start-up, no imports);
tests keep real processes where the process is the point (signals, kill -9, bytes
arguments, pipes, locks between processes)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner


def handledger(db: Path | str, *args: str, input: str | None = None  # noqa: A002
               ) -> tuple[int, str, str]:
    """``handledger --db DB ARGS`` → ``(exit status, stdout, stderr)``."""
    from cli.main import run as run_main

    with CliRunner().isolation(input=input) as (out, err, _):
        try:
            code = run_main(["--db", str(db), *args])
        except SystemExit as exc:  # a command's sys.exit, as the process ends with it
            code = exc.code
    return code, out.getvalue().decode(), err.getvalue().decode()
