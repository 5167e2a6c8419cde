"""The stored payload's writer (ledger/store/chain.py ``payload_json``: orjson where it gives the
same text, else the ``json`` encoder) against the canonical JSON as defined
(``json.dumps(..., sort_keys=True, separators=(",", ":"))``, ASCII-escaped; FORMATS.md)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.model.events import (
    BetRaise,
    Correction,
    HandStarted,
    Seat,
    SessionOpened,
    Stakes,
    event_json,
)
from ledger.store.chain import SESSION_PREFIX, canonical_json, payload_json, prepare_batch

# every character but lone surrogates (no UTF-8 text: refused before storing), so control
# characters, DEL, Latin-1, beyond the BMP, and the line separators JSON writers differ on;
# half the texts plain ASCII, where orjson's own text is taken unless a float or an int
# beyond 64 bits is met
ascii_ = st.characters(min_codepoint=0, max_codepoint=0x7F)
anything = st.characters(blacklist_categories=("Cs",))
text = st.one_of(st.text(ascii_, max_size=8), st.text(anything, max_size=8))
name = st.one_of(st.text(ascii_, min_size=1, max_size=8),
                 st.text(anything, min_size=1, max_size=8))
scalar = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1),
                   st.integers(-(2**70), 2**70), st.floats(), text)
free = st.recursive(scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)), max_leaves=12)


#: A hand's id: any name but a session stream's (``session:NAME``), which
#: :func:`prepare_batch` refuses as a hand's stream.
hand_id = name.filter(lambda h: not h.startswith(SESSION_PREFIX))


#: Examples a property, twice hypothesis' default of 100: an example checks three events (four
#: event types in the second property), and test_hand_checked_texts holds each known case where
#: orjson's text differs.
EXAMPLES = 200


def expected(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@settings(max_examples=EXAMPLES)
@given(source=st.dictionaries(text, free, max_size=5), hand=hand_id, player=name,
       amount=st.integers(0, 10**12))
def test_events_written_as_json_dumps_writes_them(source: dict[str, Any], hand: str,
                                                  player: str, amount: int) -> None:
    events = [
        HandStarted(hand=hand, game="NT",
                    stakes=Stakes(betting="no_limit", blinds_or_straddles=[1, 2]),
                    seats=[Seat(player=player, stack=amount), Seat(player=player + "x", stack=1)],
                    source=source),
        BetRaise(player=player, to=amount + 1),
        Correction(changes=[{"op": "replace", "seq": 3, "event": source}], reason=hand,
                   by=player),
    ]
    for event in events:
        assert canonical_json(event) == event_json(event)
    batch = prepare_batch(hand, events[:2], None, None, None)
    assert batch.payloads == [event_json(e) for e in events[:2]]


@settings(max_examples=EXAMPLES)
@given(data=st.dictionaries(text, free, max_size=6))
def test_any_event_shaped_data(data: dict[str, Any]) -> None:
    # the writer's fallbacks, each type: a float outside the free-form fields is not
    # looked for (an event has none there), so only types whose free-form fields are known
    for kind, field in (("hand_started", "source"), ("correction", "changes"),
                        ("fold", None), ("no such type", None)):
        shaped = {**data, "type": kind}
        if field is not None:
            shaped[field] = data
        elif kind == "fold":
            shaped = {k: v for k, v in shaped.items() if not _has_float(v)}
        assert payload_json(shaped) == expected(shaped)


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


def test_hand_checked_texts() -> None:
    # each case where orjson's own text differs and the json encoder writes it instead
    cases = {
        "\x7f": r'"\u007f"',  # DEL: escaped by json, raw in orjson
        "é": r'"\u00e9"',
        "\U0001f0a1": r'"\ud83c\udca1"',
        "\u2028": r'"\u2028"',
        "\x00\x1f\n\t\b\x0c\r": r'"\u0000\u001f\n\t\b\f\r"',
    }
    for value, written in cases.items():
        assert payload_json({"type": "hand_started", "source": {"k": value}}) == (
            '{"source":{"k":' + written + '},"type":"hand_started"}')
    assert payload_json({"type": "hand_started", "source": {"b": 2**64, "a": 1e16}}) == (
        '{"source":{"a":1e+16,"b":18446744073709551616},"type":"hand_started"}')
    assert payload_json({"type": "correction", "changes": [{"z": 1, "y": [2**70]}]}) == (
        '{"changes":[{"y":[1180591620717411303424],"z":1}],"type":"correction"}')
    opened = SessionOpened(session="s\x7f", chip_value_minor=25, currency="USD", decimals=2)
    assert canonical_json(opened) == (
        '{"chip_value_minor":25,"currency":"USD","date":null,"decimals":2,'
        '"schema_version":1,"session":"s\\u007f","source":{},"type":"session_opened"}')
