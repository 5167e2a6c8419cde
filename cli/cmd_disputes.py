"""Live recording and disputed hands: ``hand start``, ``act``, ``state``, ``whatif``,
``correct``, ``void``, ``history``.

History is never rewritten: a correction or a void is a new event appended to the hand's
stream; replay, audit and exports read the hand through :func:`replay.fold.effective_events`.

Live recording::

    handledger hand start --game NT --stakes 1/2 --seats "Ann:200,Bob:150,Cy:300" --button Cy
    handledger act HAND "d dh p1 AsKd"     # PHH notation; players by name or pN
    handledger act HAND "Bob cbr 20"
    handledger act HAND "pay Ann 45"       # what the dealer pushed (a recorded payout)
    handledger act HAND end                # hand_ended (refused unless the hand is at showdown)
    handledger state HAND

Seats are stored in PHH order (p1 = first seat left of the button, the button last), so a hand
recorded live and the same hand imported from PHH give the same events.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any

import click
from pydantic import ValidationError

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.model.errors import MalformedInput

if TYPE_CHECKING:  # the engine (and pokerkit) load only for the commands that replay
    from replay.whatif import ChangeSpec

# ------------------------------------------------------------------------------------------
# hand start


def _parse_seats(text: str) -> list[tuple[str, int]]:
    seats = []
    for item in text.split(","):
        name, sep, stack = item.strip().rpartition(":")
        if not sep or not name or not stack.strip().isdigit():
            raise MalformedInput(f"--seats: {item.strip()!r} is not NAME:STACK")
        seats.append((name.strip(), int(stack)))
    if len(seats) < 2:
        raise MalformedInput("--seats needs at least two players")
    return seats


def _parse_declare(text: str | None) -> ev.DeclareOptions | None:
    if text is None:
        return None
    values: dict[str, object] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise MalformedInput(f"--declare-options: {item!r} is not KEY=VALUE")
        values[key.strip()] = {"true": True, "false": False}.get(value.strip(), value.strip())
    try:
        return ev.DeclareOptions(**values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise MalformedInput(f"--declare-options: {where}: {first.get('msg')}") from None


def build_started(
    *, hand: str, game_code: str, stakes: str | None, antes: int, min_bet: int | None,
    small_bet: int, big_bet: int, bring_in: int, seats: str, button: str | None,
    session: str | None, declare: str | None,
) -> tuple[ev.HandStarted, list[ev.ForcedBet]]:
    """The ``hand_started`` event and the forced bets of a live hand (see the module doc).

    Raises:
        MalformedInput: bad seats, stakes or options; IllegalAction: stakes the game rejects.
    """
    from engine.games import game
    from engine.state import HandState
    from ledger.formats.phh.base import forced_bets

    try:
        g = game(game_code)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None
    pairs = _parse_seats(seats)
    names = [n for n, _ in pairs]
    if g.stud:
        button = None
    else:
        if button is None:
            raise MalformedInput(f"--button is required for {g.code} (it has a button): name "
                                 f"one of the seated players, {', '.join(names)}")
        if button not in names:
            raise MalformedInput(f"--button {button!r} is not seated: name one of "
                                 f"{', '.join(names)}")
        b = names.index(button)
        pairs = pairs[b + 1 :] + pairs[: b + 1]
    blinds: list[int] = []
    if stakes:
        try:
            blinds = [int(x) for x in stakes.split("/")]
        except ValueError:
            raise MalformedInput(f"--stakes {stakes!r} is not like 1/2 or 1/2/4") from None
        if g.stud:
            raise MalformedInput("stud games post a --bring-in, not blinds")
        if len(blinds) > len(pairs):
            raise MalformedInput("more blinds than players")
        blinds += [0] * (len(pairs) - len(blinds))
    n = len(pairs)
    if min_bet is None:
        positive = [b for b in blinds if b > 0]
        min_bet = positive[min(1, len(positive) - 1)] if positive else 0
    options = ev.RuleOptions(reopen_rule=g.default_reopen_rule, declare=_parse_declare(declare))
    try:
        started = ev.HandStarted(
            hand=hand, game=g.code,
            stakes=ev.Stakes(
                betting=g.betting, antes=[antes] * n, blinds_or_straddles=blinds,
                bring_in=bring_in, min_bet=min_bet if g.betting != "fixed_limit" else 0,
                small_bet=small_bet, big_bet=big_bet,
            ),
            seats=[ev.Seat(player=p, stack=s) for p, s in pairs],
            button=button, options=options, session=session,
        )
    except ValueError as exc:
        raise MalformedInput(str(exc).splitlines()[0]) from None
    forced = forced_bets(started.stakes, started.seats)
    state = HandState.start(started)
    for f in forced:
        state.apply(f)
    return started, forced


@click.group()
def hand() -> None:
    """Record a hand live (`hand start`; then `act` and `state`)."""


@hand.command("start")
@click.option("--game", "game_code", required=True, help="PHH variant code (NT, PO, F7S, …).")
@click.option("--stakes", default=None, help='Blinds (and straddles) "SB/BB[/STR]".')
@click.option("--antes", default=0, type=int, help="Ante per player.")
@click.option("--min-bet", default=None, type=int, help="Minimum bet (big-bet; default BB).")
@click.option("--small-bet", default=0, type=int, help="Fixed limit: small bet.")
@click.option("--big-bet", default=0, type=int, help="Fixed limit: big bet.")
@click.option("--bring-in", default=0, type=int, help="Stud bring-in.")
@click.option("--seats", required=True, help='"Ann:200,Bob:150,Cy:300" in table order.')
@click.option("--button", default=None, help="The button's player (not for stud).")
@click.option("--session", default=None, help="Session the hand belongs to.")
@click.option("--hand", "hand_id", default=None, help="Hand id (default: generated).")
@click.option("--declare-options", default=None,
              help='High-low declaration, e.g. "method=in_turn,swing_ties=allowed".')
@click.pass_obj
def start(obj, game_code: str, stakes: str | None, antes: int, min_bet: int | None,  # noqa: ANN001
          small_bet: int, big_bet: int, bring_in: int, seats: str, button: str | None,
          session: str | None, hand_id: str | None, declare_options: str | None) -> None:
    """Start a hand: append hand_started and the forced bets; print the hand id."""
    ledger = obj.ledger()
    if hand_id is None:
        prefix = session or "live"
        count = len(ledger.streams(kind="hand", session=session)) if session else 0
        hand_id = f"{prefix}-{count + 1}-{uuid.uuid4().hex[:6]}"
    started, forced = build_started(
        hand=hand_id, game_code=game_code, stakes=stakes, antes=antes, min_bet=min_bet,
        small_bet=small_bet, big_bet=big_bet, bring_in=bring_in, seats=seats, button=button,
        session=session, declare=declare_options,
    )
    from replay.carry import link
    from replay.ingest.pipeline import previous_hand

    batches = link([(hand_id, [started, *forced], hand_id, session, None)],
                   previous_hand(ledger))
    ledger.append_many(batches)  # with chips carried from the session's last hand, if any
    click.echo(hand_id)


# ------------------------------------------------------------------------------------------
# act / state


def _current(ledger, hand_id: str):  # noqa: ANN001, ANN202
    from ledger.store.streams import load_hand
    from replay.fold import effective_events, fold

    rows = ledger.read(hand_id)
    events, _ = load_hand(ledger, hand_id)
    effective, _ = effective_events(events)
    return fold(effective), rows[-1].seq


def legal_now(state, player: str | None = None) -> str:  # noqa: ANN001
    """``"Bob to act: to call 10, raise 20..150"`` (or the phase when nobody is to act)."""
    who = player or state.to_act
    if who is None or state.phase != "bet":
        return f"phase {state.phase}" + (f", {who} to act" if who else "")
    lim = state.limits(who)
    text = f"{who} to act: " + (f"to call {lim.to_call}" if lim.to_call else "check")
    bring_in = state.started.stakes.bring_in
    if state.game.stud and state.street == 0 and state.rnd.current == 0 and bring_in:
        text = f"{who} to act: bring in {bring_in} (pb)"
    if lim.min_to is not None:
        text += f", {'raise' if state.rnd.current else 'bet'} to {lim.min_to}..{lim.max_to}"
    elif lim.reason:
        text += f" (no raise: {lim.reason})"
    return text


@click.command()
@click.argument("hand_id", metavar="HAND")
@click.argument("action")
@click.pass_obj
def act(obj, hand_id: str, action: str) -> None:  # noqa: ANN001
    """Record ACTION in HAND: PHH notation ("Bob cbr 20", "p2 cc", "d db AhKd7c"),
    "pay PLAYER AMOUNT" / "returned PLAYER AMOUNT" (what the table pushed), or "end".
    An illegal action is refused (exit 2) with what is legal now; nothing is written."""
    from replay.whatif import parse_action

    ledger = obj.ledger()
    state, last = _current(ledger, hand_id)
    try:
        event = parse_action(state, action)
        state.apply(event)
    except IllegalAction as exc:
        raise IllegalAction(f"{exc.reason}; now: {legal_now(state)}", hand=hand_id,
                            action=action) from None
    ledger.append(hand_id, [event], hand_id=hand_id, expected_seq=last)
    click.echo(f"{last + 1} {event.type}" + (f"; {legal_now(state)}" if state.status == "open"
                                           else f"; hand {state.status}"))


def state_text(state) -> str:  # noqa: ANN001
    """Whose turn, pots, stacks, current bet and the legal range."""
    from engine.settle import settle

    result = settle(state)
    lines = [f"hand {state.hand}: {state.game.code}, phase {state.phase}, status {state.status}"]
    lines.append(legal_now(state))
    if state.phase == "bet":
        lines.append(f"current bet {state.rnd.current}")
    for pot in result.pots:
        lines.append(f"pot {pot.index}: {pot.amount} ({', '.join(pot.eligible)})")
    if result.returned:
        lines.append("returned: " + ", ".join(f"{p} {c}" for p, c in result.returned.items()))
    lines.append("stacks: " + ", ".join(
        f"{p} {state.stacks[p]}" + (" (folded)" if p in state.folded else "")
        + (f" bet {state.street_bets[p]}" if state.street_bets[p] else "")
        for p in state.players))
    return "\n".join(lines)


@click.command("state")
@click.argument("hand_id", metavar="HAND")
@click.pass_obj
def state_cmd(obj, hand_id: str) -> None:  # noqa: ANN001
    """Print HAND's current state: whose turn, pots, stacks, current bet, legal range."""
    state, _ = _current(obj.ledger(read_only=True), hand_id)
    click.echo(state_text(state))


# ------------------------------------------------------------------------------------------
# whatif / correct / void / history


def _change_options(f):  # noqa: ANN001, ANN202
    f = click.option("--delete", "deletes", multiple=True, type=int,
                     help="Drop the original event SEQ (repeatable).")(f)
    f = click.option("--insert-after", "inserts", multiple=True, type=(int, str),
                     metavar="SEQ ACTION", help="Insert ACTION after SEQ (repeatable).")(f)
    f = click.option("--replace", "replaces", multiple=True, type=(int, str),
                     metavar="SEQ ACTION", help="Replace the event SEQ by ACTION (repeatable).")(f)
    return f


def _specs(replaces, inserts, deletes) -> list[ChangeSpec]:  # noqa: ANN001
    from replay.whatif import ChangeSpec

    return ([ChangeSpec("replace", s, t) for s, t in replaces]
            + [ChangeSpec("delete", s) for s in deletes]
            + [ChangeSpec("insert_after", s, t) for s, t in inserts])


@click.command()
@click.argument("hand_id", metavar="HAND")
@_change_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.pass_obj
def whatif(obj, hand_id: str, replaces, inserts, deletes, as_json: bool) -> None:  # noqa: ANN001
    """What HAND's result would be with the changes (writes nothing): each player's net
    before/after/diff, later hands of the session whose starting stacks would no longer
    follow, and each player's session result change."""
    from replay.whatif import what_if

    w = what_if(obj.ledger(read_only=True), hand_id, _specs(replaces, inserts, deletes))
    if as_json:
        click.echo(json.dumps(w.as_json()))
        return
    data = w.as_json()
    click.echo(f"what if, hand {hand_id} (nothing written):")
    click.echo(f"  {'player':<12}{'before':>8}{'after':>8}{'diff':>8}"
               f"{'paid before':>13}{'paid after':>12}{'paid diff':>11}")
    for p in w.before.result.players:
        click.echo(f"  {p:<12}{data['before'][p]:>+8d}{data['after'][p]:>+8d}"
                   f"{data['diff'][p]:>+8d}{data['paid_before'][p]:>+13d}"
                   f"{data['paid_after'][p]:>+12d}{data['paid_diff'][p]:>+11d}")
    for d in w.after.discrepancies:
        click.echo(f"  still paid differently: {d.sentence()}")
    for d in w.downstream:
        click.echo(f"  downstream: hand {d.hand} starts {d.player} with {d.starting}, "
                   f"the corrected final stack is {d.expected} (was {d.was})")
    if w.session:
        moved = {p: v for p, v in data["session"]["diff"].items() if v}
        text = ", ".join(f"{p} {v:+d}" for p, v in moved.items()) or "no change"
        click.echo(f"  session {w.session} results: {text}")


@click.command()
@click.argument("hand_id", metavar="HAND")
@_change_options
@click.option("--reason", required=True, help="Why (kept in the ledger).")
@click.option("--by", "by", required=True, help="Who corrects.")
@click.pass_obj
def correct(obj, hand_id: str, replaces, inserts, deletes, reason: str, by: str) -> None:  # noqa: ANN001
    """Append a correction to HAND (the original events stay). Refused, exit 2, when the
    corrected hand does not replay legally."""
    from replay.fold import replay_events
    from replay.whatif import build_correction, paid_net, what_if

    ledger = obj.ledger()
    rows = ledger.read(hand_id)
    events = [r.event for r in rows]
    positions = {r.seq: r.position for r in rows}
    specs = _specs(replaces, inserts, deletes)
    correction = build_correction(events, specs, reason=reason, by=by, positions=positions)
    old, new = replay_events(events), replay_events([*events, correction])
    downstream = what_if(ledger, hand_id, specs).downstream if rows[0].session else []
    ledger.append(hand_id, [correction], hand_id=hand_id, expected_seq=rows[-1].seq)
    parts = []
    for label, b, a in (("net", old.net, new.net), ("paid", paid_net(old), paid_net(new))):
        moved = ", ".join(f"{p} {a[p] - b[p]:+d}" for p in a if a[p] != b[p])
        parts.append(f"{label}: {moved or 'unchanged'}")
    click.echo(f"corrected hand {hand_id} (seq {rows[-1].seq + 1}); " + "; ".join(parts))
    for d in downstream:
        click.echo(f"  warning: hand {d.hand} starts {d.player} with {d.starting}, the "
                       f"corrected final stack is {d.expected} (was {d.was})")


@click.command()
@click.argument("hand_id", metavar="HAND")
@click.option("--reason", required=True, help="Why (misdeal, restarted hand, …).")
@click.option("--by", "by", required=True, help="Who voids.")
@click.pass_obj
def void(obj, hand_id: str, reason: str, by: str) -> None:  # noqa: ANN001
    """Void HAND: every contribution goes back. The hand's events stay.

    The engine refuses a `hand_voided` after `hand_ended`, so for an ended hand the void
    is appended with a correction that deletes the `hand_ended` event (same reason and by).
    """
    from replay.whatif import ChangeSpec, build_correction, check_replays

    ledger = obj.ledger()
    rows = ledger.read(hand_id)
    events = [r.event for r in rows]
    if any(e.type == "hand_voided" for e in events):
        raise IllegalAction("the hand is already voided", hand=hand_id)
    new: list = []
    ended = [r for r in rows if r.type == "hand_ended"]
    if ended:
        specs = [ChangeSpec("delete", r.seq) for r in ended]
        new.append(build_correction(events, specs, reason=f"void: {reason}", by=by,
                                    positions={r.seq: r.position for r in rows}))
    new.append(ev.HandVoided(reason=reason, by=by))
    result = check_replays([*events, *new])
    ledger.append(hand_id, new, hand_id=hand_id, expected_seq=rows[-1].seq)
    back = ", ".join(f"{p} {c}" for p, c in result.result.returned.items() if c)
    click.echo(f"voided hand {hand_id}: returned {back or 'nothing'}")


@click.command()
@click.argument("hand_id", metavar="HAND")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.pass_obj
def history(obj, hand_id: str, as_json: bool) -> None:  # noqa: ANN001
    """HAND's original events (seq, position, recorded_at) and every correction and void with
    who, when, why and what it changed."""
    rows = obj.ledger(read_only=True).read(hand_id)
    originals, amendments = [], []
    for r in rows:
        e = r.event
        item = {"seq": r.seq, "position": r.position, "recorded_at": r.recorded_at.isoformat(),
                "type": r.type}
        if r.type in ("correction", "hand_voided"):
            item |= {"by": e.by, "reason": e.reason}
            if r.type == "correction":
                by_seq = {o.seq: o for o in rows}
                item |= {"changes": [
                    c.model_dump(mode="json")
                    | {"was": _brief(by_seq[c.seq].event) if c.seq in by_seq else None}
                    for c in e.changes], "positions": list(e.positions)}
            amendments.append(item)
        else:
            item["event"] = e.model_dump(mode="json", exclude={"type", "schema_version"})
            originals.append(item)
    if as_json:
        click.echo(json.dumps({"hand": hand_id, "events": originals, "amendments": amendments}))
        return
    click.echo(f"hand {hand_id}: {len(originals)} original event(s)")
    for item in originals:
        detail = {k: v for k, v in item["event"].items()
                  if k not in ("source", "options", "unit", "stakes", "seats")}
        click.echo(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                   f"{item['type']} {json.dumps(detail, separators=(',', ':'))}")
    if not amendments:
        click.echo("no corrections or voids")
    for item in amendments:
        click.echo(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                   f"{item['type']} by {item['by']}: {item['reason']}")
        for c in item.get("changes", []):
            event = f" {_brief(ev.parse_event(c['event']))}" if c["event"] else ""
            label = "after" if c["op"] == "insert_after" else "was"
            was = f" (seq {c['seq']} {label}: {c['was']})" if c["was"] else ""
            click.echo(f"        {c['op']} seq {c['seq']}{event}{was}")


def _brief(event) -> str:  # noqa: ANN001
    """``recorded_payout Bob 400`` — an event in a few words for ``history``."""
    data = event.model_dump(mode="json", exclude={"type", "schema_version"},
                            exclude_defaults=True)
    if event.type == "hand_started":
        return f"hand_started {event.hand}"
    return " ".join([event.type, *map(_word, data.values())])


def _word(value: Any) -> str:
    """One field for :func:`_brief`: cards run together (``Jd4cQc``), face-up flags in words."""
    if not isinstance(value, list):
        return str(value)
    if value and all(isinstance(v, bool) for v in value):
        if all(value) or not any(value):
            return "face up" if value[0] else "face down"
        return "faces " + "".join("u" if v else "d" for v in value)
    return "".join(map(str, value))


COMMANDS = [hand, act, state_cmd, whatif, correct, void, history]
