"""``handledger view HAND [-o FILE]``: one self-contained HTML page replaying a hand
(:mod:`cli.html` renders it; :mod:`replay.handview` assembles what it shows)."""

from __future__ import annotations

from pathlib import Path

import click

from cli.cmd_checkpoint import keys_option
from cli.context import Context


@click.command()
@click.argument("hand", metavar="HAND")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="The page to write (default HAND.html; - writes it to "
                                 "standard output).")
@keys_option
@click.option("--broken-ok", is_flag=True,
              help="Write the page of a ledger whose hash chain breaks (its rows as they "
                   "are), with a warning line, instead of refusing it.")
@click.pass_obj
def view(obj: Context, hand: str, output: Path | None, keys_dir: str,
         broken_ok: bool = False) -> None:
    """Write one self-contained HTML page (``-o -``: to standard output, no file made)
    replaying HAND step by step: the table, the pots
    and side pots with their eligible players after every event, every pot explained, what
    the table paid beside the rules, and the hand's corrections and voids, each signed one
    with its signer and whether its signature verifies against the key directory. The
    ledger's hash chain is proven first, as `report` proves it: a ledger whose chain breaks is
    refused (exit 2, nothing written), unless --broken-ok."""
    from cli import render
    from cli.html import render_hand
    from ledger.model.errors import LedgerError
    from ledger.store.keys import KeyStore
    from ledger.store.outputs import not_the_ledger
    from replay.handview import load_view
    from replay.pagefiles import default_file, write_page

    to_stdout = output is not None and str(output) == "-"  # as export -o - does
    path = output or Path(default_file(hand))
    if not to_stdout:
        not_the_ledger(path, obj.db, f"-o {output}" if output else None)
    view = load_view(obj.ledger(read_only=True), hand, KeyStore(keys_dir), broken_ok=broken_ok,
                     note=render.note)
    names = obj.names()  # from the ledger the view was read from
    page = render_hand(view, names=names)
    if to_stdout:
        click.echo(page, nl=False)  # the very bytes the file would hold
        return
    try:
        write_page(path, page)
    except OSError as exc:
        raise LedgerError(f"cannot write {path}: {exc.strerror or exc}") from None
    click.echo(f"wrote {path}")


COMMANDS = [view]
