"""The event the text of an action means: a change of a recorded hand (``whatif``, ``correct``)
and a live action (``act``, ``table``) are given as text.

ACTION is PHH notation decided against the state of the hand at that point (``"Bob cbr 20"``,
``"p2 cc"``, ``"d db 7h"``), or one of ``"pay PLAYER AMOUNT"`` (a recorded payout: what the table
pushed to PLAYER), ``"returned PLAYER AMOUNT"`` (an uncalled bet given back), ``"rake AMOUNT"``
(what the table took from the pot for itself: a ``recorded_rake``, PHH's ``rake``, FORMATS.md
§1), ``"end"`` (hand ended), or a JSON event object (``{"type": "check", ...}``; a
``hand_started`` that leaves its odd-chip order out takes its game's, stud's ``card_by_suit``,
as a JSON-lines file's does: RULES.md §5).

Raises:
    engine.errors.IllegalAction: text that is not an action, an unknown player, or a bad amount.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from engine.errors import IllegalAction
from engine.notation import parse_amount, player_name, to_event
from ledger.model import events as ev
from ledger.model.errors import quoted
from replay.shown_names import as_stored, named_forms, spaced_as_seat, stored_player

#: The words an action starts with when no player does (the module doc's forms).
ACTION_WORDS = ("d", "pay", "returned", "rake", "end")


def parse_action(state: Any, text: str, names: Mapping[str, str] | None = None, *,
                 seated: Sequence[str] = ()) -> Any:
    """The event ``text`` means in ``state`` (see the module doc for the accepted forms).
    ``names``: platform id → the name he played under (:func:`ledger.store.streams.
    platform_names`), so that a player of the hand (``state``'s, else ``seated``: a JSON
    event is read without a state) known by his id may be named as the reads show him
    (:mod:`replay.shown_names`), in text or as a JSON event's ``player``.

    Raises:
        IllegalAction: text that is not an action, an unknown player, a name two players of
            the hand are shown by, or a bad amount (one beyond
            :data:`ledger.model.events.MAX_CHIPS` too).
    """
    try:
        players = state.players if state is not None else seated
        return _parse_action(state, text, names or {}, players)
    except ValidationError as exc:  # an amount the event model refuses
        first = exc.errors()[0]
        if first.get("type") == "less_than_equal":
            raise IllegalAction(f"{first.get('input')} chips is beyond the largest amount a "
                                f"ledger holds ({ev.MAX_CHIPS} chips)") from None
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise IllegalAction(f"{where}: {first.get('msg')}") from None


def _parse_action(state: Any, text: str, names: Mapping[str, str],
                  players: Sequence[str]) -> Any:
    body = text.strip()
    if body.startswith("{"):
        from ledger.formats.jsonl.lines import no_duplicates
        from ledger.formats.reading import with_game_tie_order  # here: a typed action is text

        try:  # a key given twice is refused, as in a JSON-lines file
            data = json.loads(body, object_pairs_hook=no_duplicates)
            if names and isinstance(data, dict) and isinstance(data.get("player"), str):
                data["player"] = stored_player(data["player"], players, names)
            event = ev.parse_event(data)
        except (ValueError, TypeError) as exc:
            raise IllegalAction(f"{quoted(text)} is not a JSON event: {exc}") from None
        except RecursionError:  # nested past the parser: no event nests so deep
            raise IllegalAction(f"not a JSON event: nested more than {ev.MAX_DEPTH} levels "
                                "deep") from None
        # a hand_started that leaves the odd-chip order out takes its game's (RULES.md §5)
        return with_game_tie_order(event) if event.type == "hand_started" else event
    _known_start(body, players, names)
    if names:
        body = as_stored(body, players, names)
    body = spaced_as_seat(body, players)  # "pay Phil Ivey 10": his seat, as the notation reads
    parts = body.split()
    if parts == ["end"]:
        return ev.HandEnded(status="complete")
    if parts and parts[0] in ("pay", "returned"):
        if len(parts) != 3:
            raise IllegalAction(f"{quoted(text)}: expected '{parts[0]} PLAYER AMOUNT' (a "
                                "player may be named by the seat too, p1 … pN)")
        amount = parse_amount(parts[2], state.started.unit.decimals)
        return ev.RecordedPayout(
            player=player_name(state, parts[1]), amount=amount, returned=parts[0] == "returned"
        )
    if parts and parts[0] == "rake":
        return _rake(state, text, parts)
    return to_event(state, body)


def _known_start(body: str, players: Sequence[str], names: Mapping[str, str]) -> None:
    """Refuse an action whose first word is neither a player of the hand (``players``, the
    names the reads show them by: :func:`replay.shown_names.named_forms`, a seat ``pN``) nor
    an action word (:data:`ACTION_WORDS`), when a player stands next (``pya Bob 100``): the
    action word is mistyped, not the player (whose typo is refused naming the players it
    likely meant).

    Raises:
        IllegalAction: ``unknown action word 'pya': did you mean pay? (an action starts with
            a player, or with d, pay, returned, rake or end)``.
    """
    from ledger.model.names import likely_meant

    words = body.split()
    if len(words) < 2 or words[0] in ACTION_WORDS:
        return
    firsts = {form.split()[0] for form in [*players, *named_forms(players, names)]
              if form.split()}

    def player(word: str) -> bool:
        seat = re.match(r"p([1-9][0-9]*)\Z", word)
        return word in firsts or (seat is not None and int(seat.group(1)) <= len(players))

    if player(words[0]) or not player(words[1]):
        return
    close = likely_meant(words[0], ACTION_WORDS, n=1) if len(words[0]) <= 100 else []
    raise IllegalAction(f"unknown action word {quoted(words[0])}"
                        + (f": did you mean {close[0]}?" if close else "")
                        + " (an action starts with a player, or with "
                        + ", ".join(ACTION_WORDS[:-1]) + f" or {ACTION_WORDS[-1]})")


def _rake(state: Any, text: str, parts: list[str]) -> ev.RecordedRake:
    """``rake AMOUNT``: the chips the table took from the pot, a whole number above 0 in the
    hand's unit (FORMATS.md §1, PHH's ``rake``).

    Raises:
        IllegalAction: not one amount, or one that is not above 0.
    """
    if len(parts) != 2:
        raise IllegalAction(f"{quoted(text)}: expected 'rake AMOUNT' (the chips the table took "
                            "from the pot)")
    amount = parse_amount(parts[1], state.started.unit.decimals)
    if amount <= 0:
        raise IllegalAction(f"rake {parts[1]}: a rake is a number of chips above 0")
    return ev.RecordedRake(amount=amount)
