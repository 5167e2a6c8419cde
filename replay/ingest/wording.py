"""A command's refusal said of a file's row (README "JSON lines": a row is held to the rules of
the command that writes it, and one refused refuses its file whole, nothing of it written).

A command's refusal says ``nothing written`` when it says what was written; a file's says it
once, of the whole file."""

from __future__ import annotations

#: What a file's refusal says was written.
NOTHING = "nothing of the file was written"


def of_the_file(message: str, rule: str = "") -> str:
    """``message``, a command's refusal (``…; nothing written (a hint)``), as the refusal of a
    file's row: its ``nothing written`` made :data:`NOTHING`, ``rule`` (``"a file's correction
    of a book entry is held to `entry amend`'s rules"``) after it; a message that says nothing
    of what was written gets ``rule`` and :data:`NOTHING` at its end (``rule: nothing of the
    file was written``)."""
    if "nothing written" in message:
        return message.replace("nothing written", NOTHING, 1) + (f"; {rule}" if rule else "")
    return f"{message}; {rule}: {NOTHING}" if rule else f"{message}; {NOTHING}"
