"""Hand commands: ``replay`` (all or some hands) and ``show`` (one hand, step by step)."""

from __future__ import annotations

import sys

import click

from cli import render
from cli.context import Context


@click.command()
@click.option("--hand", multiple=True, help="Replay only this hand (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Processes replaying hands (this one and jobs - 1 workers).")
@click.option("--problems", is_flag=True,
              help="Print only hands with a discrepancy or a note (e.g. not verifiable).")
@click.pass_obj
def replay(obj: Context, hand: tuple[str, ...], as_json: bool, jobs: int,
           problems: bool = False) -> None:
    """Replay hands from the ledger: pots, side pots and awards recomputed and compared with
    what the table paid. Rebuilds the derived tables (hands, pots, results, discrepancies;
    replaying every hand also runs the audit, so `audit` and `balances` then answer at once).
    Exits 1 when any payout differs."""
    import functools

    from replay.projections import rebuild, replay_some, writable_or_overlay

    shape = render.replay_json_text if as_json else functools.partial(render.replay_text,
                                                                       names=obj.names())
    if hand:
        counts = replay_some(obj.ledger(read_only=True), hand, jobs=jobs, render=shape,
                             problems=problems, echo=click.echo)
    else:
        with writable_or_overlay(obj.db, render.note) as ledger:
            counts = rebuild(ledger, jobs=jobs, render=shape, problems=problems,
                             echo=click.echo, label="replaying",
                             progress=render.progress if not as_json else render.no_progress
                             ).counts
    if not as_json:
        click.echo(render.replay_counts(counts))
    if counts["bad"]:
        sys.exit(1)


@click.command()
@click.argument("hand")
@click.option("--at", "at", type=click.IntRange(min=1), default=None,
              help="Stop after this event (seq, 1 = hand started).")
@click.pass_obj
def show(obj: Context, hand: str, at: int | None) -> None:
    """Every event of HAND numbered by its sequence, with the stacks, pots, current bet and
    whose turn after it; then the showdown and the explanation of every pot."""
    from ledger.store.streams import load_hand

    events, session = load_hand(obj.ledger(read_only=True), hand)
    names = obj.names()
    click.echo(names(render.show_text(events, session=session, at=at)))


COMMANDS = [replay, show]
