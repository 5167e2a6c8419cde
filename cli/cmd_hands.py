"""Hand commands: ``replay`` (all or some hands) and ``show`` (one hand, step by step).

``replay`` streams: hands are read from the ledger page by page (:mod:`ledger.store.streams`),
replayed in chunks, and their rows appended to the derived tables as they come, so memory stays
flat in the number of hands. With ``--jobs N`` (N > 1) the chunks are parsed, replayed and rendered
by N - 1 worker processes and this one, which also reads the ledger and writes the tables;
results are taken in ledger order and at most a few chunks per process are in flight.
"""

from __future__ import annotations

import json
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import click

from cli import render
from ledger.model.errors import LedgerError
from ledger.store.streams import RawHand, load_hand, parse_events, raw_hand_streams

_CHUNK = 250  # hands per unit of work
_WINDOW = 4  # chunks in flight per process

#: What replaying one hand gives the command: (derived-table rows, text to print or None,
#: paid differently from the rules, showdown not verifiable, the hand's
#: :class:`ledger.audit.books.HandFacts` for the audit or None).
Done = tuple[dict[str, list[tuple]], str | None, bool, bool, Any]


def replay_chunk(chunk: Sequence[tuple[int, RawHand]], output: str | None, problems: bool,
                 facts: bool = False) -> list[Done]:
    """Parse, replay and render one chunk of ``(ord, RawHand)``: ``output`` ``"json"``,
    ``"text"`` or None (nothing to print); ``problems``: only hands with a discrepancy or a
    note are rendered; ``facts``: also what the audit needs of each hand.

    Runs in a worker process with ``--jobs``; module-level so that it pickles.

    Raises:
        LedgerError: a payload that does not parse or a hand the rules reject, located at
            the hand.
    """
    from ledger.audit.books import hand_facts
    from replay.fold import replay_events
    from replay.tables import rows_for

    out: list[Done] = []
    for ord_, (hand, session, body, position) in chunk:
        try:
            events = parse_events(body)
            r = replay_events(events, session=session)
        except LedgerError as exc:
            raise exc.located(hand=hand) from None
        text = None
        if output is not None and (not problems or r.discrepancies or r.notes):
            text = json.dumps(render.replay_json(r)) if output == "json" else render.replay_text(r)
        fact = hand_facts(r, ord=ord_, position=position, unit=events[0].unit) if facts else None
        out.append((rows_for(r, ord_), text, bool(r.discrepancies), not r.result.verifiable,
                    fact))
    return out


def _chunks(hands: Iterable[Any], numbered: bool) -> Iterator[list[tuple[int, RawHand]]]:
    chunk: list[tuple[int, RawHand]] = []
    for item in hands if numbered else enumerate(hands, 1):
        chunk.append(item)
        if len(chunk) >= _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def replayed(hands: Iterable[Any], *, jobs: int = 1, output: str | None = None,
             problems: bool = False, facts: bool = False, numbered: bool = False
             ) -> Iterator[Done]:
    """Replay ``hands`` (:data:`RawHand`, numbered 1, 2, … in ledger order; ``numbered``:
    ``(ord, RawHand)`` pairs) in ``jobs`` processes: this one and ``jobs - 1`` workers
    (:func:`replay_chunk`). This process also reads the ledger and writes the tables, so it
    replays only one chunk in ``2 * jobs - 1`` itself, when that chunk's turn comes."""
    chunks = _chunks(hands, numbered)
    if jobs <= 1:
        for chunk in chunks:
            yield from replay_chunk(chunk, output, problems, facts)
        return
    import multiprocessing

    share = 2 * jobs - 1
    # spawn, not fork: the DuckDB connection of this process runs threads of its own
    with multiprocessing.get_context("spawn").Pool(jobs - 1) as pool:
        pending: deque[Any] = deque()
        for k, chunk in enumerate(chunks):
            if k % share == 0:
                pending.append(chunk)  # replayed here
            else:
                pending.append(pool.apply_async(replay_chunk, (chunk, output, problems, facts)))
            while len(pending) >= jobs * _WINDOW:
                yield from _done(pending.popleft(), output, problems, facts)
        while pending:
            yield from _done(pending.popleft(), output, problems, facts)


def _done(item: Any, output: str | None, problems: bool, facts: bool) -> list[Done]:
    if isinstance(item, list):
        return replay_chunk(item, output, problems, facts)
    return item.get()


@click.command()
@click.option("--hand", multiple=True, help="Replay only this hand (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Processes replaying hands (this one and jobs - 1 workers).")
@click.option("--problems", is_flag=True,
              help="Print only hands with a discrepancy or a note (e.g. not verifiable).")
@click.pass_obj
def replay(obj, hand: tuple[str, ...], as_json: bool, jobs: int,  # noqa: ANN001
           problems: bool = False) -> None:
    """Replay hands from the ledger: pots, side pots and awards recomputed and compared with
    what the table paid. Rebuilds the derived tables (hands, pots, results, discrepancies;
    replaying every hand also runs the audit, so `audit` and `balances` then answer at once).
    Exits 1 when any payout differs."""
    from replay.projections import rebuild, streaming

    ledger = obj.ledger()
    output = "json" if as_json else "text"
    if hand:
        with streaming(ledger.connection):
            counts = _replay_some(ledger, hand, output, jobs, problems)
    else:
        counts = rebuild(ledger, jobs=jobs, output=output, problems=problems, echo=click.echo,
                         label="replaying", quiet=as_json).counts
    if not as_json:
        click.echo(
            f"{counts['hands']} hand(s) replayed: {counts['bad']} paid differently from the "
            f"rules, {counts['unverifiable']} showdown(s) not verifiable"
        )
    if counts["bad"]:
        sys.exit(1)


def _replay_some(ledger: Any, hand: tuple[str, ...], output: str, jobs: int,
                 problems: bool) -> dict[str, int]:
    """Replay the named hands and replace their rows in the replay tables."""
    from replay.tables import write_results_rows

    source = raw_hand_streams(ledger, hand)
    counts = {"hands": 0, "bad": 0, "unverifiable": 0}

    def rows() -> Iterator[dict[str, list[tuple]]]:
        for table_rows, text, bad, unverifiable, _ in replayed(
                source, jobs=jobs, output=output, problems=problems):
            counts["hands"] += 1
            counts["bad"] += bad
            counts["unverifiable"] += unverifiable
            if text is not None:
                click.echo(text)
            yield table_rows

    write_results_rows(ledger.connection, rows(), hands=list(hand))
    return counts


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
