"""A player named in an action as the reads show him: a PokerNow player is stored by his
platform id (``1RhUayZFQU``) and ``show``, ``state`` and the other reads print the name he
played under (``Hznmh#9009``; ``Sam (1abc)`` when two ids share the name ``Sam``:
:func:`ledger.model.names.shown_labels`). An action typed for his hand (``act``, ``table``,
``whatif``, ``correct``: replay/action_text.py ``parse_action``) may name him so, a name of
several words too (``Phzd Juwvifsvh f``), or still by his id or seat (``p4``); the name is
mapped to his stored id exactly once, before the action is read.

A name two players of the hand are shown by (``Sam``, or an id that is another's name) is
refused naming both ids; a hand with no player known by a platform id reads its actions as
before, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from engine.errors import IllegalAction
from ledger.model.errors import quoted
from ledger.model.names import likely_meant, shown_labels

#: ``p1``, ``p2`` …: a seat, as the notation names it (engine/notation.py).
_SEAT = re.compile(r"p([1-9][0-9]*)\Z")


def named_forms(players: Sequence[str], names: Mapping[str, str]) -> dict[str, set[str]]:
    """``{form: ids}``: every way an action may name a player of ``players`` (the hand's
    stored names, seat order; ``names``: platform id → the latest name he played under,
    :func:`ledger.store.streams.platform_names`): his id, the label the reads show
    (``Sam (1abc)``) and the name alone (``Sam``), each with its words joined by one space.
    Empty when no player of the hand is known by a platform id."""
    labels = shown_labels(names)
    if not any(p in labels for p in players):
        return {}
    forms: dict[str, set[str]] = {}
    for pid in players:
        for form in {pid, labels.get(pid, pid), names.get(pid, pid)}:
            forms.setdefault(" ".join(form.split()), set()).add(pid)
    return forms


def stored_player(name: str, players: Sequence[str], names: Mapping[str, str]) -> str:
    """The stored player ``name`` (a JSON event's ``player``) is as the reads show him, or
    ``name`` itself when it is none of the hand's (the engine then refuses it as not seated).

    Raises:
        IllegalAction: ``name`` is shown for two players of the hand (naming both ids).
    """
    forms = named_forms(players, names)
    pids = forms.get(" ".join(name.split()))
    if not pids:
        return name
    return _one(name, pids)


def as_stored(text: str, players: Sequence[str], names: Mapping[str, str]) -> str:
    """Action ``text`` (``"Hznmh#9009 cbr 40"``, ``"d dh Phzd Juwvifsvh AsKd"``, ``"pay
    Hznmh#9009 1750"``) with the player it names written as stored (his id), the longest name
    of the hand that its words start with at the player's place; ``text`` unchanged when it
    names him by his id or seat already, names no player, or the hand has no player known by
    a platform id.

    Raises:
        IllegalAction: the name is shown for two players of the hand (naming both ids), or
            the word at the player's place names none of the hand's players (naming those it
            likely meant, as the reads show them).
    """
    forms = named_forms(players, names)
    words = text.split()
    at = _player_at(words)
    if not forms or at is None or at >= len(words):
        return text
    longest = max(len(form.split()) for form in forms)
    found = next((n for n in range(min(longest, len(words) - at), 0, -1)
                  if " ".join(words[at:at + n]) in forms), None)
    if found is None:
        seat = _SEAT.match(words[at])
        if seat and int(seat.group(1)) <= len(players):
            return text
        raise IllegalAction(f"unknown player {quoted(words[at])}"
                            f"{_meant(words[at], players, names)}")
    typed = " ".join(words[at:at + found])
    pid = _one(typed, forms[typed])
    if found == 1 and words[at] == pid:
        return text
    return " ".join([*words[:at], pid, *words[at + found:]])


def spaced_as_seat(text: str, players: Sequence[str]) -> str:
    """Action ``text`` with a seated player whose name has whitespace (an imported hand's
    ``Phil Ivey``, which the notation would read as two words) written as his seat, ``p1``
    … ``pN`` in the order of ``players``, where the action names its player (``pay Phil Ivey
    572100`` → ``pay p1 572100``; the longest such name its words start with there);
    ``text`` unchanged when no such name stands there."""
    spaced = {" ".join(p.split()): i for i, p in enumerate(players, 1) if len(p.split()) > 1}
    if not spaced:
        return text
    words = text.split()
    at = _player_at(words)
    if at is None or at >= len(words):
        return text
    for n in range(min(max(len(k.split()) for k in spaced), len(words) - at), 1, -1):
        seat = spaced.get(" ".join(words[at:at + n]))
        if seat is not None:
            return " ".join([*words[:at], f"p{seat}", *words[at + n:]])
    return text


def _player_at(words: Sequence[str]) -> int | None:
    """Where the player's name stands among an action's ``words``: ``d dh NAME CARDS`` 2,
    ``pay NAME AMOUNT`` and ``returned NAME AMOUNT`` 1, ``NAME VERB …`` 0; None for an action
    that names no player (``d db``, ``d rc``, ``rake``, ``end``, a JSON event)."""
    if not words or words[0].startswith("{") or words[0] in ("rake", "end"):
        return None
    if words[0] == "d":
        return 2 if words[1:2] == ["dh"] else None
    return 1 if words[0] in ("pay", "returned") else 0


def _one(typed: str, pids: set[str]) -> str:
    """The one id of ``pids`` that ``typed`` names.

    Raises:
        IllegalAction: ``typed`` names two players (or more), naming each by his id (which
            the CLI writes as the reads show him: ``Sam (1abc)``, :class:`cli.names.Names`).
    """
    if len(pids) == 1:
        return next(iter(pids))
    raise IllegalAction(f"{quoted(typed)} names {len(pids)} players of this hand: "
                        f"{' and '.join(sorted(pids))}; name the one meant by the id")


def _meant(token: str, players: Sequence[str], names: Mapping[str, str]) -> str:
    """``": did you mean Phzd Juwvifsvh?"``: the players of the hand ``token`` likely meant,
    as the reads show them (a name of several words whose first is ``token``, else a close
    spelling), or ``""``."""
    if len(token) > 100:  # a pasted line, not a name
        return ""
    labels = shown_labels(names)
    shown = [labels.get(p, p) for p in players]
    close = [s for s in shown if s.split()[0] == token] or likely_meant(token, shown)
    return f": did you mean {' or '.join(close)}?" if close else ""
