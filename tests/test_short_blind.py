"""A big blind posted short all-in (RULES.md §4.2: "Bet sizes are set by the structure. They
stay the same even when a blind is posted short all-in"; Robert's Rules, blind rule 1): the
others call the full big blind and raise from it, the small blind completes to it, the short
blind is all-in for what he posted and the pots layer by what each put in (§1.2). Chips worked
out by hand, through ``hand start``, ``table`` and ``state`` as a user types them."""

from __future__ import annotations

import json

SEATS = "A:500,B:4,C:500,D:500"  # button D: A the small blind 5, B the big blind all in for 4
PN = "seats as pN: p1 A, p2 B, p3 C, p4 D (p1 sits left of the button: PHH's order, not --seats')"
DEAL = ["d dh A AsAd", "d dh B 9s9h", "d dh C 7c2d", "d dh D 8h3s"]
#: The board and a showdown: B's set of nines beats A's aces, A's aces beat C and D.
BOARD = ["d db 2h5c9d", "d db Jh", "d db Qs"]


def _start(user, *options: str, seats: str = SEATS, button: str = "D") -> None:  # noqa: ANN001
    code, out, err = user("hand", "start", "--hand", "h", *options, "--seats", seats,
                         "--button", button)
    assert (code, err) == (0, ""), err


def _table(user, lines: list[str]) -> list[str]:  # noqa: ANN001
    code, out, err = user("table", "h", input="".join(f"{x}\n" for x in lines))
    assert (code, err) == (0, ""), err
    return out.splitlines()


def _checks(players: str, streets: int = 3) -> list[str]:
    out = []
    for board in BOARD[:streets]:
        out += [board, *(f"{p} cc" for p in players)]
    return out


def test_no_limit_the_others_call_the_full_big_blind(user) -> None:  # noqa: ANN001
    """5/10: C and D call 10 (not the 4 posted), a raise is to at least 20, A completes his
    small blind with 5. In: A 10, B 4, C 10, D 10. Main pot 4 x 4 = 16 (B's set takes it),
    side pot 6 x 3 = 18 for A, C, D (A's aces): A 508, B 16, C 490, D 490."""
    _start(user, "--game", "NT", "--stakes", "5/10")
    out = _table(user, [*DEAL, "state"])
    assert out[3:] == [
        "7 cards_dealt; C to act: to call 10, raise to 20..500",
        "hand h: NT, phase bet, status open",
        "C to act: to call 10, raise to 20..500",
        "current bet 10",
        "Main pot: 8 (A, B, C, D)",
        "Side pot 1: 1 (A, C, D)",
        "stacks: A 495 bet 5, B 0 bet 4, C 500, D 500",
        PN,
    ]
    code, _, err = user("act", "h", "C cbr 15")
    assert (code, err.splitlines()) == (2, [
        "error: hand h, action 'C cbr 15': raise to 15 is below the minimum 20; now: C to "
        "act: to call 10, raise to 20..500"])
    out = _table(user, ["C cc", "D cc", "A cc", "state"])
    assert out == [
        "8 call; D to act: to call 10, raise to 20..500",
        "9 call; A to act: to call 5, raise to 20..500",
        "10 call; phase deal, next: d db CARDS (3 cards)",
        "hand h: NT, phase deal, status open",
        "phase deal, next: d db CARDS (3 cards)",
        "Main pot: 16 (A, B, C, D)",
        "Side pot 1: 18 (A, C, D)",
        "stacks: A 490, B 0, C 490, D 490",  # the round over: its bets are in the pots
        PN,
    ]
    out = _table(user, [*_checks("ACD"), "A sm AsAd", "B sm 9s9h", "C sm 7c2d", "D sm 8h3s",
                       "end", "state"])
    assert out[1] == "12 check; C to act: check, bet to 10..490"  # the bet sizes stay
    assert out[-4:] == [
        "Main pot 16 (A, B, C, D): B wins 16 with three of a kind, nines, Q-J kickers.",
        "Side pot 1 18 (A, C, D): A wins 18 with pair of aces, Q-J-9 kickers.",
        "paid: none recorded (the stacks after the hand are the rules' result)",
        "stacks after the hand: A 508, B 16, C 490, D 490",
    ]


def test_everyone_folds_to_the_short_big_blind(user) -> None:  # noqa: ANN001
    """C and D fold; A, facing the full 10 with nobody left to raise, may check (what he
    would call comes back: nobody still in can match it) or call, and folds: his 5 is
    matched by B's 4 only, so 1 comes back (RULES.md §1.4) and B takes 4 + 4 = 8."""
    _start(user, "--game", "NT", "--stakes", "5/10")
    out = _table(user, [*DEAL, "C f", "D f", "A f", "end", "state"])
    assert out[3:6] == [
        "7 cards_dealt; C to act: to call 10, raise to 20..500",
        "8 fold; D to act: to call 10, raise to 20..500",
        "9 fold; A to act: check or call 5 (no raise: every other player is all-in)",
    ]
    assert out[-4:] == [
        "Main pot 8 (B): B takes 8; nobody else is eligible.",
        "uncalled returned: A 1",
        "paid: none recorded (the stacks after the hand are the rules' result)",
        "stacks after the hand: A 496 (folded), B 8, C 500 (folded), D 500 (folded)",
    ]


def test_a_check_or_call_nobody_can_match_comes_back(user) -> None:  # noqa: ANN001
    """The same, but A checks or calls (``cc``) rather than folds: the 5 he adds and 1 of his
    small blind are matched by nobody and come back (RULES.md §1.4); B's 4 against A's 4
    make the pot of 8, and B's set of nines takes it at the showdown: A 496, B 8."""
    _start(user, "--game", "NT", "--stakes", "5/10")
    out = _table(user, [*DEAL, "C f", "D f", "A cc", *BOARD, "A sm AsAd", "B sm 9s9h",
                        "end", "state"])
    assert out[5] == "9 fold; A to act: check or call 5 (no raise: every other player is all-in)"
    assert out[-4:] == [
        "Main pot 8 (A, B): B wins 8 with three of a kind, nines, Q-J kickers.",
        "uncalled returned: A 6",
        "paid: none recorded (the stacks after the hand are the rules' result)",
        "stacks after the hand: A 496, B 8, C 500 (folded), D 500 (folded)",
    ]


def test_heads_up_the_small_blind_already_covers_the_short_big_blind(user) -> None:  # noqa: ANN001
    """Heads-up, A on the button posts 5, B all in for 4: A's 5 covers all B has, so nobody
    is asked to act; 1 comes back to A, the pot is 8. So it is before the cards, once both
    blinds are in (it was a pot of A's alone, `pot 1: 1 (A)`, and each blind counted again
    as a bet beside the pots): 8 + 496 (A's 1 returned in his stack) + 0 = the 504 chips at
    the table."""
    _start(user, "--game", "NT", "--stakes", "5/10", seats="A:500,B:4", button="A")
    assert _table(user, ["state"])[1:] == [
        "phase deal, next: d dh B CARDS (2 cards, ?? for each unseen card); then A",
        "Main pot: 8 (B, A)",
        "returned: A 1",
        "stacks: B 0, A 496",
        "seats as pN: p1 B, p2 A (p1 sits left of the button: PHH's order, not --seats')",
    ]
    out = _table(user, ["d dh A ????", "d dh B ????", "state"])
    assert out[1:] == [
        "5 cards_dealt; phase deal, next: d db CARDS (3 cards)",
        "hand h: NT, phase deal, status open",
        "phase deal, next: d db CARDS (3 cards)",
        "Main pot: 8 (B, A)",
        "returned: A 1",
        "stacks: B 0, A 496",  # no round to bet: the pot and A's stack (his 1 back) hold them
        "seats as pN: p1 B, p2 A (p1 sits left of the button: PHH's order, not --seats')",
    ]


def test_fixed_limit_raises_by_the_small_bet_from_the_full_big_blind(user) -> None:  # noqa: ANN001
    """10/20 with blinds 5/10: C calls 10 or raises to exactly 20 (was 15, no amount of this
    game); D may call 20 or raise to 30; A puts in 15 more to call. In: A 20, B 4, C 20, D 20.
    Main pot 16 for all four, side pot 16 x 3 = 48 for A, C, D."""
    _start(user, "--game", "FT", "--small-bet", "10", "--big-bet", "20", "--stakes", "5/10")
    out = _table(user, [*DEAL])
    assert out[-1] == "7 cards_dealt; C to act: to call 10, raise to 20..20"
    code, _, err = user("act", "h", "C cbr 15")
    assert (code, err.splitlines()) == (2, [
        "error: hand h, action 'C cbr 15': raise to 15 is below the minimum 20; now: C to "
        "act: to call 10, raise to 20..20"])
    out = _table(user, ["C cbr 20", "D cc", "A cc", "state"])
    assert out == [
        "8 bet_raise; D to act: to call 20, raise to 30..30",
        "9 call; A to act: to call 15, raise to 30..30",
        "10 call; phase deal, next: d db CARDS (3 cards)",
        "hand h: FT, phase deal, status open",
        "phase deal, next: d db CARDS (3 cards)",
        "Main pot: 16 (A, B, C, D)",
        "Side pot 1: 48 (A, C, D)",
        "stacks: A 480, B 0, C 480, D 480",
        PN,
    ]
    out = _table(user, [*_checks("ACD"), "A sm AsAd", "B sm 9s9h", "C sm 7c2d", "D sm 8h3s",
                       "end", "state"])
    assert out[-1] == "stacks after the hand: A 528, B 16, C 480, D 480"


def test_a_big_blind_ante_that_leaves_nothing_for_the_blind(user) -> None:  # noqa: ANN001
    """1/2 with a big-blind ante of 5: B, the big blind, has 3 and posts them as the ante
    (first, RULES.md §4.3), nothing as his blind. C still calls the full 2 (was 1) or raises
    to at least 4, A completes with 1. The 3 of the ante are dead money for all three (main
    pot 3, B's level 0); A and C's 2 each make a side pot of 4: B's set takes 3, A's aces 4."""
    _start(user, "--game", "NT", "--stakes", "1/2", "--bb-ante", "5", seats="A:100,B:3,C:100",
           button="C")
    out = _table(user, ["d dh A AsAd", "d dh B 9s9h", "d dh C 7c2d", "state", "C cc", "A cc"])
    assert out[2:] == [
        "6 cards_dealt; C to act: to call 2, raise to 4..100",
        "hand h: NT, phase bet, status open",
        "C to act: to call 2, raise to 4..100",
        "current bet 2",
        "Main pot: 3 (A, B, C)",
        "Side pot 1: 1 (A, C)",
        "stacks: A 99 bet 1, B 0, C 100",
        "seats as pN: p1 A, p2 B, p3 C (p1 sits left of the button: PHH's order, not --seats')",
        "7 call; A to act: to call 1, raise to 4..100",
        "8 call; phase deal, next: d db CARDS (3 cards)",
    ]
    _table(user, [*_checks("AC"), "A sm AsAd", "B sm 9s9h", "C sm 7c2d", "end"])
    code, out, _ = user("replay", "--hand", "h", "--json")
    hand = json.loads(out.splitlines()[0])
    assert [(p["amount"], p["eligible"], p["awards"]) for p in hand["pots"]] == [
        (3, ["A", "B", "C"], {"B": 3}), (4, ["A", "C"], {"A": 4})]
    assert hand["final_stacks"] == {"A": 102, "B": 3, "C": 98}
