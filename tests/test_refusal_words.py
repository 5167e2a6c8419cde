"""A refusal names what the file says: the cards a player was dealt (all of them), the most
he could bet to, a site's action in the file's own words and at its line, a card shown that
the board deals at the show's line (no chips note beside a reason with no amount), the line
of a hand whose currency is not its session's. And a player whose name has a space (a
televised hand's ``Phil Ivey``) can be named in an action, as ``show`` prints him."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import one_shot

DWAN = SHARED / "phh" / "televised" / "test_papers" / "test_dwan_ivey_2009.phh"
NLHE = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
EUR = SHARED / "text" / "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"


def _refused(tmp_path: Path, path: Path, *args: str) -> str:
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", *args, str(path))
    assert code == 2
    assert out.endswith("1 rejected\n")
    return err


def _edited(tmp_path: Path, source: Path, name: str, old: str, new: str, count: int = 1
            ) -> Path:
    text = source.read_text(encoding="utf-8")
    assert text.count(old) >= count
    path = tmp_path / name
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def test_a_show_names_every_card_the_player_was_dealt(tmp_path: Path) -> None:
    path = _edited(tmp_path, DWAN, "dwan.phh", "'p3 sm 7h6h'", "'p3 sm 7h6d'")
    assert _refused(tmp_path, path).endswith(
        "action 'p3 sm 7h6d': Tom Dwan shows 7h6d but was dealt 7h6h: 6h is not among the "
        "cards shown\n")


def test_a_bet_beyond_the_stack_names_the_most_he_can_bet_to(tmp_path: Path) -> None:
    # Ivey faces a bet with 90000 in and 977100 behind: all in is a raise to 1067100
    path = _edited(tmp_path, DWAN, "ivey.phh", "'p1 cbr 1067100'", "'p1 cbr 1067200'")
    assert _refused(tmp_path, path).endswith(
        "action 'p1 cbr 1067200': Phil Ivey cannot raise to 1067200: only 977100 behind, so at "
        "most to 1067100 (all in)\n")


def test_a_site_action_is_named_in_the_file_s_words(tmp_path: Path) -> None:
    # Hero's raise of 0.05 over k1tt9nM1nd's 0.30 is below the minimum raise to 0.50
    path = _edited(tmp_path, NLHE, "raise.txt", "k1tt9nM1nd: raises $0.20 to $0.30\nHero: folds",
                   "k1tt9nM1nd: raises $0.20 to $0.30\nHero: raises $0.05 to $0.35")
    assert _refused(tmp_path, path) == (
        f"error: {path}:15, hand PokerStars-35824118297, action 'Hero: raises $0.05 to $0.35': "
        "raise to 35 is below the minimum 50 (in chips of 0.01: the file's amounts × 100)\n")


def test_a_shown_board_card_is_refused_at_the_show(tmp_path: Path) -> None:
    # DSOR65 shows the flop's Ac (line 125) at line 130, and the summary says so too
    path = _edited(tmp_path, NLHE, "show.txt", "[Jd Qs]", "[Ac Qs]", 2)
    assert _refused(tmp_path, path) == (
        f"error: {path}:130, hand PokerStars-35824150484: DSOR65 shows Ac Qs, but Ac is a board "
        "card (the flop at line 125 deals it): a card is dealt once\n")


def test_a_hand_in_another_currency_is_refused_at_its_line(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "session", "open", "u", "--chip-value", "0.01", "--currency",
                    "USD")[0] == 0
    assert _refused(tmp_path, EUR, "--session", "u") == (
        f"error: {EUR}:1, hand PokerStars-90721705235: the hand is in EUR, session u in USD: a "
        "session has one currency\n")


def test_a_player_whose_name_has_a_space_is_named_in_an_action(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(DWAN))[0] == 0
    code, out, _ = one_shot(db, "sql", "SELECT hand_id FROM events WHERE seq = 1", "--csv")
    hand = out.split()[1]
    # the file records no winnings: what the table paid, as `show` names the players (Ivey's
    # uncalled 572100 back, Dwan's main pot of 553500 × 2 + 2500 of Antonius's blind and ante)
    named = one_shot(db, "whatif", hand, "--insert-after", "24", "pay Tom Dwan 1109500",
                     "--insert-after", "24", "returned Phil  Ivey 572100", "--json")
    seats = one_shot(db, "whatif", hand, "--insert-after", "24", "pay p3 1109500",
                     "--insert-after", "24", "returned p1 572100", "--json")
    assert named == seats
    assert named[0] == 0 and '"paid_after": {"Phil Ivey": -553500, "Patrik Antonius": -2500, ' \
        '"Tom Dwan": 556000}' in named[1]
    code, _, err = one_shot(db, "whatif", hand, "--insert-after", "24", "pay Phil 572100 x")
    assert (code, err) == (2, (
        f"error: hand {hand}: insert_after 24 'pay Phil 572100 x': 'pay Phil 572100 x': "
        "expected 'pay PLAYER AMOUNT' (a player may be named by the seat too, p1 … pN)\n"))
