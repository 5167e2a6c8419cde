"""The keys a PHH hand table may hold (FORMATS.md §1).

A key is a field of the PHH specification (the optional fields pokerkit's
``pokerkit.notation.HandHistory`` reads, ``time_zone_abbreviation`` and ``rake`` among them) or
a user extension, whose name starts with ``_`` (ours: ``_declare``, ``_expected``, …). Any
other key is most likely a field misspelt (``winings``), which read as an extension would
store the hand without what the field says (no payouts, seat labels for names), so
:func:`check_keys` refuses the hand. Two kinds of keys are read as they are: the keys the
reader itself refuses with a reason of its own (``file``, ``line``, …: reserved), and every key
of a hand of the ledger's own PHH export (``_hand_id``), which writes back as top-level keys
the metadata of hands other formats gave it (a PokerStars hand's ``button_seat``, a PokerNow
hand's ``your_hand``, …).
"""

from __future__ import annotations

import difflib
import re

from ledger.formats.phh.base import RESERVED_SOURCE_KEYS
from ledger.formats.phh.fields import MODELLED, RawHand

#: The PHH specification's fields, required and optional (FORMATS.md §1).
PHH_FIELDS = frozenset(key for key in MODELLED if not key.startswith("_")) | {
    "ante_trimming_status", "author", "event", "url", "venue", "address", "city", "region",
    "postal_code", "country", "time", "time_zone", "time_zone_abbreviation", "day", "month",
    "year", "hand", "level", "seat_count", "table", "currency_symbol", "time_limit",
    "time_banks", "rake",
}


def check_keys(raw: RawHand) -> None:
    """Refuse a hand table holding a key that is neither a PHH field nor ``_``-prefixed
    (reserved keys and a hand of our export aside: see the module doc).

    Raises:
        MalformedInput: at the key's line, naming the key and the closest field (``unknown
            key 'winings' (did you mean 'winnings'?)``); a table inside the hand that holds
            a ``variant`` (``[1.2]`` typed for ``[2]``) is refused as a hand inside a hand,
            at its header's line.
    """
    if "_hand_id" in raw.table:  # our export: other formats' metadata, written back
        return
    for key, value in raw.table.items():
        if key in PHH_FIELDS or key.startswith("_") or key in RESERVED_SOURCE_KEYS:
            continue
        if isinstance(value, dict) and "variant" in value and raw.section is not None:
            name = f"{raw.section}.{key}"
            raise raw.error(f"table [{name}] is a hand inside the hand [{raw.section}]: a "
                            "hand is a top-level table of its own ([1], [2], …; FORMATS.md §1)",
                            line=_header_line(raw, key))
        close = difflib.get_close_matches(key, sorted(PHH_FIELDS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise raw.error(f"unknown key {key!r}{hint}: not a PHH field, and a key of one's own "
                        "starts with '_' (FORMATS.md §1)", key)


def _header_line(raw: RawHand, key: str) -> int:
    """The line of the header ``[section.key]`` in the hand's text (its header line when not
    found). The text of a hand of a ``.phhs`` starts on the line after its header."""
    pattern = re.compile(rf"[ \t]*\[[ \t]*['\"]?{re.escape(str(raw.section))}['\"]?[ \t]*\.[ \t]*"
                         rf"['\"]?{re.escape(key)}['\"]?[ \t]*\]")
    for number, text in enumerate(raw.text.split("\n"), raw.line + 1):
        if pattern.match(text):
            return number
    return raw.line


_SET_KEY_RE = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=")


def two_hands_said(message: str, text: str) -> str:
    """``message``, tomllib's refusal of a ``.phh``'s ``text`` (``Cannot overwrite a value (at
    line 9, column 15)``), with a hint when the key set twice is a hand's (a PHH field,
    ``variant``, ``actions``, …): two hands in one file (``cat a.phh b.phh``), which is a
    ``.phhs`` of hands under headers of their own (FORMATS.md §1); else ``message`` as it is."""
    from ledger.formats.phh.scan import toml_error_line

    line = toml_error_line(message)
    if not message.startswith("Cannot overwrite a value") or line is None:
        return message
    lines = text.split("\n")
    found = _SET_KEY_RE.match(lines[line - 1]) if line <= len(lines) else None
    if found is None or found[1] not in PHH_FIELDS:
        return message
    return (f"{message} (two hands in one .phh? a file of several hands is a .phhs, each hand "
            "under its own [N] header)")
