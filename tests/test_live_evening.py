"""What a fresh user met recording a live evening with ``hand start``, ``act`` and ``table``,
each now refused or said as the table means it: a big blind forgotten in ``--stakes`` (RULES.md
§4.2), a flop typed in pieces (§4, FORMATS.md §1), a stud bring-in player short of the
bring-in (§1.1, §4.1), a declaration that is no declaration and one out of turn (§3.2-3.3,
§3.6), and the minimum bet of a straddled game (§4.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.model import events as ev
from ledger.store.store import Ledger
from tests.conftest import SHARED

EVENING = ("--game", "NT", "--seats", "Ann:293,Bob:197,Cy:186,Dee:47,Eve:348", "--button", "Cy")
ONE_BLIND = ("error: --stakes '2' is one blind, no big blind: {game} posts a small and a big "
             "blind (RULES.md §4.2): give both, like --stakes 1/2 (small/big, a straddle "
             "third: 1/2/4), or no --stakes for a game of antes alone (--antes, --min-bet)\n")


def _rows(db: str) -> list[tuple[str | None, int, str]]:
    with Ledger(db, read_only=True) as ledger:
        return [(r.stream, r.seq, r.event.type) for r in ledger.stored()]


def test_the_evening_s_single_blind_is_refused_and_no_ledger_is_made(user, db: str  # noqa: ANN001
                                                                     ) -> None:
    """The host's command, the big blind forgotten: it started the hand with Dee's small
    blind alone and told Eve "to call 2, raise to 4"."""
    assert user("hand", "start", "--stakes", "2", *EVENING) == (2, "",
                                                               ONE_BLIND.format(game="NT"))
    assert not Path(db).exists()


@pytest.mark.parametrize(("game", "more"), [
    ("FO/8", ("--small-bet", "2", "--big-bet", "4")),  # fixed limit: the bets are given apart
    ("N5D", ()),  # a draw game with blinds
])
def test_one_blind_is_refused_in_flop_and_draw_games(user, db: str, game: str,  # noqa: ANN001
                                                     more: tuple[str, ...]) -> None:
    Ledger(db).close()
    assert user("hand", "start", "--hand", "h", "--game", game, "--stakes", "2", *more,
                "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Cy") == (
        2, "", ONE_BLIND.format(game=game))
    assert _rows(db) == []


def test_antes_alone_and_both_blinds_still_start(user, db: str) -> None:  # noqa: ANN001
    """No --stakes with antes and a minimum bet, and a stud hand, are what they were; two
    blinds and a straddle post each."""
    assert user("hand", "start", "--hand", "a", "--antes", "1", "--min-bet", "2", *EVENING
                )[:2] == (0, "a\n")
    # each voided before the next seats its players (one hand at a time, RULES.md §1.1)
    assert user("void", "a", "--reason", "a new deal", "--by", "host")[0] == 0
    assert user("hand", "start", "--hand", "b", "--game", "F7S", "--antes", "1", "--bring-in",
                "1", "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100")[:2] \
        == (0, "b\n")
    assert user("void", "b", "--reason", "a new deal", "--by", "host")[0] == 0
    assert user("hand", "start", "--hand", "c", "--stakes", "1/2/4", *EVENING)[:2] == (0, "c\n")
    with Ledger(db, read_only=True) as ledger:
        posted = [(r.event.player, r.event.kind, r.event.amount) for r in ledger.read("c")
                  if r.event.type == "forced_bet"]
    assert posted == [("Dee", "small_blind", 1), ("Eve", "big_blind", 2), ("Ann", "straddle", 4)]


def test_a_hand_file_with_one_blind_imports_as_before(user, db: str, tmp_path: Path  # noqa: ANN001
                                                      ) -> None:
    """Real files post a single blind: limit Omaha hi-lo with one blind, short deck's button
    blind (FORMATS.md §1); and the same hands as JSON lines."""
    files = [SHARED / "phh" / "televised" / "test_2023_43_5" / "test_76_03_22_08.phh",
             SHARED / "phh" / "televised" / "test_papers" / "test_phua_xuan_2019.phh"]
    code, out, err = user("import", *map(str, files))
    assert (code, err) == (0, "")
    assert out.startswith("imported 2 hand(s)")
    lines = tmp_path / "one-blind.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(lines))[0] == 0
    code, out, err = user("--db", str(tmp_path / "again.duckdb"), "import", str(lines))
    assert (code, err) == (0, "")
    assert out.startswith("imported 2 hand(s)")


@pytest.fixture
def flop_next(user, db: str) -> str:  # noqa: ANN001
    """Hand h1 (1/2, Cy on the button) checked through before the flop: the flop is next."""
    assert user("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:200,Bob:150,Cy:300", "--button", "Cy")[0] == 0
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 8c2d", "Cy cc", "Ann cc",
                   "Bob cc"):
        assert user("act", "h1", action)[0] == 0
    return db


def test_a_flop_in_pieces_is_refused_naming_its_three_cards(user, flop_next: str  # noqa: ANN001
                                                             ) -> None:
    before = _rows(flop_next)
    assert user("act", "h1", "d db Qs7d") == (
        2, "", "error: hand h1, action 'd db Qs7d': the flop is 3 cards, not 2: deal it in one "
        "line, d db Qs7d and the third card (?? for an unseen one: d db Qs7d??); now: phase "
        "deal, next: d db CARDS (3 cards)\n")
    assert _rows(flop_next) == before
    # at the table the host types the whole flop next, as he meant it: it goes in
    code, out, err = user("table", "h1", input="d db Qs7d\nd db Qs7d3c\n")
    assert (code, out) == (2, "")  # input not from a terminal stops at its refused line
    assert err.startswith("error: line 1, hand h1, action 'd db Qs7d': the flop is 3 cards, not 2")
    assert user("table", "h1", input="d db Qs7d3c\nAnn cc\n") == (
        0, "10 cards_dealt; Ann to act: check, bet to 2..198\n"
        "11 check; Bob to act: check, bet to 2..148\n", "")


def test_a_board_run_twice_is_dealt_a_street_at_a_time(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.5: all-in before the flop and run twice, each run's flop is three cards."""
    assert user("hand", "start", "--hand", "r1", "--game", "NT", "--stakes", "1/2", "--seats",
                "A:100,B:100", "--button", "A")[0] == 0
    for action in ("d dh B KsKd", "d dh A AsAd", "A cbr 100", "B cc", "d rc 2",
                   "d db JhTc2s"):
        assert user("act", "r1", action)[0] == 0
    assert user("act", "r1", "d db 9h") == (
        2, "", "error: hand r1, action 'd db 9h': the flop of run 2 is 3 cards, not 1: deal it "
        "in one line, d db 9h and the other 2 cards (?? for each unseen one: d db 9h????); "
        "now: phase deal, next: d db CARDS (3 cards, run 2)\n")


def test_a_board_held_in_part_is_named_when_its_cards_are_dealt_again(
        user, flop_next: str) -> None:  # noqa: ANN001
    """A hand that holds part of its flop (recorded before the flop had to be whole, or
    imported in play): the whole flop typed again was "card Qs is dealt twice"."""
    with Ledger(flop_next) as ledger:
        last = len(ledger.read_recent("h1"))
        ledger.append("h1", [ev.CardsDealt(player=None, cards=["Qs", "7d"])], hand_id="h1",
                      expected_seq=last)
    assert user("act", "h1", "d db Qs7d3c") == (
        2, "", "error: hand h1, action 'd db Qs7d3c': the board already holds Qs7d: the flop "
        "needs 1 card more (d db 3c); now: phase deal, next: d db CARDS (1 card)\n")
    assert user("act", "h1", "d db 3c")[:2] == (0, "11 cards_dealt; Ann to act: check, bet to "
                                                   "2..198\n")


def test_a_flop_in_pieces_still_imports_from_a_hand_file(user, tmp_path: Path) -> None:  # noqa: ANN001
    """The engine's rules for a file are unchanged: a PHH hand may deal a street in pieces."""
    path = tmp_path / "pieces.phh"
    path.write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cc', "
        "'p1 cc', 'd db Qs7d', 'd db 3c', 'p1 cc', 'p2 cc', 'd db 4h', 'p1 cc', 'p2 cc', "
        "'d db 5s', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm QhQd']\n")
    code, out, err = user("import", str(path))
    assert (code, err) == (0, "")
    assert out.startswith("imported 1 hand(s)")


def test_a_bring_in_player_short_of_the_bring_in_posts_all_he_has(user, db: str  # noqa: ANN001
                                                                  ) -> None:
    """Ann (3 chips, ante 1) has the low card against a bring-in of 3: she can post only 2,
    all-in; she was told "bring in 3 (pb), complete to 2..2"."""
    assert user("hand", "start", "--hand", "s1", "--game", "F7S", "--antes", "1", "--bring-in",
                "3", "--small-bet", "5", "--big-bet", "10", "--seats",
                "Ann:3,Bob:100,Cy:100")[0] == 0
    for action in ("d dh Ann AsKs2c", "d dh Bob QhQd9h"):
        assert user("act", "s1", action)[0] == 0
    short = "Ann to act: bring in 2 (pb), all-in: all Ann has, short of the bring-in 3"
    assert user("act", "s1", "d dh Cy 7c7dTs") == (0, f"7 cards_dealt; {short}\n", "")
    assert user("state", "s1")[1].splitlines()[1] == short
    assert user("act", "s1", "Ann pb") == (0, "8 forced_bet; Bob to act: to call 3, complete "
                                              "to 5..5\n", "")


def test_a_short_all_in_bring_in_leaves_the_full_bring_in_to_call(user, db: str  # noqa: ANN001
                                                                  ) -> None:
    """RULES.md §4.1, §4.2, §1.1-1.2: Ann (2 chips, ante 1) brings it in all-in for 1, short of
    the bring-in 2; the bring-in stays the structure's, so Bob and Cy call 2 (not 1) and
    check it down. In: Ann 1 + 1 = 2, Bob 1 + 2 = 3, Cy 1 + 2 = 3. Main pot 2 x 3 = 6 (Ann's
    eight-high straight), side pot 1 + 1 = 2 for Bob and Cy (Bob's nines beat Cy's aces and
    sevens): Ann 6, Bob 97 + 2 = 99, Cy 97."""
    assert user("hand", "start", "--hand", "s3", "--game", "F7S", "--antes", "1", "--bring-in",
                "2", "--small-bet", "4", "--big-bet", "8", "--seats",
                "Ann:2,Bob:100,Cy:100")[0] == 0
    deal = ["d dh Ann 2c3d4h", "d dh Bob 9s9hKd", "d dh Cy 7c7dAs"]
    code, out, err = user("table", "s3", input="".join(f"{x}\n" for x in [*deal, "Ann pb"]))
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        "7 cards_dealt; Ann to act: bring in 1 (pb), all-in: all Ann has, short of the "
        "bring-in 2",
        "8 forced_bet; Bob to act: to call 2, complete to 4..4"]
    assert user("act", "s3", "Bob cc")[1] == "9 call; Cy to act: to call 2, complete to 4..4\n"
    streets = [["5s", "9c", "Ah"], ["6c", "Jd", "Qc"], ["7h", "2d", "2h"], ["8d", "3s", "3h"]]
    lines = ["Cy cc"]
    for ann, bob, cy in streets:
        lines += [f"d dh Ann {ann}", f"d dh Bob {bob}", f"d dh Cy {cy}", "Cy cc", "Bob cc"]
    lines += ["Bob sm 9s9hKd9cJd2d3s", "Cy sm 7c7dAsAhQc2h3h", "Ann sm 2c3d4h5s6c7h8d"]
    code, _, err = user("table", "s3", input="".join(f"{x}\n" for x in lines))
    assert (code, err) == (0, "")
    state = user("state", "s3")[1].splitlines()
    assert [x for x in state if x.startswith(("Main pot", "Side pot", "stacks:"))] == [
        "Main pot: 6 (Ann, Bob, Cy)", "Side pot 1: 2 (Bob, Cy)", "stacks: Ann 0, Bob 97, Cy 97"]
    code, _, err = user("table", "s3", input="pay Ann 6\npay Bob 2\nend\n")
    assert (code, err) == (0, "")
    assert user("show", "s3")[1].splitlines()[-3:] == [
        " 36 hand_ended                   pot 0 [Ann:6 Bob:99 Cy:97] showdown",
        "    Main pot 6 (Ann, Bob, Cy): Ann wins 6 with straight, eight high.",
        "    Side pot 1 2 (Bob, Cy): Bob wins 2 with three of a kind, nines, K-J kickers."]


def test_a_bring_in_player_with_the_bring_in_exactly_posts_it_all_in(user, db: str  # noqa: ANN001
                                                                     ) -> None:
    assert user("hand", "start", "--hand", "s2", "--game", "F7S", "--antes", "1", "--bring-in",
                "3", "--small-bet", "5", "--big-bet", "10", "--seats",
                "Ann:4,Bob:100,Cy:100")[0] == 0
    for action in ("d dh Ann AsKs2c", "d dh Bob QhQd9h"):
        assert user("act", "s2", action)[0] == 0
    assert user("act", "s2", "d dh Cy 7c7dTs")[1] == (
        "7 cards_dealt; Ann to act: bring in 3 (pb), all-in\n")


@pytest.fixture
def declaring(user, db: str) -> str:  # noqa: ANN001
    """Hand o1, Omaha hi-lo declared in turn: Bob bet the river and was called, so he
    declares first, then Cy, then Ann (RULES.md §3.3)."""
    assert user("hand", "start", "--hand", "o1", "--game", "FO/8", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100,Cy:100",
                "--button", "Ann", "--declare-options", "method=in_turn")[0] == 0
    checks = ["Bob cc", "Cy cc", "Ann cc"]
    for action in ["d dh Bob ????????", "d dh Cy ????????", "d dh Ann ????????", "Ann cc",
                   "Bob cc", "Cy cc", "d db 2c3c4c", *checks, "d db 5d", *checks, "d db 9h",
                   "Bob cbr 4", "Cy cc", "Ann cc"]:
        assert user("act", "o1", action)[0] == 0
    return db


@pytest.mark.parametrize(("action", "said"), [
    ("Bob dcl both", "'both' is not a declaration: Bob dcl high|low|swing or Bob f (give up) "
                     "(RULES.md §3.2); "
     "both ways is a swing: Bob dcl swing (RULES.md §3.6)"),
    ("Bob dcl High", "'High' is not a declaration: Bob dcl high|low|swing or Bob f (give up) "
                     "(RULES.md §3.2); "
     "the notation is lower case: Bob dcl high"),
    ("Bob dcl", "dcl needs a declaration: Bob dcl high|low|swing or Bob f (give up) (RULES.md "
                "§3.2)"),
], ids=["both", "capital", "none"])
def test_a_declaration_that_is_none_lists_the_declarations(user, declaring: str,  # noqa: ANN001
                                                          action: str, said: str) -> None:
    assert user("act", "o1", action) == (
        2, "", f"error: hand o1, action '{action}': {said}; now: phase declare, Bob to act: "
        "Bob dcl high|low|swing or Bob f (give up)\n")


def test_a_declaration_out_of_turn_names_who_declares_next(user, declaring: str  # noqa: ANN001
                                                          ) -> None:
    assert user("act", "o1", "Bob dcl low")[0] == 0
    assert user("act", "o1", "Ann dcl high") == (
        2, "", "error: hand o1, action 'Ann dcl high': out of turn: Cy declares next, not Ann; "
        "now: phase declare, Cy to act: Cy dcl high|low|swing or Cy f (give up)\n")


def test_min_bet_help_says_what_a_straddle_does_to_the_minimum_bet(user, db: str  # noqa: ANN001
                                                                   ) -> None:
    """RULES.md §4.4: the straddle sets a new minimum bring-in; the engine keeps it on every
    street (a bet after the flop at 1/2/4 is at least 4), and a --min-bet below it is refused,
    nothing written (it was stored and never used)."""
    assert user("hand", "start", "--hand", "t2", "--stakes", "1/2/4", "--min-bet", "2",
                "--game", "NT", "--seats", "Ann:100,Bob:100,Cy:100,Dee:100", "--button",
                "Dee") == (2, "", "error: --min-bet 2 is below the straddle 4: the minimum bet "
                           "is never below the largest blind or straddle (RULES.md §4.4); "
                           "leave --min-bet out for 4\n")
    for hand, more, least in (("t1", (), 4), ("t3", ("--min-bet", "10"), 10)):
        assert user("hand", "start", "--hand", hand, "--stakes", "1/2/4", *more, "--game",
                    "NT", "--seats", "Ann:100,Bob:100,Cy:100,Dee:100", "--button", "Dee"
                    )[0] == 0
        for action in ("d dh Ann ????", "d dh Bob ????", "d dh Cy ????", "d dh Dee ????",
                       "Dee cc", "Ann cc", "Bob cc", "Cy cc"):
            assert user("act", hand, action)[0] == 0
        assert user("act", hand, "d db 2c3c4c")[1] == (
            f"13 cards_dealt; Ann to act: check, bet to {least}..96\n")
        # voided: the next hand seats the same players (one hand at a time, RULES.md §1.1)
        assert user("void", hand, "--reason", "a new deal", "--by", "host")[0] == 0
    help_text = " ".join(user("hand", "start", "--help")[1].split())
    assert ("--min-bet INTEGER RANGE Big-bet games: the minimum bet on every street; never "
            "below the largest blind or straddle (1/2/4: 4 after the flop too, RULES.md §4.4), "
            "which is the default.") in help_text
    assert "default BB" not in help_text
