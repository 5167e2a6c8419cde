"""A small run of each bad-input campaign of ``bench/fuzz.py`` (the README reports the big ones).

* Mutated PHH, JSON-lines, PokerNow and PokerStars files of every kind of
  :mod:`bench.mutations` (a byte that is not UTF-8, nesting 1,000 deep, a lone surrogate, a
  CSV field over 128 KiB, a 2 MB line, a zip archive, names that are not UTF-8, a link to
  ``/dev/zero``, a pipe, …) imported as the command imports them, some in real processes:
  exit 0 or 2, every stderr line an ``error:`` line or a ``warning:`` line of a hand the
  ledger holds (a PokerNow hand stored as logged), no traceback, only whole hands written
  after an unmoved head, the chain intact.
* Every command with odd arguments: exit 0, 1 or 2, the same stderr rule, the chain intact.
* Damaged copies of a ledger file read by five commands in real processes: the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import fuzz
from bench.mutations import FORMATS, MUTATORS


def test_mutated_files_of_every_format_and_kind(tmp_path: Path) -> None:
    counts, failures = fuzz.import_campaign(60, seed=11, out=tmp_path, every=10)
    assert failures == []
    assert counts["tried"] == 60 and counts["processes"] >= 6
    for fmt in FORMATS:
        assert counts[f"{fmt}:rejected"], fmt  # each format refused some files
        assert counts[f"{fmt}:accepted"] + counts[f"{fmt}:partly"], fmt  # and took some
    tried = {key.split(":")[1] for key in counts if key.startswith("kind:")}
    assert tried >= set(MUTATORS), set(MUTATORS) - tried


def test_odd_arguments_to_every_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    # the campaign sets $HANDLEDGER_KEYS for its commands: put back as it was after the test
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    counts, failures = fuzz.argument_campaign(60, seed=12, out=tmp_path, every=30)
    assert failures == []
    assert counts["tried"] == 60 and counts["exit:2"] and counts["exit:0"]


def test_damaged_ledger_files(tmp_path: Path) -> None:
    counts, failures = fuzz.ledger_campaign(2, seed=13, out=tmp_path)
    assert failures == []
    assert counts["tried"] == 10
