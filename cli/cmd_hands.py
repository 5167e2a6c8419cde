"""Hand commands: ``replay`` (all or some hands) and ``show`` (one hand, step by step)."""

from __future__ import annotations

import sys

import click

from cli import render, text
from cli.context import JOBS, Context


@click.command()
@click.option("--hand", multiple=True, help="Replay only this hand (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("--jobs", default=None, type=JOBS,
              help="Processes replaying hands (default: one a CPU for every hand of a large "
                   "ledger file, else 1).")
@click.option("--problems", is_flag=True,
              help="Print only hands with a discrepancy or a note (e.g. not verifiable); "
                   "a voided hand is none.")
@click.pass_obj
def replay(obj: Context, hand: tuple[str, ...], as_json: bool, jobs: int | None,
           problems: bool = False) -> None:
    """Replay hands from the ledger: pots, side pots and awards recomputed and compared with
    what the table paid. Rebuilds the derived tables (hands, pots, results, discrepancies;
    replaying every hand also runs the audit, so `audit` and `balances` then answer at once).
    Exits 1 when any payout differs. Before saving the tables, the file is checked as `verify`
    checks its blocks and hash chain: a broken chain or a damaged block is refused in one
    line, nothing saved. A replay that saves nothing (--hand, or a file it cannot write) does
    not check them, and its last line says so."""
    import functools

    from replay.projections import rebuild, replay_some, writable_or_overlay

    if hand:  # one open: the names read from the ledger the hands are read from
        obj.ledger(read_only=True)
    names = obj.names(keep=bool(hand))
    shape = (functools.partial(render.replay_json_text, names=names if names.labels else None)
             if as_json else functools.partial(render.replay_text, names=names))
    checked = False  # the chain is checked only before the derived tables are saved
    if hand:
        counts = replay_some(obj.ledger(read_only=True), hand, jobs=jobs, render=shape,
                             problems=problems, echo=click.echo)
    else:
        with writable_or_overlay(obj.db, render.note) as ledger:
            checked = not ledger.read_only
            counts = rebuild(ledger, jobs=jobs, render=shape, problems=problems,
                             echo=click.echo, label="replaying",
                             progress=render.progress if not as_json else render.no_progress,
                             intact=checked).counts
    if not as_json:
        click.echo(render.replay_counts(counts, chain_checked=checked))
    if counts["bad"]:
        sys.exit(1)


@click.command()
@click.argument("hand")
@click.option("--at", "at", default=None, metavar="SEQ",
              help="Stop after this event (seq, 1 = hand started; 23+ the rows a correction "
                   "inserted after seq 23, 23+2 through the second of them).")
@click.pass_obj
def show(obj: Context, hand: str, at: str | None) -> None:
    """Every event of HAND numbered by its sequence, with the stacks, pots, current bet and
    whose turn after it; then the showdown and the explanation of every pot."""
    from replay.steps import load_steps

    steps = load_steps(obj.ledger(read_only=True), hand, at=at)
    names = obj.names()
    click.echo(names(render.show_text(steps, at=at)))


@click.command(name="dask-replay")
@click.argument("events")
@click.argument("out")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="A running Dask scheduler (tcp://host:8786); default: a local cluster.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1),
              help="Worker processes of the local cluster (without --scheduler).")
@click.option("--partitions", default=None, type=click.IntRange(min=1),
              help="Partitions of the dataset (default: four per worker thread).")
@click.pass_obj
def dask_replay(obj: Context, events: str, out: str, scheduler: str | None, workers: int,
                partitions: int | None) -> None:
    """Replay and audit a Parquet dataset of events (EVENTS: what `export --format parquet
    DIR` writes, DIR or DIR/events.parquet) on a Dask cluster, and write the derived tables
    as Parquet under OUT (OUT/<table>/part-*.parquet): the tables `replay` builds, row for
    row. Needs `pip install 'handledger[dask]'`. Exits 1 when the audit finds anything. A
    hand corrected after later hands or cash-outs took its chips is noted as `audit` notes
    it, with the chips it leaves owed.
    OUT is never the ledger (--db), nor do its table folders, which it replaces, hold it."""
    from replay.distributed import replay_parquet

    done = replay_parquet(events, out, scheduler=scheduler, workers=workers,
                          partitions=partitions, progress=render.progress, ledger=obj.db)
    merged = done.merged
    click.echo(render.replay_counts(merged.counts))
    from cli.names import Names
    from replay.late_corrections import late_lines

    for line in late_lines(merged.late):  # as audit notes them
        render.note(line)

    names = Names(merged.series.nicknames)  # a PokerNow id by his name, as audit shows him
    click.echo(names(text.audit_text(merged.report, merged.findings,
                                     clean_scope=text.EXPORT_SCOPE)))
    click.echo(f"wrote {len(done.tables)} tables to {out} ({done.partitions} partitions on "
               f"{done.threads} worker thread(s))")
    if merged.findings:
        sys.exit(1)


COMMANDS = [replay, show, dask_replay]
