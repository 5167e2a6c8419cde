"""``hand start`` refuses every amount a game cannot have, with one line and exit 2, and writes
nothing: a negative ante, bet size or bring-in, a seat with no chips, an option of a structure
the game does not use (it was silently ignored), a big-bet game without a minimum bet, a
fixed-limit game without both bet sizes, a big bet below the small bet, a bring-in above the
small bet, a button in a stud game (RULES.md §1.1, §2, §4.1)."""

from __future__ import annotations

import pytest

from ledger.store.store import Ledger

NT = ("--game", "NT", "--stakes", "1/2", "--button", "Ann", "--seats", "Ann:100,Bob:100")
STUD = ("--game", "F7S", "--seats", "Ann:100,Bob:100")


@pytest.mark.parametrize(("args", "line"), [
    ((*NT, "--antes", "-1"), "error: Invalid value for '--antes': -1 is not in the range x>=0. "
     "(`handledger hand start -h` shows the usage)"),
    ((*NT, "--min-bet", "-5"), "error: Invalid value for '--min-bet': -5 is not in the range "
     "x>=1. (`handledger hand start -h` shows the usage)"),
    ((*NT, "--min-bet", "0"), "error: Invalid value for '--min-bet': 0 is not in the range "
     "x>=1. (`handledger hand start -h` shows the usage)"),
    ((*STUD, "--small-bet", "-2", "--big-bet", "4"), "error: Invalid value for '--small-bet': "
     "-2 is not in the range x>=0. (`handledger hand start -h` shows the usage)"),
    ((*STUD, "--small-bet", "2", "--big-bet", "-4"), "error: Invalid value for '--big-bet': "
     "-4 is not in the range x>=0. (`handledger hand start -h` shows the usage)"),
    ((*STUD, "--bring-in", "-1", "--small-bet", "2", "--big-bet", "4"), "error: Invalid value "
     "for '--bring-in': -1 is not in the range x>=0. (`handledger hand start -h` shows the "
     "usage)"),
    (("--game", "NT", "--stakes", "1/2", "--button", "Ann", "--seats", "Ann:0,Bob:100"),
     "error: --seats: Ann's stack 0 is not a number of chips above 0 (a player with no chips "
     "is not dealt in: buy in first)"),
    (("--game", "NT", "--stakes", "1/2", "--button", "Ann", "--seats", "Ann:-5,Bob:100"),
     "error: --seats: Ann's stack -5 is not a number of chips above 0 (a player with no chips "
     "is not dealt in: buy in first)"),
    ((*STUD, "--antes", "1", "--small-bet", "2", "--big-bet", "4"), "error: F7S is stud: give "
     "--bring-in N, 1 chip or more (on third street the lowest upcard brings it in with a "
     "forced bet, RULES.md §4.1)"),
    ((*STUD, "--antes", "1", "--bring-in", "0", "--small-bet", "2", "--big-bet", "4"),
     "error: F7S is stud: give --bring-in N, 1 chip or more (on third street the lowest "
     "upcard brings it in with a forced bet, RULES.md §4.1)"),
    (("--game", "N7S", "--antes", "1", "--bring-in", "1", "--seats", "Ann:100,Bob:100"),
     "error: N7S needs a minimum bet: give --min-bet N (the full bet that completes the "
     "bring-in, RULES.md §4.1)"),
    (("--game", "FR", "--seats", "Ann:100,Bob:100", "--small-bet", "2", "--big-bet", "4"),
     "error: FR is stud: give --bring-in N, 1 chip or more (on third street the highest "
     "upcard brings it in with a forced bet, RULES.md §4.1)"),
    ((*NT, "--bring-in", "3"), "error: --bring-in 3: NT is not a stud game (it posts blinds: "
     "--stakes)"),
    ((*NT, "--small-bet", "2", "--big-bet", "4"), "error: --small-bet/--big-bet: NT is not "
     "fixed limit (a big-bet game takes --min-bet)"),
    (("--game", "FT", "--stakes", "1/2", "--small-bet", "2", "--big-bet", "4", "--min-bet", "3",
      "--button", "Ann", "--seats", "Ann:100,Bob:100"),
     "error: --min-bet 3: FT is fixed limit (it takes --small-bet and --big-bet)"),
    (("--game", "NT", "--button", "Ann", "--seats", "Ann:100,Bob:100"),
     "error: NT with no --stakes and no ante posts no forced bet: a flop or draw game posts a "
     "small and a big blind (RULES.md §4.2): give them, like --stakes 1/2 (small/big), or for "
     "a game of antes alone an ante (--antes N) and --min-bet"),
    (("--game", "NT", "--min-bet", "2", "--button", "Ann", "--seats", "Ann:100,Bob:100"),
     "error: NT with no --stakes and no ante posts no forced bet: a flop or draw game posts a "
     "small and a big blind (RULES.md §4.2): give them, like --stakes 1/2 (small/big), or for "
     "a game of antes alone an ante (--antes N) and --min-bet"),
    (("--game", "NT", "--antes", "1", "--button", "Ann", "--seats", "Ann:100,Bob:100"),
     "error: NT needs a minimum bet: give --stakes (the big blind sets it) or --min-bet"),
    (("--game", "FT", "--stakes", "1/2", "--button", "Ann", "--seats", "Ann:100,Bob:100"),
     "error: FT is fixed limit: give --small-bet and --big-bet (the bets of the early and the "
     "late streets)"),
    ((*STUD, "--small-bet", "2", "--big-bet", "4", "--button", "Ann"), "error: --button 'Ann': "
     "F7S is a stud game, which has no button (the up cards decide the bring-in and who acts "
     "first, RULES.md §2): give the seats in table order, --seats"),
    ((*STUD, "--small-bet", "2"), "error: F7S is fixed limit: give --small-bet and --big-bet "
     "(the bets of the early and the late streets)"),
    (("--game", "FT", "--stakes", "1/2", "--small-bet", "4", "--big-bet", "2", "--button", "Ann",
      "--seats", "Ann:100,Bob:100"), "error: --big-bet 2 is below --small-bet 4"),
    ((*STUD, "--bring-in", "5", "--small-bet", "2", "--big-bet", "4"), "error: --bring-in 5 is "
     "not below the small bet 2: the bring-in is less than a full bet, which completing it "
     "makes (RULES.md §4.1); give a smaller --bring-in"),
    # equal: the raise after it would be one chip (to 3 at 2/4), neither a bet nor a full raise
    ((*STUD, "--antes", "1", "--bring-in", "2", "--small-bet", "2", "--big-bet", "4"),
     "error: --bring-in 2 is not below the small bet 2: the bring-in is less than a full bet, "
     "which completing it makes (RULES.md §4.1); give a smaller --bring-in"),
    # no-limit and pot-limit stud: the full bet is the minimum bet (RULES.md §4.1)
    (("--game", "N7S", "--seats", "Ann:100,Bob:100", "--antes", "1", "--bring-in", "5",
      "--min-bet", "2"), "error: --bring-in 5 is not below the minimum bet 2: the bring-in is "
     "less than a full bet, which completing it makes (RULES.md §4.1); give a smaller "
     "--bring-in"),
    (("--game", "P7S", "--seats", "Ann:100,Bob:100", "--bring-in", "2", "--min-bet", "2"),
     "error: --bring-in 2 is not below the minimum bet 2: the bring-in is less than a full "
     "bet, which completing it makes (RULES.md §4.1); give a smaller --bring-in"),
    # the engine would bet by the big blind: a smaller minimum stored would never be used
    ((*NT, "--min-bet", "1"), "error: --min-bet 1 is below the big blind 2: the minimum bet is "
     "never below the largest blind or straddle (RULES.md §4.4); leave --min-bet out for 2"),
    ((*NT[:2], "--stakes", "1/2/4", *NT[4:6], "--seats", "Ann:100,Bob:100,Cy:100",
      "--min-bet", "3"), "error: --min-bet 3 is below "
     "the straddle 4: the minimum bet is never below the largest blind or straddle "
     "(RULES.md §4.4); leave --min-bet out for 4"),
    ((*NT[:2], "--stakes", "1/-2", *NT[4:]), "error: --stakes '1/-2': blinds are positive and "
     "go up in seat order (small blind, big blind, straddles), like 1/2 or 1/2/4"),
])
def test_an_impossible_amount_is_one_line_and_nothing_written(user, db: str,  # noqa: ANN001
                                                              args: tuple[str, ...],
                                                              line: str) -> None:
    Ledger(db).close()
    assert user("hand", "start", "--hand", "h", *args) == (2, "", line + "\n")
    with Ledger(db, read_only=True) as ledger:
        assert list(ledger.stored()) == []


def test_the_amounts_a_game_has_are_recorded(run, db: str) -> None:  # noqa: ANN001
    """The limits are not too tight: an ante with no blinds and a minimum bet, a stud
    bring-in one chip below the small bet, a fixed-limit flop game with blinds and bet
    sizes."""
    for hand, args in (("a", ("--game", "NT", "--antes", "1", "--min-bet", "2", "--button",
                              "Ann", "--seats", "Ann:100,Bob:100")),
                       ("b", (*STUD, "--antes", "1", "--bring-in", "1", "--small-bet", "2",
                              "--big-bet", "4")),
                       ("n", ("--game", "N7S", "--antes", "1", "--bring-in", "1",
                              "--min-bet", "2", "--seats", "Ann:100,Bob:100")),
                       ("c", ("--game", "FO/8", "--stakes", "1/2", "--small-bet", "2",
                              "--big-bet", "4", "--button", "Ann", "--seats",
                              "Ann:100,Bob:100"))):
        out = run("hand", "start", "--hand", hand, *args)
        assert (out.exit_code, out.stdout) == (0, f"{hand}\n"), out.output
        # voided: the next seats its players (one hand at a time, RULES.md §1.1)
        assert run("void", hand, "--reason", "a new deal", "--by", "host").exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        started = {r.stream: r.event for r in ledger.stored() if r.event.type == "hand_started"}
    assert started["a"].stakes.antes == [1, 1] and started["a"].stakes.min_bet == 2
    assert (started["b"].stakes.bring_in, started["b"].stakes.small_bet,
            started["b"].stakes.big_bet) == (1, 2, 4)
    assert started["c"].stakes.blinds_or_straddles == [1, 2]
