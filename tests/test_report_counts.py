"""What the ``report`` pages count and name, as the CLI does: the audit's findings of hands of
no session counted once, a session with a hand in play not shown as owing, PokerNow players
named in the books of a session page (hand-checked)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT
from tests.test_report import ok


def test_findings_of_hands_of_no_session_count_once(tmp_path: Path) -> None:
    """``wrong-push.phh`` is one hand of no session with two payout findings (Ann paid 0 for
    300, Bob 400 for 100): the index counts 2, not the no-session entry's 2 again."""
    db = tmp_path / "r.duckdb"
    ok(db, "import", str(ROOT / "data" / "dispute" / "wrong-push.phh"))
    ok(db, "report", str(tmp_path / "site"))
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a href="#audit">Audit (2)</a>' in index
    assert re.search(r'✗ 2 finding\(s\)</span>: <span class="kind">payout</span> 2\.', index)
    assert "finding(s)</span>: <span class=\"kind\">payout</span> 4" not in index
