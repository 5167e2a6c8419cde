"""A value put into a command a message suggests (``handledger act 'h 1' end``): one word a
reader can paste into a POSIX shell as it is printed."""

from __future__ import annotations

import re
import shlex

#: Characters a shell word holds bare: :func:`shlex.quote`'s, and letters and digits of any
#: script (``Zoë``, ``李雷``), which no shell reads as special.
_BARE = re.compile(r"[\w@%+=:,./-]+")


def shell_arg(value: object) -> str:
    """``value`` as one shell word: ``Ann``, ``fri``, ``Zoë`` and ``h-1`` as they are,
    anything else quoted by :func:`shlex.quote` (``'x y'``, ``'O'"'"'Brien'``, ``''``)."""
    text = str(value)
    return text if _BARE.fullmatch(text) else shlex.quote(text)
