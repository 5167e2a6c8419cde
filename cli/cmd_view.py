"""``handledger view HAND [-o FILE]``: one self-contained HTML page replaying a hand
(:mod:`cli.html` renders it; :mod:`replay.handview` assembles what it shows)."""

from __future__ import annotations

from pathlib import Path

import click

from cli.context import Context


@click.command()
@click.argument("hand", metavar="HAND")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="The page to write (default HAND.html).")
@click.pass_obj
def view(obj: Context, hand: str, output: Path | None) -> None:
    """Write one self-contained HTML page replaying HAND step by step: the table, the pots
    and side pots with their eligible players after every event, every pot explained, what
    the table paid beside the rules, and the hand's corrections and voids."""
    from cli.html import render_hand
    from ledger.model.errors import LedgerError
    from replay.handview import load_view
    from replay.pagefiles import default_file, write_page

    names = obj.names()
    page = render_hand(load_view(obj.ledger(read_only=True), hand), names=names)
    path = output or Path(default_file(hand))
    try:
        write_page(path, page)
    except OSError as exc:
        raise LedgerError(f"cannot write {path}: {exc.strerror or exc}") from None
    click.echo(f"wrote {path}")


COMMANDS = [view]
