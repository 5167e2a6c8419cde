"""The files of HTML pages: their names, written whole or not at all, written only when their
text changed, the key a page carries in its head, and the removal of pages no longer wanted.

A page this application wrote says so in its head (``<meta name="generator"
content="handledger">``) and may carry a key there (``<meta name="handledger-key"
content="<64 hex digits>">``), both within its first 1,024 bytes: :func:`existing_key` reads
the key back, :func:`remove_stale` removes only such pages. Nothing here draws a page.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from pathlib import Path

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_KEY = re.compile(rb'<meta name="handledger-key" content="([0-9a-f]{64})">')
_OURS = b'<meta name="generator" content="handledger">'
_HEAD = 1024  # bytes of a page read to find its key


def page_name(name: str) -> str:
    """A file name (without ``.html``) for a hand or session name: the name itself when it
    is made of letters, digits, ``.``, ``_`` and ``-`` (not first) and at most 100 long;
    otherwise those characters kept (others as ``_``) and ``~`` with a digest of the name,
    so two names never share a file.

    >>> page_name("s01-001"), page_name("<b>")
    ('s01-001', '_b_~507ca5a2')
    """
    if _SAFE.fullmatch(name):
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    kept = _UNSAFE.sub("_", name)[:80]
    if not kept[:1].isalnum():  # never a hidden file (".x") nor one read as an option ("-x")
        kept = "_" + kept[1:]
    return f"{kept}~{digest}"


def file_names(names: Iterable[str]) -> dict[str, str]:
    """``{name: file name}`` (with ``.html``) for every name: :func:`page_name`, and the
    digested form for every name whose file would differ from another's only by case (a
    case-insensitive file system would make them one file)."""
    names = list(names)
    plain = {n: page_name(n) for n in names}
    folded: dict[str, int] = {}
    for f in plain.values():
        folded[f.casefold()] = folded.get(f.casefold(), 0) + 1
    out = {}
    for n, f in plain.items():
        if folded[f.casefold()] > 1 and "~" not in f:
            f = f"{f[:80]}~{hashlib.sha256(n.encode()).hexdigest()[:8]}"
        out[n] = f + ".html"
    return out


def default_file(hand: str) -> str:
    """The page of ``hand`` that ``view`` writes by default: :func:`page_name` and ``.html``,
    as a report names it: ``HAND.html`` for a plain id (``s01-001.html``), else its safe
    characters with ``~`` and a digest (``a/b`` → ``a_b~c14cddc0.html``), so two hands never
    share a file (``a/b`` and ``a_b``)."""
    return page_name(hand) + ".html"


def write_page(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then renamed:
    :func:`ledger.store.outputs.write_whole`).

    Raises:
        OSError: the file cannot be written.
    """
    from ledger.store.outputs import write_whole

    write_whole(path, lambda f: f.write(text.encode("utf-8")))


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` (:func:`write_page`) unless the file holds it already;
    return whether it was written.

    Raises:
        OSError: the file cannot be written.
    """
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_page(path, text)
    return True


def existing_key(path: Path) -> str | None:
    """The key in the head of the page at ``path`` (None: no such file, or no key)."""
    try:
        with path.open("rb") as f:
            head = f.read(_HEAD)
    except OSError:
        return None
    m = _KEY.search(head)
    return m.group(1).decode() if m else None


def remove_stale(folder: Path, keep: set[str],
                 spare: Callable[[Path], object] = lambda p: None) -> int:
    """Remove the pages in ``folder`` this application wrote that are not in ``keep`` (a page
    of a hand or session no longer in the ledger), and temporary files of interrupted writes;
    return how many files were removed. A file for which ``spare`` is true (the ledger file
    and its write-ahead log: :meth:`ledger.store.outputs.LedgerFiles.which`) is never
    removed, whatever its name.

    Raises:
        OSError: a file cannot be removed.
    """
    removed = 0
    for p in folder.iterdir():
        if spare(p):  # not even opened: closing it would drop DuckDB's lock on it
            continue
        stale = p.name.startswith(".") and p.name.endswith(".tmp")
        if not stale and p.suffix == ".html" and p.name not in keep and p.is_file():
            with p.open("rb") as f:
                stale = _OURS in f.read(_HEAD)
        if stale:
            p.unlink()
            removed += 1
    return removed
