"""A mistyped action word is named as such, not as a player: ``pya Bob 100`` (a payout to
Bob, ``pay`` mistyped) is refused naming the action word, the words an action starts with
and the one it likely meant; a mistyped player still gets the players it likely meant
(replay/action_text.py). The dispute of data/dispute (Bob paid 400 at seq 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import IllegalAction
from replay.action_text import parse_action
from tests.console_run import handledger

DISPUTE = Path(__file__).parents[1] / "data" / "dispute" / "wrong-push.phh"
WORDS = "(an action starts with a player, or with d, pay, returned, rake or end)"


def test_a_mistyped_action_word_is_not_called_a_player(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    assert handledger(db, "import", str(DISPUTE))[0] == 0
    said = {text: handledger(db, "whatif", "dispute-1", "--replace", "23", text)
            for text in ("pya Bob 100", "xyz p2 100", "pay Bbo 100", "Bbo cc")}
    assert said == {
        "pya Bob 100": (2, "", "error: hand dispute-1: replace 23 'pya Bob 100': unknown "
                               f"action word 'pya': did you mean pay? {WORDS}\n"),
        "xyz p2 100": (2, "", "error: hand dispute-1: replace 23 'xyz p2 100': unknown "
                              f"action word 'xyz' {WORDS}\n"),
        "pay Bbo 100": (2, "", "error: hand dispute-1: replace 23 'pay Bbo 100': unknown "
                               "player 'Bbo': did you mean Bob?\n"),
        "Bbo cc": (2, "", "error: hand dispute-1: replace 23 'Bbo cc': unknown player 'Bbo': "
                          "did you mean Bob?\n")}


def test_a_mistyped_word_before_a_name_the_reads_show_is_the_action_word() -> None:
    """``Phzd Juwvifsvh`` (two words, stored as his PokerNow id) named after a mistyped
    ``pay``."""
    names = {"Bq7QhNKAYJ": "Phzd Juwvifsvh", "1RhUayZFQU": "Hznmh#9009"}
    seated = ["Bq7QhNKAYJ", "1RhUayZFQU"]
    with pytest.raises(IllegalAction) as caught:
        parse_action(None, "pya Phzd Juwvifsvh 100", names, seated=seated)
    assert caught.value.reason == f"unknown action word 'pya': did you mean pay? {WORDS}"
