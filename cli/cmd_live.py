"""Recording a hand live at the table: ``hand start``, ``act``, ``state`` (the work is done by
:mod:`replay.live`)::

    handledger hand start --game NT --stakes 1/2 --seats "Ann:200,Bob:150,Cy:300" --button Cy
    handledger act HAND "d dh p1 AsKd"     # PHH notation; players by name or pN
    handledger act HAND "Bob cbr 20"
    handledger act HAND "pay Ann 45"       # what the dealer pushed (a recorded payout)
    handledger act HAND end                # hand_ended (refused unless the hand is at showdown)
    handledger state HAND
    handledger table HAND < actions.txt    # one process for many lines: actions and "state"

Every action is a new process (``table`` excepted: one process reading many lines, each line
opening the ledger and closing it before its output), so this module imports nothing at the
top but click: what a command needs is imported inside it (the ledger, the engine, the event
model), never the renderers, the books or the evaluator's tables (tests/test_live_imports.py).
The collector is paused while it starts (loading those modules makes many objects and frees
almost none), and the process ends as soon as the output is out
(:func:`cli.context.exit_at_once`); an action's process leaves it paused to that end
(:func:`cli.context.one_action`).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from cli.context import Context, exit_at_once, one_action, refusal
from cli.names import Names, refusals_named
from cli.utf8 import check_utf8
from ledger.model.errors import (
    ChainBroken,
    LedgerBusy,
    LedgerCorrupt,
    LedgerError,
    LedgerReadOnly,
    MalformedInput,
)
from ledger.model.gcpause import gc_paused


@click.group()
def hand() -> None:
    """Record a hand live (`hand start`; then `act` and `state`, or `table` for many lines)."""


@hand.command("start")
@click.option("--game", "game_code", required=True, help="PHH variant code (NT, PO, F7S, …).")
@click.option("--stakes", default=None,
              help='Blinds and straddles "SB/BB[/STR]": both blinds, 1/2 or 1/2/4 (none: antes '
                   'alone).')
@click.option("--antes", default=0, type=click.IntRange(min=0), help="Ante per player.")
@click.option("--bb-ante", default=0, type=click.IntRange(min=0),
              help="One ante for the table, posted by the big blind (dead money).")
@click.option("--button-ante", default=0, type=click.IntRange(min=0),
              help="One ante for the table, posted by the button (dead money).")
@click.option("--min-bet", default=None, type=click.IntRange(min=1),
              help="Big-bet games: the minimum bet on every street; never below the largest "
                   "blind or straddle (1/2/4: 4 after the flop too, RULES.md §4.4), which is "
                   "the default.")
@click.option("--small-bet", default=0, type=click.IntRange(min=0),
              help="Fixed limit: small bet.")
@click.option("--big-bet", default=0, type=click.IntRange(min=0), help="Fixed limit: big bet.")
@click.option("--bring-in", default=0, type=click.IntRange(min=0), help="Stud bring-in.")
@click.option("--seats", required=True, help='"Ann:200,Bob:150,Cy:300" in table order.')
@click.option("--button", default=None, help="The button's player (not for stud).")
@click.option("--session", default=None, help="Session the hand belongs to.")
@click.option("--hand", "hand_id", default=None, help="Hand id (default: generated).")
@click.option("--declare-options", "declare", default=None,
              help='High-low declaration, e.g. "method=in_turn,swing_ties=allowed" '
                   "(RULES.md §3, §5); bet_after_declare=true: the players declare right "
                   "after the last card and the last betting round follows.")
@click.option("--split-options", "split", default=None,
              help="Cards-speak split (RULES.md §2, §5): KEY=VALUE items of "
                   "odd_chip_tie_order, odd_chip_between_halves, low_method, low_qualifier "
                   '(the last three: high-low games), e.g. "odd_chip_tie_order=card_by_suit".')
@click.option("--reopen-rule", "reopen", default=None,
              help="Whether a short all-in reopens the betting (RULES.md §1.7): full_bet or "
                   "half_bet (default: full_bet in big-bet games, half_bet in fixed limit).")
@click.pass_obj
def start(obj: Context, game_code: str, session: str | None, hand_id: str | None,
          **spec: Any) -> None:
    """Start a hand: append hand_started and the forced bets; print the hand id."""
    with one_action():
        from cli import render
        from replay.live import LiveHand
        from replay.live.start import check_new_ledger_start, start_hand

        obj.saves_tables = False  # the hot path: the next read catches the session up in memory
        live = LiveHand(game=game_code, **spec)
        ledger = obj.ledger(checks=lambda: check_new_ledger_start(live, hand=hand_id,
                                                                  session=session))
        click.echo(start_hand(ledger, live, hand=hand_id, session=session, note=render.note))


@hand.command("again")
@click.argument("voided", metavar="HAND")
@click.option("--session", required=True, help="The session to record it in.")
@click.option("--hand", "hand_id", default=None, help="The new hand's id (default: generated).")
@click.pass_obj
def again(obj: Context, voided: str, session: str, hand_id: str | None) -> None:
    """Record the voided HAND again in SESSION under a new hand id: its events as they stood
    before the void (corrections applied), held to the rules `hand start --session` is (every
    seat in the session's books, no player in another of its hands in play); print the new
    id. HAND stays voided, as recorded: only new events are appended. For a hand recorded
    live without --session (or in the wrong session); a hand read from a file is its file's
    (import it with --session into a new ledger)."""
    from cli import render
    from replay.live.again import record_again

    with one_action():
        click.echo(record_again(obj.ledger(existing=True), voided, session=session,
                                new=hand_id, note=render.note))


@click.command()
@click.argument("hand_id", metavar="HAND")
@click.argument("action")
@click.option("--closed", is_flag=True,
              help="Record it though the hand's session was closed with the hand in play "
                   "(its books were settled up).")
@click.pass_obj
def act(obj: Context, hand_id: str, action: str, closed: bool) -> None:
    """Record ACTION in HAND: PHH notation ("Bob cbr 20", "p2 cc", "d dh Ann AsKs",
    "d db AhKd7c", "Ann sd 7h", "Ann sm AsKs", "Ann dcl swing"), "d rc 2" (run the rest of
    the board twice: each "d db" then goes to the first run still short, street by street),
    "pay PLAYER AMOUNT" / "returned PLAYER AMOUNT" (what the table pushed), "rake AMOUNT"
    (what the table took from the pot: a home game's rake, PHH's rake field), or "end".
    Prints what comes next; an illegal action is refused (exit 2) with what is legal now;
    nothing is written. So is an action in a hand whose session was closed while it was in
    play, unless --closed.

    A player is named as seated or pN, the N-th seat in PHH's order, which starts left of the
    button (p1 the small blind; heads-up the big blind), not the N-th of --seats (stud: the
    --seats order); `state` lists them ("seats as pN: p1 Dee, p2 Ann, p3 Bob")."""
    with one_action():
        from replay.live import act as record
        from replay.live.state import legal_now

        obj.saves_tables = False  # the hot path: the next read catches the session up in memory
        with refusals_named(obj.names):
            done = record(obj.ledger(existing=True), hand_id, action, closed=closed)
        click.echo(_acted(done, legal_now))
        _warn(done)


def _warn(done: Any) -> None:
    """A ``note:`` line on standard error for each note the action put on the hand
    (:attr:`replay.live.acting.Acted.notes`: a raise below the minimum that covers every
    opponent, RULES.md §1.7, never silent; a stud card dealt from the discards or as the
    community card, §4.1; a raise recorded as a call), as ``show`` and ``replay`` note it; then a
    ``warning:`` line for each payout an end recorded otherwise than
    the rules award (:attr:`replay.live.acting.Acted.differences`): recorded still
    (:func:`cli.dispute_text.paid_otherwise_warnings`, as ``correct`` and ``undo`` warn);
    nothing, and nothing loaded, for the other actions."""
    names = Names(done.names) if done.names else str
    for line in done.notes:
        click.echo(names(f"note: {line}"), err=True)
    if not done.differences:
        return
    from cli.dispute_text import paid_otherwise_warnings

    for line in paid_otherwise_warnings(done.differences):
        click.echo(names(line), err=True)


def _acted(done: Any, legal_now: Any) -> str:
    """What ``act`` prints of an action appended (:class:`replay.live.acting.Acted`): its seq and
    type, then what is legal now, or how the hand stands when it is over; a platform player
    named as the reads name him (:class:`cli.names.Names`)."""
    state = done.state
    said = f"{done.seq} {done.event.type}" + (
        f"; {legal_now(state)}" if state.status == "open" else f"; hand {state.status}")
    return Names(done.names)(said) if done.names else said


@click.command("state")
@click.argument("hand_id", metavar="HAND")
@click.pass_obj
def state_cmd(obj: Context, hand_id: str) -> None:
    """Print HAND's current state: whose turn, pots, stacks, current bet, legal range."""
    with one_action():
        from cli.dispute_text import state_text
        from replay.live import now

        state = now(obj.ledger(read_only=True), hand_id)
        click.echo(obj.names()(state_text(state)))


@click.command("table")
@click.argument("hand_id", metavar="HAND")
@click.option("--closed", is_flag=True,
              help="Record the actions though the hand's session was closed with the hand in play "
                   "(its books were settled up).")
@click.option("--keep-going", is_flag=True,
              help="Read on after a refused line when the input is not a terminal (a file, a "
                   "pipe); by default such input stops at its first refused line.")
@click.pass_obj
def table(obj: Context, hand_id: str, closed: bool, keep_going: bool = False) -> None:
    """Record HAND at the table in one process: read lines from standard input until its end
    (or a line "quit"), each an ACTION as `act` takes it or the word "state" (a blank line or
    one starting with "#", a comment, is skipped), and do and print
    for each what `act HAND ACTION` / `state HAND` would. A refused line prints the same one
    error line on stderr (from a file or a pipe naming its line number first: "error: line 3,
    hand h1, action …") and nothing of it is written; at a terminal the session goes on (the
    host types the line again), while input from a file or a pipe stops there, since its
    later lines were written assuming the refused one went in (--keep-going reads on). Every
    line opens the ledger and closes it before printing, so other commands may write it
    meanwhile. A line is at most 1 MB (a longer one is refused, unread). Exit status: 0 every
    line went through, 2 a line was refused (or HAND is not in the ledger), 130 Ctrl-C
    ("Aborted": a line whose write began committing is finished and printed first)."""
    exit_at_once()
    with gc_paused():
        obj.saves_tables = False  # the hot path, as for `act`
        _table_hand(obj, hand_id, closed=closed)
        obj.close()
    from cli.stdin_lines import woken

    stdin = _stdin()
    with woken(stdin) as source:
        refused = _table_lines(obj, hand_id, source, prompt=stdin.isatty(), closed=closed,
                               keep_going=keep_going)
    if refused:
        raise click.exceptions.Exit(2)


def _table_lines(obj: Context, hand_id: str, source: Any, *, prompt: bool, closed: bool,
                 keep_going: bool) -> bool:
    """``table``'s loop: each line of ``source`` (binary standard input, :mod:`cli.stdin_lines`)
    done as ``act``, its output printed; whether a line was refused."""
    from ledger.formats.files import StreamLines
    from ledger.store import landing

    lines = StreamLines(source)
    refused = False
    while True:
        landing.resume()  # Ctrl-C held since the last line's write stops the session here
        if prompt:
            click.echo("> ", nl=False, err=True)
        try:
            raw = lines.next()
        except MalformedInput as exc:  # a line over the cap: refused, never held whole
            click.echo(refusal(exc.located(hand=hand_id)), err=True)
            refused = True
            if prompt or keep_going:
                continue
            break
        if not raw:
            break
        line = raw.decode("utf-8", "surrogateescape").strip()
        if line == "quit":
            break
        if not line or line.startswith("#"):  # a comment line, as a trailing "# note" is
            continue
        try:
            text, done = _table_line(obj, hand_id, line, closed=closed)
        except Exception as exc:
            click.echo(refusal(exc) if prompt else _numbered(exc, lines.number), err=True)
            refused = True
            if prompt or keep_going:
                continue
            break
        finally:
            obj.close()  # the file is free for other processes before the line's output
        click.echo(text)
        if done is not None:
            _warn(done)
    return refused


def _table_hand(obj: Context, hand_id: str, *, closed: bool) -> None:
    """Refuse ``table HAND`` before any line is read: no such hand, or ``--closed`` given for
    a hand of a session that is open (:func:`replay.sessions.state.closed_flag_on_hand`, as
    ``act`` refuses it).

    Raises:
        NotFound: no such hand; IllegalAction: its events do not replay; LedgerError: the
            flag on a hand of an open session, naming it and ``table HAND --closed``.
    """
    from replay.live.state import current

    state, _ = current(obj.ledger(read_only=True), hand_id)
    if closed:
        from ledger.model.shell import shell_arg
        from replay.sessions.state import closed_flag_on_hand

        closed_flag_on_hand(obj.ledger(read_only=True), [state.started.session],
                            f"table {shell_arg(hand_id)} --closed")


def _table_line(obj: Context, hand_id: str, line: str, *, closed: bool) -> tuple[str, Any]:
    """What ``act HAND LINE`` (or ``state HAND`` for the word "state") prints, done, and the
    action appended (:class:`replay.live.acting.Acted`; None for "state").

    Raises:
        what those commands raise for a refused line (nothing of it written).
    """
    from cli.dispute_text import state_text
    from replay.live import act as record
    from replay.live import now
    from replay.live.state import legal_now

    if line == "state":
        shown = state_text(now(obj.ledger(read_only=True), hand_id))
        return obj.names()(shown), None  # the names read from that open
    check_utf8(line, "ACTION")  # as the one-shot `act` refuses it
    with refusals_named(obj.names):
        done = record(obj.ledger(existing=True), hand_id, line, closed=closed)
    return _acted(done, legal_now), done


#: Refusals of the ledger file, not of a line of input (:func:`_numbered`).
_THE_FILE = (LedgerReadOnly, LedgerBusy, LedgerCorrupt, ChainBroken)


def _numbered(exc: Exception, number: int) -> str:
    """The error line of a refused line ``number`` (1-based, blank lines counted) of input
    read from a file or a pipe, naming it as an import names a file's line: ``error: line 3,
    hand s1, action 'd dh Cy ??': …`` (:meth:`ledger.model.errors.LedgerError.where`).

    A refusal of the ledger file itself (read-only, held by another process, damaged) is
    no fault of the line and names none.

    Raises:
        what :func:`cli.context.refusal` raises for an unexpected failure.
    """
    if isinstance(exc, _THE_FILE):
        return refusal(exc)
    if isinstance(exc, LedgerError):
        return refusal(exc.located(line=number))
    return refusal(exc).replace("error: ", f"error: line {number}: ", 1)


def _stdin() -> Any:
    """Standard input as bytes.

    Raises:
        MalformedInput: the process was started with standard input closed (``<&-``).
    """
    buffer = getattr(sys.stdin, "buffer", None)  # None: started with stdin closed
    if buffer is None:
        raise MalformedInput("table: standard input is closed; give the actions on it, a "
                             "line each")
    return buffer


COMMANDS = [hand, act, state_cmd, table]
