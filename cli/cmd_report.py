"""``handledger report OUT_DIR``: a static site of the books (:mod:`replay.site` plans and
writes it, :mod:`cli.report` draws its pages, :mod:`replay.report` gathers what they show)."""

from __future__ import annotations

from pathlib import Path

import click

from cli import render
from cli.cmd_checkpoint import keys_option
from cli.context import Context


@click.command()
@click.argument("out", metavar="OUT_DIR", type=click.Path(file_okay=False, path_type=Path))
@keys_option
@click.option("--broken-ok", is_flag=True,
              help="Report a ledger whose hash chain breaks (its rows as they are), with a "
                   "warning line and a line on the index, instead of refusing it.")
@click.pass_obj
def report(obj: Context, out: Path, keys_dir: str, broken_ok: bool) -> None:
    """Write a static site of the books into OUT_DIR: index.html (the standings grid in
    chips and money, the series chart, every session, the disputed and corrected hands, the
    audit), a page per session (buy-ins, cash-outs, payments, settle-up, its findings and
    hands) and a page per hand (the replayer of `view`). Plain files: open index.html from
    disk, no server. Run it again after new hands and it rewrites only what changed: a hand
    page is kept while its key (a digest of the hand's rows, its links and the code that
    draws it) is unchanged, the index and session pages are written when their text changed,
    and pages of hands no longer in the ledger are removed. Every signed correction, void and
    undo is checked against the key directory (a hand's page says who signed and whether it
    verifies, the index counts them and names each that fails) and so is the ledger's own
    checkpoints file, as `verify --against` checks it. The ledger is only read. Its hash
    chain is proven first, as `export` proves it: a ledger whose chain breaks is refused
    (exit 2, nothing written), unless --broken-ok."""
    from cli.report import PAGES, summary
    from ledger.model.errors import LedgerError
    from ledger.store.keys import KeyStore
    from replay.report import open_report
    from replay.site import write_site

    with open_report(obj.db, progress=render.progress, note=render.note,
                     keys=KeyStore(keys_dir), broken_ok=broken_ok) as books:
        try:
            done = write_site(books, out, PAGES, tick=render.progress)
        except OSError as exc:
            where = f" {exc.filename}" if exc.filename else ""
            raise LedgerError(f"cannot write the report{where}: {exc.strerror or exc}") from None
    click.echo(summary(out, done))


COMMANDS = [report]
