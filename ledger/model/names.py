"""Player and session names as a command takes them: kept exactly as typed, never repaired.

A name is the key the books group by (a player's net, a session's stream), so ``"Ann "`` and
``"Ann"`` would be two players that print alike. A name with leading or trailing whitespace,
an empty name, or one holding a control character (a newline, a tab, …) is refused rather
than stripped.
"""

from __future__ import annotations

import unicodedata

from ledger.model.errors import MalformedInput


def check_name(name: str, what: str = "player") -> str:
    """``name`` unchanged when it is a name a command may write; ``what`` says whose
    (``"player"``, ``"session"``) in the refusal.

    Raises:
        MalformedInput: an empty name (or only whitespace), leading or trailing whitespace,
            or a control character (Unicode category C: newline, tab, NUL, …).
    """
    if not name.strip():
        raise MalformedInput(f"a {what} name cannot be empty" + (
            f" (only whitespace: {name!r})" if name else ""))
    if name != name.strip():
        raise MalformedInput(f"{what} name {name!r} has leading or trailing whitespace: names "
                             f"are kept as typed, never repaired (write {name.strip()!r})")
    bad = next((c for c in name if unicodedata.category(c).startswith("C")), None)
    if bad is not None:
        raise MalformedInput(f"{what} name {name!r} holds a control character "
                             f"(U+{ord(bad):04X}): a name is one line of printable text")
    return name
