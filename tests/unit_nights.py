"""The README's night (a session of chips of 0.25 USD, :data:`tests.test_books_trust.NIGHT`)
and the nights after it that the tests of chip units read (a session of another chip value
or currency), each built once a test session (:mod:`tests.once`) and copied for a test."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.once import steps_once
from tests.test_books_trust import NIGHT


def night_and(factory: pytest.TempPathFactory, target: Path, name: str = "night",
              steps: Sequence[Sequence[str]] = ()) -> Path:
    """A copy at ``target`` of the ledger of :data:`NIGHT` and then ``steps`` (``name`` names
    that ledger: the same name, the same steps); returns ``target``."""
    night = steps_once(factory, "night", *NIGHT)
    built = steps_once(factory, name, *steps, base="night") if steps else night
    return copy_ledger(built, target)
