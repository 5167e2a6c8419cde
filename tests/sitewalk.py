"""Walking a static site (``handledger report``): every page's links parsed from its HTML and
followed, and what they point at checked (a test helper, also used by bench/report_series.py).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Links(HTMLParser):
    """The ``href`` and ``src`` of every element, and every ``id``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            elif name == "id" and value is not None:
                self.ids.add(value)


def parse(page: Path) -> tuple[list[str], set[str]]:
    """``(links, ids)`` of the page at ``page``."""
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    return parser.links, parser.ids


def walk(index: Path) -> tuple[set[Path], list[str]]:
    """Follow every link from ``index``: every ``href``/``src`` that is not an anchor of the
    page itself must name a file that exists (relative, no scheme: a static site works from
    disk), and one with ``#fragment`` an element of that id; pages (``.html``) are walked in
    turn. Returns the files reached (``index`` included) and what was wrong, one line each.
    """
    index = index.resolve()
    seen = {index}
    todo = [index]
    broken: list[str] = []
    ids: dict[Path, set[str]] = {}
    fragments: list[tuple[Path, Path, str]] = []
    while todo:
        page = todo.pop()
        links, ids[page] = parse(page)
        for link in links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                broken.append(f"{page.name}: {link} is not a relative link")
                continue
            if not parts.path:  # an anchor of the page itself
                fragments.append((page, page, unquote(parts.fragment)))
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(index.parent)}: {link} does not exist")
                continue
            if parts.fragment:
                fragments.append((page, target, unquote(parts.fragment)))
            if target not in seen:
                seen.add(target)
                if target.suffix == ".html":
                    todo.append(target)
    for page, target, fragment in fragments:
        if fragment and fragment not in ids.get(target, set()):
            broken.append(f"{page.relative_to(index.parent)}: #{fragment} is not in "
                          f"{target.relative_to(index.parent)}")
    return seen, broken
