"""Ledger commands: ``init``, ``import``, ``verify``, ``schema``, ``export``, ``run``."""

from __future__ import annotations

import json
import sys
from contextlib import suppress
from pathlib import Path

import click

from ledger.model.errors import LedgerError
from replay.ingest import pipeline as importing


@click.command()
@click.pass_obj
def init(obj) -> None:  # noqa: ANN001
    """Create an empty ledger (importing creates one too)."""
    ledger = obj.ledger()
    click.echo(f"ledger {obj.db}: {ledger.count()} events")


@click.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--strict", is_flag=True, help="Reject a whole file when any hand in it is bad.")
@click.option("--session", default=None, help="Append the hands to this session, in file order.")
@click.option("--ledger", "pn_ledger", default=None, type=click.Path(exists=True),
              help="A PokerNow ledger CSV to compare with the imported game.")
@click.option("--jobs", default=None, type=click.IntRange(min=1),
              help="Worker processes reading and checking a JSON-lines file while this one "
                   "appends it (1: none). Default: the CPUs, for files of 16 MB or more.")
@click.pass_obj
def import_(obj, files: tuple[str, ...], strict: bool, session: str | None,  # noqa: ANN001
            pn_ledger: str | None, jobs: int | None = None) -> None:
    """Import hand files: PHH (.phh, .phhs), JSON-lines events (.jsonl), PokerNow logs (.csv).

    Hands already in the ledger are skipped. A bad hand is reported on one line (file, line,
    hand, action) and nothing of it is written; the other hands still import, and the command
    exits 2. With --strict a file with any bad hand writes nothing at all.
    """
    from replay.ingest import parallel as importing_parallel

    if any(importing_parallel.auto_workers(Path(f), jobs) for f in files):
        with suppress(OSError, RuntimeError):  # no workers: the one-process import then
            importing_parallel.warm_up()  # the workers' process starts while the ledger opens
    ledger = obj.ledger()
    report = importing.import_paths(ledger, [Path(f) for f in files], strict=strict,
                                    session=session, pn_ledger=pn_ledger, jobs=jobs)
    for line in report.errors:
        click.echo(f"error: {line}", err=True)
    click.echo(report.summary())
    if report.errors:
        sys.exit(2)


@click.command()
@click.pass_obj
def verify(obj) -> None:  # noqa: ANN001
    """Walk the hash chain; exit 1 naming the first edited, deleted, inserted or reordered row."""
    report = obj.ledger(read_only=True).verify()
    if report.ok:
        click.echo(f"ok: {report.rows} events, hash chain intact")
        return
    click.echo(f"broken at position {report.first_bad}: {report.problem}: {report.message}")
    sys.exit(1)


@click.command()
def schema() -> None:
    """Print the JSON Schema of every event type."""
    from ledger.model.events import json_schema

    click.echo(json.dumps(json_schema(), indent=2, sort_keys=True))


@click.command()
@click.option("--format", "fmt", type=click.Choice(["jsonl", "phh", "parquet", "csv"]),
              default="jsonl", show_default=True)
@click.option("-o", "--out", default="-",
              help="Output file (jsonl, phh) or directory (parquet, csv).")
@click.argument("hands", nargs=-1)
@click.pass_obj
def export(obj, fmt: str, out: str, hands: tuple[str, ...]) -> None:  # noqa: ANN001
    """Export hands as JSON-lines events or PHH (all hands, or the HANDS given); or the events
    and derived tables as parquet / csv files into a directory."""
    from replay.ingest import export as exporting

    if fmt in ("parquet", "csv") and out == "-" and len(hands) == 1:
        out, hands = hands[0], ()  # `export --format parquet DIR`
    if fmt in ("parquet", "csv") and out != "-":
        from cli.cmd_sessions import ensure_fresh

        ensure_fresh(obj, quiet=True)  # derived tables and views as of the ledger's head
    ledger = obj.ledger(read_only=True)
    if fmt in ("parquet", "csv"):
        if out == "-":
            raise LedgerError(f"--format {fmt} needs a directory: DIR or -o DIR")
        written = exporting.export_tables(ledger, Path(out), fmt)
        click.echo(f"wrote {len(written)} files to {out}")
        return
    text = exporting.export_text(ledger, fmt, list(hands))
    if out == "-":
        click.echo(text, nl=False)
    else:
        Path(out).write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}")


@click.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False), default="data")
@click.option("--all", "show_all", is_flag=True, help="Print every hand, not only the problems.")
@click.pass_context
def run(ctx: click.Context, directory: str, show_all: bool) -> None:
    """The whole job on a folder: import every hand file and session in it, replay every
    hand, print the hands that were paid wrong (or could not be verified), the audit and the
    balances. Findings are the report, so it exits 0; `audit` exits 1 on a discrepancy.
    Exits 2 when a file or hand was rejected."""
    obj = ctx.obj
    ledger = obj.ledger()
    paths = importing.discover(Path(directory))
    report = importing.import_paths(ledger, paths, strict=False, session=None, pn_ledger=None,
                                    jobs=None)  # workers for a large JSON-lines file
    for line in report.errors:
        click.echo(f"error: {line}", err=True)
    click.echo(report.summary())
    from cli.cmd_hands import replay

    try:
        ctx.invoke(replay, hand=(), as_json=False, jobs=1, problems=not show_all)
    except SystemExit:  # replay exits 1 on a payout difference; the audit below says it all
        pass
    from cli.cmd_series import balance_rows, balances_text
    from cli.cmd_sessions import audit_report, audit_text

    books = audit_report(obj)  # the replay above has just audited: read, not replayed again
    click.echo(audit_text(books, books.findings))
    click.echo(balances_text(*balance_rows(obj, None, money=False)))
    if report.errors:
        sys.exit(2)


COMMANDS = [init, import_, verify, schema, export, run]
