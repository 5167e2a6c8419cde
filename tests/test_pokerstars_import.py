"""PokerStars text through ``handledger import``: found by content, every hand stored once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import SHARED

TEXT = SHARED / "text"


def test_the_real_files_import_once_and_replay(run, tmp_path: Path) -> None:  # noqa: ANN001
    """All 184 hands of the ten real files; a second import adds nothing; every hand replays
    and the only differences from the rules are the rake the site kept."""
    first = run("import", str(TEXT))
    assert first.exit_code == 0, first.output
    assert "imported 184 hand(s)" in first.output and "0 rejected" in first.output
    assert "warning" not in first.output  # every rake is what the payouts leave out
    again = run("import", str(TEXT))
    assert "imported 0 hand(s) (0 events)" in again.output and "184 already" in again.output
    hands = [json.loads(line) for line in run("replay", "--json").output.splitlines()]
    assert len(hands) == 184
    kinds = [d["kind"] for h in hands for d in h["discrepancies"]]
    assert kinds == ["rake"] * 49  # the site's rake of each raked hand, once; nothing else
    assert run("audit").output.splitlines()[-1] == \
        "audit: 49 discrepancies in 184 hand(s) in 0 session(s) (rake 49)"


def test_a_renamed_file_is_recognised_by_its_content(run, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "night.log"
    shutil.copy(TEXT / "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt", path)
    out = run("import", str(path))
    assert out.exit_code == 0 and "imported 1 hand(s)" in out.output

