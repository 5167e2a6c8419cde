"""Cards in events are checked by pydantic's own pattern (no Python call per card); a bad
card is still reported as it always was: "'Xx' is not a card", at the list."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.model.errors import MalformedEvent
from ledger.model.events import parse_event

BAD = [
    ({"type": "cards_dealt", "player": "p1", "cards": ["Xx"]},
     "cards_dealt.cards: Value error, 'Xx' is not a card"),
    ({"type": "cards_dealt", "player": "p1", "cards": ["As", "1d", "Zz"]},
     "cards_dealt.cards: Value error, '1d' is not a card"),
    ({"type": "reveal", "player": "p1", "cards": ["AS"]},
     "reveal.cards: Value error, 'AS' is not a card"),
    ({"type": "discard", "player": "p1", "cards": ["??", "?"]},
     "discard.cards: Value error, '?' is not a card"),
    # an item that is no string is reported first, as before
    ({"type": "cards_dealt", "player": "p1", "cards": ["Xx", 5]},
     "cards_dealt.cards.1: Input should be a valid string"),
    # errors before the cards come first
    ({"type": "cards_dealt", "player": 5, "cards": ["Xx"]},
     "cards_dealt.player: Input should be a valid string"),
    ({"type": "cards_dealt", "player": "p1", "cards": []},
     "cards_dealt.cards: List should have at least 1 item after validation, not 0"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_bad_card_is_worded_as_before(data: dict[str, Any], message: str,
                                        as_json: bool) -> None:
    with pytest.raises(MalformedEvent) as err:
        parse_event(json.dumps(data) if as_json else data)
    assert str(err.value) == f"invalid event ({message})"


@pytest.mark.parametrize("cards", [["As", "Kd"], ["??", "2c", "Th"], ["??"]])
def test_good_cards_parse(cards: list[str]) -> None:
    event = parse_event({"type": "cards_dealt", "player": "p1", "cards": cards})
    assert event.cards == cards
