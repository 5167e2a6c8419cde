"""Hand commands: ``replay`` (all or some hands) and ``show`` (one hand, step by step)."""

from __future__ import annotations

import json
import sys

import click

from cli import render
from cli.loading import hand_streams, load_hand
from ledger.errors import LedgerError


@click.command()
@click.option("--hand", multiple=True, help="Replay only this hand (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("--jobs", default=1, show_default=True, help="Worker processes.")
@click.option("--problems", is_flag=True,
              help="Print only hands with a discrepancy or a note (e.g. not verifiable).")
@click.pass_obj
def replay(obj, hand: tuple[str, ...], as_json: bool, jobs: int,  # noqa: ANN001
           problems: bool = False) -> None:
    """Replay hands from the ledger: pots, side pots and awards recomputed and compared with
    what the table paid. Rebuilds the derived tables (hands, pots, results, discrepancies).
    Exits 1 when any payout differs."""
    from replay.fold import replay_events
    from replay.tables import write_results

    ledger = obj.ledger()
    replays = []
    with render.progress("replaying", enabled=not as_json) as tick:
        for ord_, (stream, session, events) in enumerate(hand_streams(ledger, hand), 1):
            try:
                replays.append((ord_, replay_events(events, session=session)))
            except LedgerError as exc:
                raise exc.located(hand=stream) from None
            tick()
    write_results(ledger.connection, replays, full=not hand)
    bad = 0
    for _, r in replays:
        bad += bool(r.discrepancies)
        if problems and not (r.discrepancies or r.notes):
            continue
        if as_json:
            click.echo(json.dumps(render.replay_json(r), sort_keys=False))
        else:
            click.echo(render.replay_text(r))
    if not as_json:
        click.echo(render.replay_summary([r for _, r in replays]))
    if bad:
        sys.exit(1)


@click.command()
@click.argument("hand")
@click.option("--at", "at", type=click.IntRange(min=1), default=None,
              help="Stop after this event (seq, 1 = hand started).")
@click.pass_obj
def show(obj, hand: str, at: int | None) -> None:  # noqa: ANN001
    """Every event of HAND numbered by its sequence, with the stacks, pots, current bet and
    whose turn after it; then the showdown and the explanation of every pot."""
    events, session = load_hand(obj.ledger(read_only=True), hand)
    click.echo(render.show_text(events, session=session, at=at))


COMMANDS = [replay, show]
