"""An event's canonical JSON, fast: what the store hashes and keeps as a row's payload.

The text is :func:`ledger.model.events.event_json`'s (``json.dumps`` of the event's
``model_dump(mode="json")`` with sorted keys, no spaces, ASCII-escaped; FORMATS.md), written
by orjson where that gives the same text (:func:`payload_json`). Here, at the bottom, so that
both the store (:mod:`ledger.store.chain`) and a reader that proves a line's event text is
already canonical (:mod:`ledger.formats.jsonl.lines`) use the one writer.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import orjson
from pydantic import BaseModel

from ledger.model.events import EVENT_MODELS

_SEPARATORS = (",", ":")
# What ``json.dumps(data, sort_keys=True, separators=_SEPARATORS)`` runs, built once instead of
# on every call (CPython's C encoder when present; the circular-reference check is off, which
# changes no output for event data).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=_SEPARATORS)
_C_ENCODER = (
    None
    if json.encoder.c_make_encoder is None  # type: ignore[attr-defined]
    else json.encoder.c_make_encoder(  # type: ignore[attr-defined]
        None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",",
        True, False, True,
    )
)  # fmt: skip


def _json_encode(data: dict[str, Any]) -> str:
    if _C_ENCODER is None:
        return _ENCODER.encode(data)
    return "".join(_C_ENCODER(data, 0))


def _may_hold_float(tp: Any, seen: set[type] | None = None) -> bool:
    """Whether a value of the annotation ``tp`` may dump to JSON holding a float (``Any``,
    ``float``, or a model or container of either)."""
    if tp is Any:
        return True
    if isinstance(tp, type):
        if issubclass(tp, float):
            return True
        if issubclass(tp, BaseModel):
            seen = set() if seen is None else seen
            if tp in seen:
                return False
            seen.add(tp)
            return any(_may_hold_float(f.annotation, seen) for f in tp.model_fields.values())
    return any(_may_hold_float(arg, seen) for arg in typing.get_args(tp))


#: Per event type, the fields whose dumped value may hold a float: the free-form JSON of a
#: hand's ``source`` or a correction's events. Elsewhere an event has ints and text only.
_FLOAT_FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(name for name, f in model.model_fields.items() if _may_hold_float(f.annotation))
    for kind, model in EVENT_MODELS.items()
}


def _holds_float(value: Any) -> bool:
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, float):
            return True
    return False


def payload_json(data: dict[str, Any]) -> str:
    """``json.dumps(data, sort_keys=True, separators=(",", ":"))`` of an event's dump
    (``ensure_ascii``: every character outside ``" "``-``"~"`` escaped).

    orjson writes the same text with sorted keys whenever its output is ASCII without DEL
    (it writes other characters raw, where ``json`` escapes them) and the data holds no
    float (written another way than ``repr``): then its text is taken (measured: 0.6 against
    1.9 us a distinct event of the bench's 1M-event file). Otherwise, and for what orjson
    refuses (an int beyond 64 bits, a lone surrogate, a key that is no string), the
    ``json`` encoder writes it. A property test (tests/test_canonical_json.py) checks both
    agree."""
    fields = _FLOAT_FIELDS.get(data.get("type"))  # type: ignore[arg-type]
    if fields is None:
        return _json_encode(data)
    for name in fields:
        if _holds_float(data.get(name)):
            return _json_encode(data)
    try:
        text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return _json_encode(data)
    if text.isascii() and text.find(b"\x7f") < 0:  # not `in` (jsonl.lines._plain says why)
        return text.decode("ascii")
    return _json_encode(data)


def event_payload(event: BaseModel) -> tuple[str, int, str]:
    """``(type, schema_version, canonical JSON)`` of one event model, as
    :func:`ledger.store.chain.prepare_batch` serialises it (its memo's values)."""
    data = type(event).__pydantic_serializer__.to_python(event, mode="json")
    return data["type"], data["schema_version"], payload_json(data)
