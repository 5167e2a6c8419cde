"""A site text whose own summary disagrees with its lines is a ``site_summary`` finding of the
audit (FORMATS.md, docs/SQL.md): the reader kept the summary's totals beside what the lines
put in and collected, and nothing reported the difference. The books follow the lines.

The hand: PokerStars #42875758685 (``allinWithAmtReturned``): 490 chips (0.01 USD) put in,
Player2 collects 470, rake 20; the summary says ``Total pot $4.90 | Rake $0.20`` and
``won ($4.70)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pokerstars_helpers import hand_texts

HAND = "PokerStars-42875758685"


def _summary(player: str | None, expected: int, actual: int, words: str) -> dict:
    return {"kind": "site_summary", "session": None, "hand": HAND, "player": player,
            "name": player, "expected": expected, "actual": actual,
            "message": f"hand {HAND}: the site's summary disagrees with its own lines: {words}",
            "unit": "chips", "chip_value_minor": 1, "decimals": 2, "currency": "USD"}


@pytest.fixture(scope="module")
def text() -> str:
    return hand_texts("Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt")[
        f"PokerStars-{HAND.rsplit('-', 1)[1]}"]


def _audit(user, tmp_path: Path, text: str) -> tuple[int, list[dict]]:  # noqa: ANN001
    path = tmp_path / "hand.txt"
    path.write_text(text)
    assert user("import", str(path))[0] == 0
    code, out, _ = user("audit", "--json")
    return code, json.loads(out)["discrepancies"]


def test_a_summary_that_adds_up_gives_no_finding(user, tmp_path: Path, text: str) -> None:  # noqa: ANN001
    assert _audit(user, tmp_path, text) == (0, [])  # paid the pot less the rake, no finding


def test_a_total_pot_edited_is_named_twice(user, tmp_path: Path, text: str) -> None:  # noqa: ANN001
    edited = text.replace("Total pot $4.90", "Total pot $4.99", 1)
    assert _audit(user, tmp_path, edited) == (1, [
        _summary(None, 490, 499, "the actions put 490 in the pot, the summary says 499 (+9)"),
        _summary(None, 490, 499, "collected 470 + rake 20 = 490, the total pot is 499 (+9)"),
    ])
    code, out, _ = user("audit")
    assert out.splitlines()[-1] == ("audit: 2 discrepancies (site_summary 2); "
                                    "1 hand(s) in 0 session(s) checked")


def test_a_players_summary_amount_edited_names_him(user, tmp_path: Path, text: str) -> None:  # noqa: ANN001
    """The lines still collect 470 for him: the books are as before (the pot less the rake)."""
    edited = text.replace("won ($4.70)", "won ($4.80)", 1)
    assert _audit(user, tmp_path, edited) == (1, [
        _summary("Player2", 470, 480, "Player2: the summary says 480, the lines "
                       "collected 470")])


def test_a_source_not_shaped_as_the_reader_writes_it_is_not_compared(
        user, tmp_path: Path, text: str, capsys: pytest.CaptureFixture) -> None:  # noqa: ANN001
    """A JSON-lines file may carry any ``source``: a total pot that is text is no summary
    this reader wrote, and the audit neither fails on it nor names it."""
    assert _audit(user, tmp_path, text)[0] == 0
    code, out, _ = user("export")
    rows = [json.loads(line) for line in out.splitlines()]
    (started,) = [r["event"] for r in rows if "seats" in r["event"]]
    started["source"]["site_total_pot"] = "abc"
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(r) + "\n" for r in rows))
    from cli.main import run as run_main

    capsys.readouterr()
    assert run_main(["--db", str(tmp_path / "other.duckdb"), "import", str(other)]) == 0
    capsys.readouterr()
    assert run_main(["--db", str(tmp_path / "other.duckdb"), "audit", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["discrepancies"] == []  # the rake alone
