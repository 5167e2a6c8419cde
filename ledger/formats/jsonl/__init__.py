"""The project's own event files: JSON lines, one event per line (read, written, imported).

Imports ledger.model only; :mod:`ledger.formats.jsonl.lines` has the line format.
"""

from ledger.formats.jsonl.lines import (
    HAND_TYPES,
    SESSION_TYPES,
    EventStream,
    JsonlFile,
    JsonlRow,
    carried_key,
    closing_line,
    iter_jsonl,
    jsonl_line,
    kind_of,
    read_jsonl,
    read_jsonl_part,
    read_jsonl_text,
    write_jsonl,
)

__all__ = [
    "EventStream",
    "HAND_TYPES",
    "JsonlFile",
    "JsonlRow",
    "SESSION_TYPES",
    "carried_key",
    "closing_line",
    "iter_jsonl",
    "jsonl_line",
    "kind_of",
    "read_jsonl",
    "read_jsonl_part",
    "read_jsonl_text",
    "write_jsonl",
]
