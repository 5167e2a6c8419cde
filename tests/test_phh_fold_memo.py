"""replay.build.phh_fold: an action text whose event does not depend on the state (a fold,
hole cards, a show) is made once for the hands of the same players and reused; the events,
the states and the refusals are those of making every event afresh."""

from __future__ import annotations

import pytest

import replay.build as build
from ledger.formats.phh.read import read_phh_text
from ledger.model.errors import IllegalHand

HANDS = """[1]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 ????', 'p3 f', 'p1 cbr 6', 'p2 f']
hand = 1

[2]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ['Ann', 'Bob', 'Cy']
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 ????', 'p3 f', 'p1 cbr 6', 'p2 f']
hand = 2

[3]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 ????', 'p3 f', 'p1 cc', 'p2 cc',
    'd db 2h3h4h', 'p1 cc', 'p2 cc', 'd db 5s', 'p1 cc', 'p2 cc', 'd db Kd', 'p1 cc', 'p2 cc',
    'p1 sm AsKs', 'p2 sm 7c2d']
hand = 3

[4]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 ????', 'p3 f', 'p3 f']
hand = 4
"""


def _fold_all(fresh: bool) -> list[object]:
    out: list[object] = []
    for hand in read_phh_text(HANDS, multi=True).hands:
        if fresh:
            build._BY_TEXT.clear()
        try:
            events, state = build.phh_fold(hand)
        except IllegalHand as exc:
            out.append(str(exc))
            continue
        out.append(([e.model_dump() for e in events], state.stacks, state.status,
                    state.folded))
    return out


def test_reused_events_are_those_made_afresh() -> None:
    warm = _fold_all(fresh=False)
    assert warm == _fold_all(fresh=True)
    # the same texts name other players in a hand of other players
    first, second = warm[0][0], warm[1][0]  # type: ignore[index]
    assert [e.get("player") for e in first[3:6]] == ["p1", "p2", "p3"]
    assert [e.get("player") for e in second[3:6]] == ["Ann", "Bob", "Cy"]
    assert (first[6]["type"], first[6]["player"]) == ("fold", "p3")  # type: ignore[index]
    # a reused fold is still refused where it is illegal, naming the action
    assert warm[3] == "<text>:37, hand <text>-4, action 'p3 f': p3 has folded"


def test_a_reused_event_is_the_same_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text met again gives the event made the first time (so an append serialises it
    once), never an equal copy; a state-dependent text (a call) is made each time."""
    build._BY_TEXT.clear()
    hands = read_phh_text(HANDS, multi=True).hands
    a, _ = build.phh_fold(hands[0])
    made: list[str] = []
    real = build.to_event
    monkeypatch.setattr(build, "to_event", lambda s, t, **k: made.append(t) or real(s, t, **k))
    c, _ = build.phh_fold(hands[2])
    assert c[3] is a[3] and c[6] is a[6]  # 'd dh p1 AsKs', 'p3 f'
    assert "d dh p1 AsKs" not in made and "p3 f" not in made
    assert made.count("p2 cc") == 4 and "p1 sm AsKs" in made
