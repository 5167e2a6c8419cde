"""How the application reports progress: a function the caller passes in (the CLI passes a
progress bar), so that the application never prints.

A :data:`Progress` is called with a label and the total (None when unknown) and returns a
context manager that yields ``tick()``, called once per unit of work done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

Progress = Callable[[str, "int | None"], AbstractContextManager[Callable[[], None]]]


@contextmanager
def silent(label: str, total: int | None = None) -> Iterator[Callable[[], None]]:
    """A :data:`Progress` that shows nothing."""
    yield lambda: None
