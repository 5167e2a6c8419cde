"""Text and JSON output of replayed hands (rich tables for people, plain JSON for scripts)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

if TYPE_CHECKING:  # the engine (and pokerkit) load only for the commands that replay
    from replay.fold import HandReplay


def replay_json_text(r: HandReplay) -> str:
    """One hand as the JSON line ``replay --json`` prints (:meth:`HandReplay.as_json`)."""
    return json.dumps(r.as_json())


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=110, color_system=None, highlight=False, markup=False), buf


def replay_text(r: HandReplay) -> str:
    """A readable table per hand and one sentence per pot."""
    res = r.result
    console, buf = _console()
    title = f"hand {r.hand} ({r.game})" + (f" — session {r.session}" if r.session else "")
    table = Table(title=title, title_justify="left")
    for col in ("player", "start", "put in", "returned", "won", "paid", "net", "final"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for p in res.players:
        paid = "" if r.recorded is None else str(r.recorded.get(p, 0))
        table.add_row(
            p,
            str(res.starting[p]),
            str(res.contributions[p]),
            str(res.returned.get(p, 0) or ""),
            str(res.awards[p] or ""),
            paid,
            f"{r.net[p]:+d}",
            str(r.final_stacks[p]),
        )
    console.print(table)
    for line in res.lines:
        console.print(f"  {line}")
    for d in r.discrepancies:
        console.print(f"  DISCREPANCY: {d.sentence()}")
    for note in r.notes:
        console.print(f"  note: {note}")
    return buf.getvalue().rstrip("\n")


def replay_counts(counts: dict[str, int]) -> str:
    """The summary line of ``replay``: hands replayed, paid wrong, not verifiable."""
    return (f"{counts['hands']} hand(s) replayed: {counts['bad']} paid differently from the "
            f"rules, {counts['unverifiable']} showdown(s) not verifiable")


def show_text(events: Sequence[Any], *, session: str | None, at: int | None) -> str:
    """Every event with the state after it; then the settlement (``handledger show``)."""
    from engine.notation import to_action
    from engine.settle import settle
    from engine.state import HandState
    from replay.fold import effective_events

    effective, corrected = effective_events(events)
    started = effective[0]
    state = HandState.start(started)
    console, buf = _console()
    seats = ", ".join(f"{s.player} {s.stack}" for s in started.seats)
    console.print(f"hand {started.hand}: {started.game}, button {started.button}; seats {seats}")
    if corrected:
        console.print("(corrected: shown as corrected; `history` shows the originals)")
    stop = len(effective) if at is None else min(at, len(effective))
    for seq, e in enumerate(effective[1:stop], 2):
        text = to_action(state, e) or e.type
        state.apply(e)
        pot = state.pot_total()
        stacks = " ".join(f"{p}:{state.stacks[p]}" for p in state.players)
        bet = f" bet {state.rnd.current}" if state.phase == "bet" else ""
        turn = f" → {state.to_act}" if state.to_act else ""
        console.print(f"{seq:3d} {text:<28} pot {pot}{bet} [{stacks}] {state.phase}{turn}")
    if at is not None and state.phase == "bet" and state.to_act:
        lim = state.limits(state.to_act)
        raise_ = f", raise to {lim.min_to}..{lim.max_to}" if lim.min_to is not None else ""
        console.print(f"    at {stop}: {state.to_act} to act, to call {lim.to_call}{raise_}")
    result = settle(state)
    for pot in result.pots:
        for line in pot.lines or (f"pot {pot.index}: {pot.amount} ({', '.join(pot.eligible)})",):
            console.print(f"    {line}")
    if result.returned:
        ret = ", ".join(f"{p} {c}" for p, c in result.returned.items())
        console.print(f"    uncalled returned: {ret}")
    return buf.getvalue().rstrip("\n")


@contextlib.contextmanager
def progress(
    label: str, total: int | None = None, *, enabled: bool = True
) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr that appears only when the work runs longer than a second
    (a :data:`replay.progress.Progress`)."""
    enabled = enabled and sys.stderr.isatty()  # no bar in a log, a pipe or a test
    start = time.monotonic()
    bar: Progress | None = None
    task = None
    count = 0

    def tick() -> None:
        nonlocal bar, task, count
        count += 1
        if not enabled:
            return
        if bar is None and time.monotonic() - start > 1.0:
            bar = Progress(console=Console(stderr=True), transient=True)
            bar.start()
            task = bar.add_task(label, total=total, completed=count)
        elif bar is not None and task is not None:
            bar.update(task, completed=count)

    try:
        yield tick
    finally:
        if bar is not None:
            bar.stop()


def no_progress(label: str, total: int | None = None) -> contextlib.AbstractContextManager[
        Callable[[], None]]:
    """No progress bar (JSON output)."""
    return progress(label, total, enabled=False)


def note(line: str) -> None:
    """A one-line note for people, on stderr (never mixed into JSON on stdout)."""
    click.echo(line, err=True)
