"""A JSON-lines hand whose currency is written in lower case (``"currency":"usd"``) stores
and exports its ISO 4217 code, USD, as a PHH file's ``currency = 'usd'`` is read, and as
``--currency`` takes only the code; the hand is the same hand as its export with USD."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

RAZZ = SHARED / "text" / "Stars-cash-Razz-USD-0.04-0.08-200911.txt"
HAND = "PokerStars-35874566077"
KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"


def test_a_lower_case_currency_is_stored_as_its_code(tmp_path: Path) -> None:
    a = tmp_path / "a.duckdb"
    assert one_shot(a, "import", str(RAZZ))[0] == 0
    code, text, _ = one_shot(a, "export", "--format", "jsonl", HAND)
    assert code == 0 and text.count('"currency":"USD"') == 1
    lower = tmp_path / "lower.jsonl"
    lower.write_text(text.replace('"currency":"USD"', '"currency":"usd"'))
    b = tmp_path / "b.duckdb"
    code, out, err = one_shot(b, "import", str(lower))
    assert (code, err) == (0, "")
    assert out.startswith("imported 1 hand(s) (")
    started = json.loads(events(b)[0][6])
    assert started["unit"] == {"currency": "USD", "decimals": 2, "minor_per_chip": 1}
    assert one_shot(b, "export", "--format", "jsonl", HAND) == (0, text, "")  # as a had it
    code, phh, _ = one_shot(b, "export", "--format", "phh", HAND)
    assert code == 0 and "currency = 'USD'\n" in phh and "'usd'" not in phh
    assert one_shot(b, "import", str(lower)) == (0, KNOWN, "")
    upper = tmp_path / "upper.jsonl"
    upper.write_text(text)
    assert one_shot(b, "import", str(upper)) == (0, KNOWN, "")
