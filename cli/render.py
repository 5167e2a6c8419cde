"""Text and JSON output of replayed hands (rich tables for people, plain JSON for scripts)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # the engine (and pokerkit) load only for the commands that replay; rich
    # only for what is drawn with it (a replay's table, ``show``, a progress bar), never for
    # a note of ``hand start`` or for ``--help``
    from rich.console import Console
    from rich.progress import Progress

    from cli.names import Names
    from replay.fold import HandReplay
    from replay.steps import HandSteps


def replay_json_text(r: HandReplay, names: Names | None = None) -> str:
    """One hand as the JSON line ``replay --json`` prints (:meth:`HandReplay.as_json`);
    ``names`` (None: a ledger without platform players) renames players in every key and
    string of it as :func:`replay_text` does in its text (a platform id to the name he played
    under), but for a discrepancy's ``player``, the stored player, beside which ``name`` gives
    the name the text shows (:mod:`cli.names`: the rule of every JSON read)."""
    from cli.names import PLAIN, renamed, with_name

    data = r.as_json()
    data["discrepancies"] = [with_name(d, names or PLAIN, text=("message",) if names else ())
                             for d in data["discrepancies"]]
    if names is None:  # every name is the stored one
        return json.dumps(data)
    return json.dumps({k: v if k == "discrepancies" else renamed(v, names)
                       for k, v in data.items()})


def whatif_json(data: dict[str, Any], names: Names) -> dict[str, Any]:
    """``whatif --json`` (``data``: :meth:`replay.whatif.WhatIf.as_json`) named as its text
    names the players (:mod:`cli.names`): the keys of the nets, the players of an unknown
    showdown and the sentences renamed; a ``downstream`` hand's ``player`` kept as stored
    with ``name`` beside it; ``changes``, the events as a correction would store them, as
    they are."""
    from cli.names import renamed, with_name

    return {k: v if k == "changes" else
            [with_name(d, names) for d in v] if k == "downstream" else renamed(v, names)
            for k, v in data.items()}


def _console() -> tuple[Console, io.StringIO]:
    from rich.console import Console

    from cli.grid import out_width

    buf = io.StringIO()
    return (Console(file=buf, width=out_width(), color_system=None, highlight=False,
                    markup=False), buf)


def replay_text(r: HandReplay, names: Callable[[str], str] | None = None) -> str:
    """A readable table per hand and one sentence per pot; ``names`` renames players (a
    platform id to the name he played under: :class:`cli.names.Names`). Drawn as rich draws
    it (:class:`cli.grid.Sheet`). Its ``net`` and ``final`` are the books' (as the table
    paid: :attr:`HandReplay.paid_net`, docs/BOOKS.md "Net has one meaning everywhere"); where the
    rules' differ (a wrong or short payout, a rake the hand does not record) a line under the
    table gives them; a DISCREPANCY line per difference from the rules, none for the rake
    the hand records when the table paid the pots less it (a note says what it kept). Its
    ``won`` and the pots' sentences are of the pots less the rake the hand records
    (:attr:`HandReplay.won`, :attr:`HandReplay.explanation`)."""
    from cli.grid import Sheet, out_width

    label = names or str
    res = r.result
    sheet = Sheet(out_width())
    title = f"hand {r.hand} ({r.game})" + (f" — session {r.session}" if r.session else "")
    net, rules, won = r.paid_net, r.net, r.won  # each a new dict: computed once
    rows = []
    for p in res.players:
        paid = "" if r.recorded is None else str(r.recorded.get(p, 0))
        rows.append([
            label(p),
            str(res.starting[p]),
            str(res.contributions[p]),
            str(res.returned.get(p, 0) or ""),
            str(won[p] or ""),
            paid,
            f"{net[p]:+d}",
            str(res.starting[p] + net[p]),
        ])
    sheet.print_table(title, _REPLAY_COLUMNS, rows)
    if res.verifiable and (differ := [p for p in res.players if rules[p] != net[p]]):
        by_rules = ", ".join(f"{label(p)} {rules[p]:+d} (final {res.starting[p] + rules[p]})"
                             for p in differ)
        sheet.print(f"  net and final as the table paid; by the rules: {by_rules}")
    for line in r.explanation:  # the pots less the rake the hand records, if any
        sheet.print(f"  {label(line)}")
    for d in r.differences:
        sheet.print(f"  DISCREPANCY: {label(d.sentence())}")
    for d in r.rake_kept:  # paid the pots less the rake: as the rules give
        sheet.print(f"  note: {label(d.sentence())}")
    for note in r.notes:  # a short raise names its player (docs/FORMATS-IMPORT.md, "PokerNow")
        sheet.print(f"  note: {label(note)}")
    return sheet.text()


#: The columns of a replayed hand's table: (header, justify).
_REPLAY_COLUMNS = [(col, "left" if col == "player" else "right") for col in (
    "player", "start", "put in", "returned", "won", "paid", "net", "final")]


def replay_counts(counts: dict[str, int], *, chain_checked: bool = True) -> str:
    """The summary line of ``replay``: hands replayed, paid wrong, not verifiable; with
    ``chain_checked`` False (a replay that saves nothing, so did not check the file as
    ``verify`` does first) what it did not check and how to, as a clean audit says it
    (:data:`cli.text.CLEAN_SCOPE`: ``(the hash chain not checked: `handledger verify`)``)."""
    line = (f"{counts['hands']} hand(s) replayed: {counts['bad']} paid differently from the "
            f"rules, {counts['unverifiable']} showdown(s) not verifiable")
    return line if chain_checked else f"{line} {UNCHECKED}"


#: What a replay that saves nothing did not check (docs/LEDGER.md "Tampering").
UNCHECKED = "(the hash chain not checked: `handledger verify`)"


def show_text(hs: HandSteps, *, at: str | None) -> str:
    """Every event of ``hs`` (:func:`replay.steps.hand_steps`, stopped after ``at``) with the
    state after it, its label right-aligned in a column as wide as the widest label (3 at
    least: ``18+1`` makes it 4); then the settlement (``handledger show``)."""
    console, buf = _console()
    seats = ", ".join(f"{p} {stack}" for p, stack in hs.starting)
    button = f", button {hs.button}" if hs.button is not None else ""  # stud has none
    console.print(f"hand {hs.hand}: {hs.game}{button}; seats {seats}")
    if (unit := hs.unit_note()) is not None:
        console.print(unit)
    if hs.corrected:
        console.print("(corrected: shown as corrected; `history` shows the originals)")
    if hs.at_note is not None:
        console.print(hs.at_note, soft_wrap=True)
    wide = max([3, *(len(step.label) for step in hs.steps[1:])])  # 18+1: a column of 4
    for step in hs.steps[1:]:
        stacks = " ".join(f"{s.player}:{s.stack}" for s in step.seats)
        bet = f" bet {step.current_bet}" if step.current_bet is not None else ""
        turn = f"; {step.to_act_unsure}" if step.to_act_unsure else \
            f" → {step.to_act}" if step.to_act else \
            f" → dealer deals {step.dealer_next}" if step.dealer_next else ""
        console.print(f"{step.label:>{wide}} {step.named:<28} pot {step.pot_total}{bet} [{stacks}] "
                      f"{step.phase_said or step.phase}{turn}")
        if step.awarded:  # the table recorded no payout: the rules' award, said as such
            won = ", ".join(f"{p} {c}" for p, c in step.awarded.items())
            console.print(f"    no payout recorded: stacks as the rules award ({won})")
        elif step.unawarded:  # nor can the rules award: say so, not "as the rules award"
            console.print("    no payout recorded, and the showdown cannot be read (cards not "
                          "all shown): no pot awarded; stacks count only the uncalled chips "
                          "returned")
    last = hs.last
    if at is not None and last.legal is not None:
        from replay.typed import bet_range

        lim = last.legal
        raise_ = (f", {bet_range(lim.verb, str(lim.min_to), str(lim.max_to), lim.fixed)}"
                  if lim.min_to is not None else "")
        call = f"to call {lim.to_call}" if lim.to_call else "check"
        if lim.bring_in:  # stud's third street before the bring-in, as `state` says it
            call = f"bring in {lim.bring_in} (pb)"
        who = last.to_act_unsure or f"{lim.player} to act"  # as `state` says it
        console.print(f"    at {last.label}: {who}, {call}{raise_}")
    for line in last.explanation():
        console.print(f"    {line}")
    if hs.paid_otherwise:
        console.print(f"    {hs.paid_otherwise}", soft_wrap=True)  # one line, however long
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
            from rich.console import Console
            from rich.progress import Progress

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
