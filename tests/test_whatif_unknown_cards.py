"""`whatif` and `correct` of a showdown that cannot be checked (unknown hole cards) say what
`replay` says: the rules' result is not known (never the net as paid in its place), the legal
splits of the pot the rules cannot award, and whether the payouts are one of them
(replay/unknown_rules.py, docs/GAMES-RULES.md "Unknown hole cards").

The PokerNow log's hand 21: Phzd Juwvifsvh folds after 75; gaxdqwmwksve is all in for 85 and
his cards are never shown; Hznmh#9009 and Aab Ovwsi put in 1245 each and Hznmh#9009 shows a
flush. Main pot 85 * 3 + 75 = 330 (Hznmh#9009, Aab Ovwsi, gaxdqwmwksve: cannot be checked),
side pot (1245 - 85) * 2 = 2320 (Hznmh#9009 wins it). The table paid Hznmh#9009 330 (seq 26)
and 2320 (seq 27): the main pot whole to one, a legal split. Paid 300 and Aab Ovwsi 30
instead (2620 and 30), no legal split pays it: 330 goes whole to one, 165 each to two or 110
each to three."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED

LOG = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
HAND = "pn-valakuzhyk_07_21_2022_log1-21-165843907408700"
ILLEGAL = ("--replace", "26", "pay Hznmh#9009 300", "--insert-after", "26", "pay Aab Ovwsi 30")
#: the main pot split evenly between the two who went to the river: a legal split
LEGAL = ("--replace", "26", "pay Hznmh#9009 165", "--insert-after", "26", "pay Aab Ovwsi 165")
NO_SPLIT = (f"hand {HAND}: no legal split of the pots pays what the table paid "
            "(Hznmh#9009 2620, Aab Ovwsi 30)")
SPLITS = ("main pot 330 (Hznmh#9009, Aab Ovwsi, gaxdqwmwksve): 330 to one, 165 each to two "
          "who tie, 110 each to three (RULES.md §2.1)")
#: the players as the text and --json name them (the ledger keeps their PokerNow ids,
#: 1RhUayZFQU, gKyQzJRs7T, hoL3fbolcH, Bq7QhNKAYJ)
HZNMH, AAB, GAXD, PHZD = "Hznmh#9009", "Aab Ovwsi", "gaxdqwmwksve", "Phzd Juwvifsvh"


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pn") / "log.duckdb"
    assert run(db, "import", str(LOG)).exit_code == 0
    return db


@pytest.fixture
def copy(logged: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(logged, tmp_path / "copy.duckdb"))


def test_whatif_gives_no_rules_result_for_the_unknown_cards(logged: Path) -> None:
    out = run(logged, "whatif", HAND, *ILLEGAL)
    assert out.exit_code == 0
    lines = out.output.splitlines()
    rows = {line.split()[0]: line.split()[-6:] for line in lines[3:9]}
    # the rules cannot award the main pot: the three eligible for it have no rules' net, and
    # the correction of payouts leaves the rules' result as it was (+0); the table's nets move
    assert rows["Hznmh#9009"] == ["?", "?", "+0", "+1405", "+1375", "-30"]
    assert rows["Aab"] == ["?", "?", "+0", "-1245", "-1215", "+30"]
    assert rows["gaxdqwmwksve"] == ["?", "?", "+0", "-85", "-85", "+0"]
    assert rows["Phzd"] == ["-75", "-75", "+0", "-75", "-75", "+0"]  # folded: known
    assert lines[9:14] == [
        "  by the rules: not known for Hznmh#9009, Aab Ovwsi, gaxdqwmwksve (showdown not "
        "verifiable: hole cards unknown), the same before and after; a legal split of the "
        "pots pays",
        f"    {SPLITS}",
        "  before: the payouts are a legal split of the pots",
        "  after: the corrected payouts are not a legal split of the pots",
        f"  would be paid differently: {NO_SPLIT}",
    ]


def test_whatif_json_leaves_the_unknown_rules_nets_null(logged: Path) -> None:
    data = json.loads(run(logged, "whatif", HAND, *ILLEGAL, "--json").output)
    unknown = {HZNMH: None, AAB: None, GAXD: None}
    assert data["before"] == data["after"] == {PHZD: -75, **unknown, "IpusyM": 0,
                                               "Efvoziamtgktl": 0}
    assert data["diff"] == dict.fromkeys(data["before"], 0)
    assert data["paid_diff"][HZNMH] == -30 and data["paid_diff"][AAB] == 30
    after = data["rules_unknown"]["after"]
    assert after == {"players": [HZNMH, AAB, GAXD],
                     "pots": [{"pot": "main pot", "amount": 330,
                               "eligible": [HZNMH, AAB, GAXD]}],
                     "hilo": False, "legal_split": False,
                     "why": [f"hand {HAND}: no legal split of the pots pays what the table "
                             f"paid ({HZNMH} 2620, {AAB} 30)"]}
    assert data["rules_unknown"]["before"]["legal_split"] is True
    legal = json.loads(run(logged, "whatif", HAND, *LEGAL, "--json").output)
    assert legal["rules_unknown"]["after"]["legal_split"] is True
    assert legal["discrepancies_after"] == []


def test_correct_says_what_replay_says(copy: Path) -> None:
    out = run(copy, "correct", HAND, *ILLEGAL, "--reason", "split", "--by", "floor")
    assert out.exit_code == 0
    first, second = out.output.splitlines()[:2]
    assert first == (
        f"corrected hand {HAND} (seq 29); change in net: Hznmh#9009 -30, Aab Ovwsi +30; by the "
        "rules: "
        "not known (showdown not verifiable: hole cards unknown), unchanged; the corrected "
        f"payouts are not a legal split of the pots: {NO_SPLIT}")
    assert second == f"  a legal split pays the {SPLITS}"
    replayed = run(copy, "replay", "--hand", HAND, "--json")
    assert replayed.exit_code == 1
    assert [d["message"] for d in json.loads(replayed.output)["discrepancies"]] == [NO_SPLIT]
    back = run(copy, "undo", HAND, "--by", "floor")
    assert back.output.splitlines()[0] == (
        f"undid the correction at seq 29 (by floor: split) in hand {HAND} (seq 30); change in net: "
        "Hznmh#9009 +30, Aab Ovwsi -30; by the rules: not known (showdown not verifiable: "
        "hole cards unknown), unchanged; the payouts now are a legal split of the pots")


def test_correct_to_a_legal_split(copy: Path) -> None:
    out = run(copy, "correct", HAND, *LEGAL, "--reason", "chopped", "--by", "floor")
    assert out.output.splitlines()[0] == (
        f"corrected hand {HAND} (seq 29); change in net: Hznmh#9009 -165, Aab Ovwsi +165; by the "
        "rules: not known (showdown not verifiable: hole cards unknown), unchanged; the "
        "corrected payouts are a legal split of the pots")
    assert run(copy, "replay", "--hand", HAND).exit_code == 0


def test_even_split_words_give_the_odd_chips() -> None:
    from replay.unknown_rules import even_split_words

    assert even_split_words(335, 3) == ("335 to one, 167 each to two who tie (the odd chip to "
                                        "one of them), 111 each to three (an odd chip each "
                                        "to two of them)")
    assert even_split_words(40, 1) == "40 to one"


def test_whatif_that_shows_the_unknown_cards(logged: Path) -> None:
    """gaxdqwmwksve's 4c4d make a full house, fours full of twos (board 8s 3s 2c 2s 4h), over
    Hznmh#9009's flush: the rules now give him the main pot, 330 - 85 = +245, and Hznmh#9009
    only the side pot, 2320 - 1245 = +1075; before, neither was known (no diff either)."""
    out = run(logged, "whatif", HAND, "--insert-after", "25", "gaxdqwmwksve sm 4c4d")
    assert out.exit_code == 0
    lines = out.output.splitlines()
    rows = {line.split()[0]: line.split()[-6:] for line in lines[3:9]}
    assert rows["Hznmh#9009"] == ["?", "+1075", "?", "+1405", "+1405", "+0"]
    assert rows["gaxdqwmwksve"] == ["?", "+245", "?", "-85", "-85", "+0"]
    assert lines[9:13] == [
        "  by the rules before: not known for Hznmh#9009, Aab Ovwsi, gaxdqwmwksve (showdown "
        "not verifiable: hole cards unknown); a legal split of the pots pays",
        f"    {SPLITS}",
        "  before: the payouts are a legal split of the pots",
        f"  would be paid differently: hand {HAND}: Hznmh#9009 was paid 2650, the rules give 2320 "
        "(+330)",
    ]


def test_correct_in_a_closed_session_names_the_finding(tmp_path: Path) -> None:
    """The log imported into session night, closed: the correction that leaves no legal
    split is refused naming that finding in its own words (it is no one player's, and the
    2650 paid are what it pays in all), never ``* paid 2650, the rules give 2650``."""
    db = tmp_path / "closed.duckdb"
    assert run(db, "session", "open", "night").exit_code == 0
    assert run(db, "import", "--session", "night", str(LOG)).exit_code == 0
    assert run(db, "session", "close", "night").exit_code == 0
    hand = HAND.replace("valakuzhyk_07_21_2022_log1", "night")
    out = run(db, "correct", hand, *ILLEGAL, "--reason", "split", "--by", "floor")
    assert out.exit_code == 2
    assert out.output.splitlines()[-1] == (
        f"error: hand {hand}: session night is closed and this leaves hand {hand}, paid by "
        "the rules until now, paid differently (no legal split of the pots pays what the "
        "table paid (Hznmh#9009 2620, Aab Ovwsi 30)): nothing written; --closed records it "
        "anyway")
