"""Ledger commands: ``init``, ``import``, ``verify``, ``schema``, ``export``, ``run``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from cli import books_text, render, text
from cli.cmd_checkpoint import check_against, given_key_directory, key_directory, keys_option
from cli.context import JOBS, Context, interrupted, one_line
from ledger.model.errors import LedgerCorrupt


@click.command()
@click.pass_obj
def init(obj: Context) -> None:
    """Create an empty ledger (importing creates one too)."""
    ledger = obj.ledger()
    click.echo(f"ledger {obj.db}: {ledger.count()} events")


@click.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--strict", is_flag=True, help="Reject a whole file when any hand in it is bad.")
@click.option("--session", default=None, help="Append the hands to this session, in file order.")
@click.option("--ledger", "pn_ledger", default=None, type=click.Path(exists=True),
              help="A PokerNow ledger CSV to compare with the imported game (stored in "
                   "the session that holds the game).")
@click.option("--closed", is_flag=True,
              help="Record it though the session is closed: a file going on with a hand the "
                   "ledger holds (a longer export completing a cut-off hand, corrections and "
                   "voids of another ledger), a cash-out (a PokerNow quit) or an amended "
                   "entry, and the --ledger statement. A closed session still takes no hands "
                   "or buy-ins.")
@click.option("--jobs", default=None, type=JOBS,
              help="Worker processes reading and checking a JSON-lines or .phhs file while "
                   "this one appends it (1: none). Default: the CPUs, for JSON-lines files of "
                   "16 MB or more and .phhs files of 500 kB or more.")
@click.option("--keys", "keys_dir", default=None, metavar="DIR",
              callback=given_key_directory,
              help="Every signed correction or void must verify with a key of DIR (an "
                   "unknown key refuses the file). Default: checked against $HANDLEDGER_KEYS "
                   "or the user's config dir, an unknown key a note.")
@click.pass_obj
def import_(obj: Context, files: tuple[str, ...], strict: bool, session: str | None,
            pn_ledger: str | None, jobs: int | None = None, keys_dir: str | None = None,
            closed: bool = False) -> None:
    """Import hand files: PHH (.phh, .phhs), JSON-lines events (.jsonl), PokerNow logs (.csv),
    PokerStars hand histories (text); each file is recognised by its content. A folder is
    searched; each file in it that no format reads is named in a `note:` line (hidden files,
    .md, .rst, .sh and the --ledger statement excepted); a folder with no file a format
    reads, named alone (or with other such folders), is refused in one line, exit 2.

    Hands already in the ledger are skipped; another hand under a stored hand's id is refused
    naming the first event that differs (a change to a stored hand is `correct`), and so is a
    hand of a closed session; a file that would go on with a hand of a closed session, cash
    out a player there (a PokerNow quit too) or amend its entries, or a --ledger statement
    for one, is refused whole unless --closed. A bad hand is reported on
    one line (file, line, hand, action) and nothing of it is written; the other hands still
    import, and the command exits 2. With --strict a file with any bad hand writes nothing at
    all. A hand stored as the site played
    and paid it though its chips do not add up (a PokerNow stack that does not follow the
    previous hand, chips collected that are not those put in, FORMATS.md §2; payouts above
    the pot, or short of it by other than the rake the hand records) is a `warning:`
    line, no refusal: exit 0 when nothing was refused; `audit` reports it (and exits 1).
    A signed correction or void (JSON lines) whose signature fails against the key directory
    refuses its file, nothing of it written, as `history` would say FAILS.
    """
    from replay.ingest.pipeline import import_into
    from replay.ingest.report import ImportReport

    counted = ImportReport(session=session)  # what was written, should Ctrl-C cut it short
    with _saying_what_was_written(counted):
        report = import_into(obj.ledger, [Path(f) for f in files], strict=strict,
                             session=session, pn_ledger=pn_ledger, jobs=jobs,
                             progress=render.progress, signatures=_signatures(keys_dir),
                             closed=closed, report=counted)
    for line in report.errors:
        click.echo(f"error: {one_line(line)}", err=True)
    for line in report.warnings:
        click.echo(f"warning: {one_line(line)}", err=True)
    for line in report.notes:
        click.echo(f"note: {one_line(line)}", err=True)
    click.echo(report.summary())
    if report.errors:
        sys.exit(2)


@contextmanager
def _saying_what_was_written(report: Any) -> Iterator[None]:
    """An import (or ``run``'s) interrupted in the block prints first which files it had
    written, whole, and their hands (``report``'s :meth:`written_lines`; nothing when
    nothing was), then "Aborted" as any interrupted command (:func:`cli.main.run`)."""
    try:
        yield
    except BaseException as exc:
        if interrupted(exc):
            for line in report.written_lines():
                click.echo(line, err=True)
        raise


def _signatures(keys_dir: str | None) -> Any:
    """How an import checks signatures (:class:`replay.ingest.signatures.Signatures`):
    against ``keys_dir``, every key required, or, None, the default key directory, where an
    unknown key is a note."""
    from ledger.store.keys import KeyStore
    from replay.ingest.signatures import Signatures

    return Signatures(KeyStore(keys_dir or key_directory()), required=bool(keys_dir))


@click.command()
@click.option("--against", default=None, metavar="FILE|POS:HASH",
              help="Also check that the ledger extends these checkpoints: a checkpoints "
                   "file, POS:HASH, or a checkpoint line or one record of the file pasted.")
@click.option("--jobs", default=None, type=JOBS,
              help="Processes replaying the hands to check the derived tables (default: one "
                   "a CPU for a large ledger file, else 1).")
@keys_option
@click.pass_obj
def verify(obj: Context, against: str | None, jobs: int | None, keys_dir: str) -> None:
    """Check the ledger file without trusting it: read every block of the file, walk the hash
    chain, check every signed correction and void against the key directory (as `history`),
    and replay every hand and the audit in memory to compare the books with the derived tables
    that `audit`, `settle`, `balances` and `sql` read. Exit 1 naming a corrupt file (its
    damaged block), the first edited, deleted, inserted or reordered row, a position or a
    stream's seq two rows hold or a seq skipped, each signed
    amendment whose signature fails (hand, seq, signer), or the first derived table and row
    that is not what the events give; with --against, also the first position where the
    ledger parts from its checkpoints. Without --against, the ledger's own checkpoints file
    (LEDGER.checkpoints), when there is one, is checked the same way in one line: exit 1
    when the ledger does not extend one of them (rolled back, rewritten) or the file was
    altered."""
    from ledger.store.checkpoint import read
    from ledger.store.keys import KeyStore
    from replay.verifying import verify_ledger

    # read first: a checkpoint argument that cannot be read is one line, before any verdict
    checkpoints = None if against is None else read(against)
    try:
        ledger = obj.ledger(read_only=True, sound=False)  # verify_ledger checks the blocks
        verdict = verify_ledger(ledger, KeyStore(keys_dir), jobs=jobs, progress=render.progress,
                                own=checkpoints is None)
        click.echo(text.verify_text(verdict))
        extends = checkpoints is None or check_against(
            ledger, checkpoints.points, keys_dir, verdict.chain, checkpoints.damaged)
    except LedgerCorrupt as exc:
        click.echo(f"corrupt: {exc}")
        sys.exit(1)
    if not (verdict.ok and extends):
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
              help="Output file (jsonl, phh; without -o they go to stdout) or directory "
                   "(parquet, csv: a file per table; DIR as the one argument says it too).")
@click.option("--broken-ok", is_flag=True,
              help="Export a ledger whose hash chain breaks (a copy for forensics, as it is), "
                   "with a warning line, instead of refusing it.")
@click.argument("hands", nargs=-1)
@click.pass_obj
def export(obj: Context, fmt: str, out: str, hands: tuple[str, ...], broken_ok: bool) -> None:
    """Export hands as JSON-lines events or PHH (all hands, or the HANDS given), to -o FILE or,
    without -o, to stdout; or the events and derived tables as parquet / csv files, one per
    table, into a directory: `export --format parquet DIR` or `-o DIR` (made if missing,
    inside a folder that exists; a file there is refused). The hash chain is proven
    first, as `verify` proves it: a ledger whose chain breaks is refused (exit 2, nothing
    written), unless --broken-ok."""
    from replay.ingest.export import export as write

    if fmt in ("parquet", "csv") and out == "-" and len(hands) == 1:
        out, hands = hands[0], ()  # `export --format parquet DIR`
    tables = fmt in ("parquet", "csv")
    done = write(obj.db, fmt, list(hands), None if out == "-" else Path(out), render.note,
                 lambda text: click.echo(text, nl=False), broken_ok=broken_ok)
    if out != "-":
        click.echo(f"wrote {len(done)} files to {out}" if tables else f"wrote {out}")


@click.command()
@click.argument("directory", metavar="DIR", type=click.Path(exists=True, file_okay=False))
@click.option("--all", "show_all", is_flag=True, help="Print every hand, not only the problems.")
@click.pass_obj
def run(obj: Context, directory: str, show_all: bool) -> None:
    """The whole job on the folder DIR (required: `handledger run data` reads data):
    import every hand file and session in it, replay every hand, print the hands that were
    paid wrong (or could not be verified, or have another note; never a voided hand, whose
    chips all went back, nor one whose payouts were not recorded, which the rules' awards
    settle), the audit and the
    balances; then every signed correction, void and undo and the ledger's checkpoints file
    checked against the key directory ($HANDLEDGER_KEYS or the user's config dir), a line
    each when there are any. Exit 0: a report, even of hands paid differently from the rules
    (`replay` exits 1 on a difference, `audit` on a discrepancy). Exit 2 when a file or hand was
    rejected, or the folder holds no file a format reads (one line, no ledger file made); a
    hand stored with a `warning:` line (see `import`) is no rejection. Exit 2 too,
    nothing written, when a block of the file or its hash chain fails the check `verify`
    makes of them (checked before the import on a file that holds rows, else before the
    replay)."""
    import functools

    from cli.names import Names
    from replay.ingest.report import ImportReport
    from replay.jobs import run_folder

    def shown(names: dict[str, str]) -> Any:  # the hands name PokerNow players as replay does
        return functools.partial(render.replay_text, names=Names(names))

    counted = ImportReport()  # what was written, should Ctrl-C cut the import short
    with _saying_what_was_written(counted):
        done = run_folder(obj.ledger(), Path(directory), render=shown,
                          echo=click.echo, warn=lambda line: click.echo(line, err=True),
                          problems=not show_all, progress=render.progress,
                          signatures=_signatures(None), imported=counted)
    names = Names(done.names)
    click.echo(render.replay_counts(done.counts))
    click.echo(names(text.audit_text(done.audit, done.findings)))
    for line in text.signatures_lines(done.signatures, done.checkpoints):
        click.echo(line)
    click.echo(books_text.balances_text(done.balances, names))
    if done.imported.errors:
        sys.exit(2)


COMMANDS = [init, import_, verify, schema, export, run]
