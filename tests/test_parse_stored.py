"""A stored row's event is parsed by its type's model alone (``parse_stored``, so that a
process builds only the models it meets): the same event as the union of every event type
gives (``parse_event``), and the same error, for every payload of the series and the declare
night, for a payload whose row names another type, and for payloads that are not events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.model.errors import MalformedEvent
from ledger.model.events import EVENT_MODELS, EVENT_TYPES, event_json, parse_event, parse_stored

DATA = Path(__file__).resolve().parents[1] / "data"
PAYLOADS = [event_json(parse_event(json.loads(line)["event"]))
            for path in [*sorted((DATA / "series").glob("*.jsonl")),
                         DATA / "declare" / "declare-night.jsonl"]
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_stored_payload_parses_to_the_same_event() -> None:
    types = set()
    for payload in PAYLOADS:
        kind = json.loads(payload)["type"]
        types.add(kind)
        event = parse_stored(kind, payload)
        assert event == parse_event(payload) and type(event) is EVENT_MODELS[kind]
    assert len(types) >= 15  # hand and session events of many types
    assert set(EVENT_MODELS) == set(EVENT_TYPES) and len(EVENT_MODELS) == 30


def test_a_row_naming_another_type_gets_the_payload_s_own_event() -> None:
    payload = event_json(parse_event({"type": "check", "player": "Bob"}))
    assert parse_stored("fold", payload) == parse_event(payload)
    assert parse_stored("fold", payload).type == "check"
    assert parse_stored("no_such_type", payload) == parse_event(payload)


@pytest.mark.parametrize("payload", [
    '{"type":"check"}',
    '{"type":"bet_raise","player":"Bob","to":0}',
    '{"type":"cards_dealt","cards":["Xx"]}',
    '{"type":"nope","player":"Bob"}',
    '{"type":"check","player":"Bob","extra":1}',
    "not json",
])
def test_an_invalid_payload_is_the_same_error(payload: str) -> None:
    with pytest.raises(MalformedEvent) as expected:
        parse_event(payload)
    kind = payload.split('"type":"')[1].split('"')[0] if '"type"' in payload else "check"
    with pytest.raises(MalformedEvent) as got:
        parse_stored(kind, payload)
    assert str(got.value) == str(expected.value)
