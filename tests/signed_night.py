"""The signed dispute night two test modules build: ``data/dispute/wrong-push.phh`` (hand
dispute-1, rows 1-24) corrected (seq 25), the correction undone (26) and made again (27),
each signed by key ``floor``; then ``data/hands/plo-three-way.phh`` (hand :data:`PLO`, rows
28-53) voided (rows 54-55: the correction that takes back its end, then the void)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA

PLO = "phh-e90348620d79"
FIX = ("--replace", "23", "pay Bob 100", "--insert-after", "23", "pay Ann 300")


def signed_night(base: Path, *, void_signed: bool, after: tuple[str, ...] = ()
                 ) -> tuple[Path, Path]:
    """Build the night (module doc) in ``base``: the ledger and the key directory.
    ``void_signed``: the void signed by floor too; ``after``: one more command's arguments
    (``("checkpoint", "--sign", "floor")``), none if empty. Every command must exit 0."""
    from cli.main import cli

    db, keys = base / "t.duckdb", base / "keys"

    def hl(*args: str) -> None:
        result = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)

    sign = ("--sign", "floor")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDLEDGER_KEYS", str(keys))
        hl("key", "new", "floor")
        hl("import", str(DATA / "dispute" / "wrong-push.phh"))
        hl("correct", "dispute-1", *FIX, "--reason", "Ann's aces", "--by", "floor", *sign)
        hl("undo", "dispute-1", "--by", "floor", *sign)
        hl("correct", "dispute-1", *FIX, "--reason", "Ann's aces, again", "--by", "floor",
           *sign)
        hl("import", str(DATA / "hands" / "plo-three-way.phh"))
        hl("void", PLO, "--reason", "misdeal", "--by", "floor", *(sign if void_signed else ()))
        if after:
            hl(*after)
    return db, keys
