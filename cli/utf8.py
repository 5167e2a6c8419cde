"""Text arguments must be UTF-8: a byte that is not (Python keeps it as a lone surrogate) can
be held by no event and looked up by no query. Used by every command's text arguments
(:func:`cli.main._text_only`) and by each line ``table`` reads (:mod:`cli.cmd_live`)."""

from __future__ import annotations

from ledger.model.errors import MalformedInput


def is_utf8(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped(text: str) -> str:
    """``text`` with the bytes that are not UTF-8 written ``\\xNN``."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def check_utf8(text: str, shown: str) -> str:
    """``text`` when it is UTF-8.

    Raises:
        MalformedInput: ``SHOWN 'TEXT' is not UTF-8 text (it has a byte that is not)``, the
            text with that byte written ``\\xNN`` (``shown``: the argument's name, as
            ``ACTION`` or ``--session``).
    """
    if not is_utf8(text):
        raise MalformedInput(f"{shown} '{escaped(text)}' is not UTF-8 text (it has a byte "
                             "that is not)")
    return text
