"""The ``handledger`` console script's entry point, importing nothing itself: Ctrl-C while
the command's modules load (click, pydantic, DuckDB: a few hundred milliseconds) is
"Aborted" and exit 130 like Ctrl-C anywhere later, never a traceback of the import."""

from __future__ import annotations

import sys


def main() -> None:
    """Load :mod:`cli.main` and run it (:func:`cli.main.main` gives the exit statuses)."""
    try:
        from cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("Aborted\n")
        sys.exit(130)
    run()
