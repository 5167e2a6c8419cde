"""Disputed hands: ``whatif``, ``correct``, ``void``, ``undo``, ``history`` (the work is done
by :mod:`replay.whatif` and :mod:`replay.corrections`; history is never rewritten: a correction
or a void is a new event). Recording a hand live is :mod:`cli.cmd_live`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import click

from cli import dispute_text, render
from cli.cmd_checkpoint import keys_option
from cli.context import Context
from cli.names import refusals_named


class _Seq(click.ParamType):
    """An original event's SEQ, or ``SEQ+`` / ``SEQ+K`` (``23+``, ``23+2``) as ``show`` numbers
    a row a correction inserted (:class:`replay.inserted_rows.InsertedSeq`, which the
    correction refuses, naming the way to reach it, or naming a row the hand does not have)."""

    name = "integer"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        from replay.inserted_rows import InsertedSeq

        if isinstance(value, int):
            return value
        found = re.fullmatch(r"(-?[0-9]+)(\+([1-9][0-9]*)?)?", str(value).strip())
        if found is None:
            self.fail(f"{value!r} is not a valid integer (or SEQ+, SEQ+K: a row a correction "
                      "inserted, as `show` numbers it)", param, ctx)
        seq = int(found.group(1))
        if found.group(2) is None:
            return seq
        return InsertedSeq(seq, int(found.group(3)) if found.group(3) else None)


SEQ = _Seq()


def _change_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--delete", "deletes", multiple=True, type=SEQ,
                     help="Drop the original event SEQ (repeatable).")(f)
    f = click.option("--insert-after", "inserts", multiple=True, type=(SEQ, str),
                     metavar="SEQ ACTION", help="Insert ACTION after SEQ (repeatable).")(f)
    f = click.option("--replace", "replaces", multiple=True, type=(SEQ, str),
                     metavar="SEQ ACTION", help="Replace the event SEQ by ACTION (repeatable).")(f)
    return f


def _specs(replaces: tuple, inserts: tuple, deletes: tuple) -> list[Any]:
    from replay.correction_build import ChangeSpec

    return ([ChangeSpec("replace", s, t) for s, t in replaces]
            + [ChangeSpec("delete", s) for s in deletes]
            + [ChangeSpec("insert_after", s, t) for s, t in inserts])


@click.command()
@click.argument("hand_id", metavar="HAND")
@_change_options
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object: players named as the text names them, but a "
                   "downstream hand's \"player\" as stored (a PokerNow id) with \"name\" "
                   "beside it, and \"changes\" as the events would be stored.")
@click.pass_obj
def whatif(obj: Context, hand_id: str, replaces: tuple, inserts: tuple, deletes: tuple,
           as_json: bool) -> None:
    """What HAND's result would be with the changes (writes nothing): each player's net
    before/after/diff, later hands of the session whose starting stacks would no longer
    follow, and each player's session result change."""
    from replay.whatif import what_if

    with refusals_named(obj.names):
        w = what_if(obj.ledger(read_only=True), hand_id, _specs(replaces, inserts, deletes))
    names = obj.names()
    if as_json:
        click.echo(json.dumps(render.whatif_json(w.as_json(), names)))
        return
    click.echo(dispute_text.whatif_text(hand_id, w, names.labels, names))


@click.command()
@click.argument("hand_id", metavar="HAND")
@_change_options
@click.option("--reason", required=True, help="Why (kept in the ledger).")
@click.option("--by", "by", required=True, help="Who corrects.")
@click.option("--sign", default=None, metavar="NAME", help="Sign it with the key NAME.")
@click.option("--closed", is_flag=True,
              help="Record it though HAND's session is closed: needed whenever the "
                   "correction changes that session's nets (a player's net or the rake the "
                   "table took) or leaves HAND, paid by the rules until now, paid otherwise.")
@keys_option
@click.pass_obj
def correct(obj: Context, hand_id: str, replaces: tuple, inserts: tuple, deletes: tuple,
            reason: str, by: str, sign: str | None, closed: bool, keys_dir: str) -> None:
    """Append a correction to HAND (the original events stay). Refused, exit 2, when the
    corrected hand does not replay legally, or, unless --closed, when HAND's session is closed
    and the correction changes its nets (a player's net or the rake the table took) or
    leaves HAND, paid by the rules until now, paid otherwise."""
    from ledger.store.keys import KeyStore
    from replay.corrections import correct as append_correction

    with refusals_named(obj.names):
        done = append_correction(obj.ledger(existing=True), hand_id,
                                 _specs(replaces, inserts, deletes), reason=reason, by=by,
                                 keys=KeyStore(keys_dir), sign=sign, closed=closed)
    obj.save_tables()  # on the ledger held: names() closes it, and it is not opened again
    _said(obj, hand_id, done)


def _said(obj: Context, hand_id: str, done: Any) -> None:
    """What ``correct`` and ``undo`` print of the amendment ``done``
    (:func:`cli.dispute_text.corrected_text`), then on standard error a ``warning:`` line
    for each payout the hand is left paid otherwise than the rules award, as ``act … end``
    warns (:func:`cli.dispute_text.paid_otherwise_warnings`): recorded still, a correction
    being the host's word."""
    names = obj.names()
    click.echo(names(dispute_text.corrected_text(hand_id, done)))
    for line in dispute_text.paid_otherwise_warnings(done.after.paid_otherwise):
        click.echo(names(line), err=True)


@click.command()
@click.argument("hand_ids", metavar="HAND...", nargs=-1, required=True)
@click.option("--reason", required=True, help="Why (misdeal, restarted hand, …).")
@click.option("--by", "by", required=True, help="Who voids.")
@click.option("--sign", default=None, metavar="NAME", help="Sign it with the key NAME.")
@click.option("--closed", is_flag=True,
              help="Record it though HAND's session is closed and the void moves a player's "
                   "net.")
@keys_option
@click.pass_obj
def void(obj: Context, hand_ids: tuple[str, ...], reason: str, by: str, sign: str | None,
         closed: bool, keys_dir: str) -> None:
    """Void HAND: every contribution goes back. The hand's events stay. Refused, exit 2,
    when HAND's session is closed and the void moves a player's net (unless --closed).
    Several hands are voided in one write, all or none, the latest first: no hand is warned
    of whose start a void leaves unfollowed when it is voided too.

    The engine refuses a `hand_voided` after `hand_ended`, so for an ended hand the void
    is appended with a correction that deletes the `hand_ended` event (same reason and by).
    """
    from ledger.store.keys import KeyStore
    from replay.corrections import void as append_void
    from replay.voiding import void_hands

    if len(hand_ids) == 1:
        one = append_void(obj.ledger(existing=True), hand_ids[0], reason=reason, by=by,
                          keys=KeyStore(keys_dir), sign=sign, closed=closed)
        done, later = [(hand_ids[0], one)], one.downstream
    else:
        many = void_hands(obj.ledger(existing=True), hand_ids, reason=reason, by=by,
                          keys=KeyStore(keys_dir), sign=sign, closed=closed)
        done, later = many.hands, many.downstream
    obj.save_tables()  # on the ledger held: names() closes it, and it is not opened again
    click.echo(obj.names()("\n".join([
        *(line for hand_id, voided in done for line in _voided_lines(hand_id, voided)),
        *dispute_text.downstream_warnings(later)])))


def _voided_lines(hand_id: str, done: Any) -> list[str]:
    """What ``void`` prints of the void ``done`` of ``hand_id``
    (:class:`replay.corrections.Voided`): what it returned and what moved, and the unit's
    note (the warnings of later hands follow every hand's lines)."""
    back = ", ".join(f"{p} {c}" for p, c in done.hand.result.returned.items() if c)
    carried = done.hand.result.carried
    on = (f"; the {carried} chip(s) carried into it pass on to the session's next hand "
          "(RULES.md §7.1)") if carried else ""
    from replay.typed import smallest_unit_note

    moved = dispute_text.moved_parts(  # what moved, as `correct` and `undo` print it
        done, "change in net: none (its stream did not replay: the books counted none of its "
        "chips)")
    unit = smallest_unit_note(done.hand.decimals, "nets")  # a hand kept in cents: its chips
    return [f"voided hand {hand_id}: returned {back or 'nothing'}{on}; " + "; ".join(moved),
            *([f"  {unit}"] if unit is not None else [])]


@click.command()
@click.argument("hand_id", metavar="HAND")
@click.option("--by", "by", required=True, help="Who takes it back.")
@click.option("--reason", default=None, help="Why (default: the undo of that action).")
@click.option("--sign", default=None, metavar="NAME", help="Sign it with the key NAME.")
@click.option("--closed", is_flag=True,
              help="Record it though HAND's session is closed and HAND, paid by the rules "
                   "until now, would be paid differently, or a player's net moves.")
@keys_option
@click.pass_obj
def undo(obj: Context, hand_id: str, by: str, reason: str | None, sign: str | None,
         closed: bool, keys_dir: str) -> None:
    """Take back exactly the last thing appended to HAND: an action (`act`), a correction or a
    void (with the correction that dropped the hand's end for it). The undo is itself an
    appended correction; nothing is deleted. Refused, exit 2, when there is nothing of the
    kind (the hand's start or import) or the hand without it would not replay legally, and,
    as for `correct` and `void`, when it leaves a clean hand of a closed session paid wrong or
    (a void or correction taken back) moves a player's net there (unless --closed). --sign
    signs the undo as `correct` and `void` sign; `history` and `verify` name an unsigned undo
    of a signed amendment."""
    from ledger.store.keys import KeyStore
    from replay.corrections import undo as take_back

    with refusals_named(obj.names):
        done = take_back(obj.ledger(existing=True), hand_id, by=by, reason=reason,
                         keys=KeyStore(keys_dir), sign=sign, closed=closed)
    obj.save_tables()  # on the ledger held: names() closes it, and it is not opened again
    _said(obj, hand_id, done)


@click.command()
@click.argument("hand_id", metavar="HAND", required=False)
@click.option("--session", "session_name", default=None,
              help="The session's entries instead: buy-ins, cash-outs, payments and their "
                   "corrections, numbered as `entry retract|amend` takes them.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@keys_option
@click.pass_obj
def history(obj: Context, hand_id: str | None, session_name: str | None, as_json: bool,
            keys_dir: str) -> None:
    """HAND's original events (seq, position, recorded_at) and every correction and void with
    who, when, why, what it changed and who signed it; or, with --session, the session's
    events."""
    from ledger.model.errors import MalformedInput
    from ledger.store.keys import KeyStore

    if (hand_id is None) == (session_name is None):
        raise MalformedInput("history takes a HAND or --session SESSION")
    if session_name is not None:
        from replay.sessions.state import history as read_session

        data = read_session(obj.ledger(read_only=True), session_name)
        click.echo(json.dumps(data) if as_json else dispute_text.session_history_text(data))
        return
    from replay.hand_history import history as read_history

    data = read_history(obj.ledger(read_only=True), hand_id, KeyStore(keys_dir))
    click.echo(json.dumps(data) if as_json else dispute_text.history_text(data))


COMMANDS = [whatif, correct, void, undo, history]
