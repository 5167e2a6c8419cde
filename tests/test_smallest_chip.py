"""A hand counted in chips of 0.25 USD imported into a session of 0.05 USD chips is converted x5,
and its smallest chip in play is still its own chip (RULES.md §2.1: a pot is divided as evenly
as possible "down to the smallest chip in play"): 5 of the session's chips, stored as
``options.split.smallest_chip`` only when a hand is converted so. Its split pots are divided
in multiples of 5 and each odd chip is 5, as the table paid them, not five odd nickels.

The hand of this file, q1: Ann (small blind 0.25) folds, Bob (big blind 0.50) and Cy (the
button, 0.50) check it down and tie with the royal flush on the board. The pot is 1.25 USD,
five chips of 0.25: Bob, first left of the button, takes the odd chip, 0.75, and Cy 0.50. In
the session's nickels: a pot of 25, Bob 15, Cy 10 (the nickel split would be 13 and 12).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.awards import award_pots, divide, split_evenly
from engine.declare.award import award_declare_pots
from engine.games import game
from engine.pots import Pot
from ledger.model.events import DeclareOptions, SplitOptions

QUARTERS = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.25, 0.50, 0]
min_bet = 0.50
starting_stacks = [10.00, 10.00, 10.00]
actions = ['d dh p1 2c3d', 'd dh p2 {bob}', 'd dh p3 {cy}', 'p3 cc', 'p1 f', 'p2 cc',
           'd db AsKsQs', 'p2 cc', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db Ts', 'p2 cc',
           'p3 cc'{shows}]
players = ['Ann', 'Bob', 'Cy']
winnings = [0, {paid}]
currency = 'USD'
{chip}_hand_id = '{hand}'
"""


def phh(path: Path, *, hand: str = "q1", paid: str = "0.75, 0.50", known: bool = True,
        chip: str = "_chip = { minor_per_chip = 25 }\n") -> Path:
    shows = ", 'p2 sm 4c5d', 'p3 sm 6h7h'" if known else ""
    bob, cy = ("4c5d", "6h7h") if known else ("????", "????")
    path.write_text(QUARTERS.format(bob=bob, cy=cy, shows=shows, paid=paid, chip=chip,
                                    hand=hand), encoding="utf-8")
    return path


def nickel_session(user, db: str | None = None) -> None:  # noqa: ANN001
    where = ("--db", db) if db else ()
    assert user(*where, "session", "open", "fri", "--chip-value", "0.05", "--currency",
                "USD")[0] == 0


def replayed(user, hand: str, *where: str) -> dict:  # noqa: ANN001
    code, out, _ = user(*where, "replay", "--hand", hand, "--json")
    assert code == 0
    return json.loads(out)


def stored(user, hand: str, *where: str) -> list[str]:  # noqa: ANN001
    """The hand's stored payloads, its source (file, key) left out."""
    code, out, _ = user(*where, "sql", "SELECT json_remove(payload, '$.source') FROM events "
                        f"WHERE hand_id = '{hand}' ORDER BY seq", "--json")
    assert code == 0
    return [json.dumps(next(iter(row.values()))) for row in json.loads(out)]  # nested JSON


# --------------------------------------------------------------------------------------------
# The engine: pots divided down to the smallest chip in play


def test_divide_cuts_whole_chips_in_play() -> None:
    assert divide(25, 2) == [13, 12]
    assert divide(25, 2, 5) == [15, 10]
    assert divide(55, 3, 5) == [20, 20, 15]
    assert divide(30, 2, 5) == [15, 15]
    # a remainder below a chip in play goes with the odd chips: none gets two chips more
    assert divide(57, 3, 5) == [20, 20, 17]
    assert split_evenly(25, ["Bob", "Cy"], 5) == {"Bob": 15, "Cy": 10}


ROYAL = "As Ks Qs Js Ts".split()
TIED = {"Bob": ["4c", "5d"], "Cy": ["6h", "7h"]}


def test_a_tie_gives_one_odd_chip_in_play() -> None:
    (pot,) = award_pots(game("NT"), [Pot(25, ("Bob", "Cy"))], TIED, [ROYAL], ["Bob", "Cy"],
                        SplitOptions(smallest_chip=5))
    assert pot.awards == {"Bob": 15, "Cy": 10}
    assert pot.lines == ("Main pot 25 (Bob, Cy): Bob and Cy tie with royal flush; Bob 15, "
                         "Cy 10; odd chip of 5 to Bob (first left of the button).",)
    (kept,) = award_pots(game("NT"), [Pot(25, ("Bob", "Cy"))], TIED, [ROYAL], ["Bob", "Cy"],
                         SplitOptions(smallest_chip=5), "carry_to_next_hand")
    assert (kept.awards, kept.carried) == ({"Bob": 10, "Cy": 10}, 5)
    assert kept.lines[0].endswith("10 each, 1 odd chip of 5 (5) carried to the next hand.")


def test_halves_and_runs_are_whole_chips_in_play() -> None:
    # hold'em hi-lo, 35 chips (seven of 5): Ann's three kings win the high alone, Bob's
    # 6-4-3-2-A the low alone: 20 and 15 (18 and 17 in single chips)
    board = "2c 3d 4h 9s Kd".split()
    hands = {"Ann": ["Kh", "Ks"], "Bob": ["Ac", "6d"]}
    (pot,) = award_pots(game("FT/8"), [Pot(35, ("Ann", "Bob"))], hands, [board],
                        ["Ann", "Bob"], SplitOptions(smallest_chip=5))
    assert pot.awards == {"Ann": 20, "Bob": 15}
    assert pot.lines[0].startswith("Main pot 35 (Ann, Bob): Split high/low, the odd chip to "
                                   "the high half. High 20: Ann wins 20")
    # run twice: 25 is 15 on run 1 and 10 on run 2 (13 and 12 in single chips)
    (ran,) = award_pots(game("NT"), [Pot(25, ("Bob", "Cy"))], TIED, [ROYAL, ROYAL],
                        ["Bob", "Cy"], SplitOptions(smallest_chip=5))
    assert ran.lines[0] == ("Main pot 25 (Bob, Cy): run twice, 15 on run 1, 10 on run 2 "
                            "(odd chip to run 1 first).")
    assert ran.awards == {"Bob": 15, "Cy": 10}  # run 1: 10 and 5; run 2: 5 each


def test_a_declare_pot_is_halved_in_chips_in_play() -> None:
    board = "2c 3d 4h 9s Kd".split()
    hands = {"Ann": ["Kh", "Ks"], "Bob": ["Ac", "6d"]}
    (pot,) = award_declare_pots(game("NT"), [Pot(35, ("Ann", "Bob"))], hands, [board],
                                ["Ann", "Bob"], DeclareOptions(),
                                {"Ann": "high", "Bob": "low"}, "left_of_button", 5)
    assert pot.awards == {"Ann": 20, "Bob": 15}


# --------------------------------------------------------------------------------------------
# Import, audit, export


def test_a_quarter_hand_in_a_nickel_session_is_paid_as_the_table_paid_it(
        user, tmp_path: Path) -> None:  # noqa: ANN001
    nickel_session(user)
    assert user("import", "--session", "fri", str(phh(tmp_path / "q1.phh")))[0] == 0
    hand = replayed(user, "q1")
    assert hand["recorded"] == {"Bob": 15, "Cy": 10}
    assert hand["pots"][0]["awards"] == {"Bob": 15, "Cy": 10}
    assert hand["discrepancies"] == []
    code, out, _ = user("audit")
    assert "payout" not in out and code == 1  # the books hold no buy-ins: stacks only
    assert out.splitlines()[-1] == ("audit: 3 discrepancies (stack_continuity 3); "
                                    "1 hand(s) in 1 session(s) checked")
    started = json.loads(stored(user, "q1")[0])
    assert started["unit"] == {"currency": "USD", "decimals": 0, "minor_per_chip": 5}
    assert started["options"]["split"]["smallest_chip"] == 5
    assert [s["stack"] for s in started["seats"]] == [200, 200, 200]


def test_a_hand_in_its_own_chips_stores_what_it_always_did(user, tmp_path: Path,  # noqa: ANN001
                                                           db: str) -> None:
    assert user("import", str(phh(tmp_path / "q1.phh")))[0] == 0  # no session: quarters
    hand = replayed(user, "q1")
    assert (hand["recorded"], hand["discrepancies"]) == ({"Bob": 3, "Cy": 2}, [])
    assert "smallest_chip" not in stored(user, "q1")[0]
    # a hand in cents into the nickel session: its chip is finer than the session's, so the
    # session's chip is the smallest in play (nothing stored): 25 nickels are 13 and 12
    other = str(tmp_path / "cents.duckdb")
    nickel_session(user, other)
    cents = phh(tmp_path / "c1.phh", hand="c1", paid="0.65, 0.60", chip="")
    assert user("--db", other, "import", "--session", "fri", str(cents))[0] == 0
    hand = replayed(user, "c1", "--db", other)
    assert (hand["recorded"], hand["discrepancies"]) == ({"Bob": 13, "Cy": 12}, [])
    assert "smallest_chip" not in stored(user, "c1", "--db", other)[0]


@pytest.mark.parametrize("form", ["phh", "jsonl"])
def test_export_and_import_again_keep_the_chip_in_play(user, tmp_path: Path,  # noqa: ANN001
                                                       form: str) -> None:
    nickel_session(user)
    assert user("import", "--session", "fri", str(phh(tmp_path / "q1.phh")))[0] == 0
    out = tmp_path / f"q1.{form}"
    assert user("export", "--format", form, "q1", "-o", str(out))[0] == 0
    if form == "phh":  # money, the session's chip, and the hand's own chip in play
        text = out.read_text(encoding="utf-8")
        assert "winnings = [0.00, 0.75, 0.50]\n" in text
        assert "_chip = { minor_per_chip = 5 }\n" in text
        assert "smallest_chip = 0.25 }\n" in text
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(out))[0] == 0
    assert stored(user, "q1", "--db", fresh) == stored(user, "q1")
    hand = replayed(user, "q1", "--db", fresh)
    assert (hand["recorded"], hand["discrepancies"]) == ({"Bob": 15, "Cy": 10}, [])
    assert user("import", str(out))[1].startswith("imported 0 hand(s) (0 events) from 1 "
                                                  "file(s); 1 already in the ledger")


def test_unknown_cards_are_checked_against_splits_in_chips_in_play(
        user, tmp_path: Path) -> None:  # noqa: ANN001
    nickel_session(user)
    assert user("import", "--session", "fri",
                str(phh(tmp_path / "q2.phh", hand="q2", known=False)))[0] == 0
    code, out, _ = user("audit")
    assert "payout" not in out and "no legal split" not in out
    code, out, _ = user("whatif", "q2", "--replace", "19", "pay Bob 20", "--replace", "20",
                        "pay Cy 5")
    assert code == 0
    assert ("main pot 25 (Bob, Cy): 25 to one, 10 each to two who tie (the odd chip of 5 to "
            "one of them) (RULES.md §2.1)") in out
    assert "before: the payouts are a legal split of the pots" in out
    assert ("hand q2: no legal split of the pots pays what the table paid (Bob 20, Cy 5)"
            in out)


def test_a_quarter_hand_is_refused_by_a_dime_session(user, tmp_path: Path,  # noqa: ANN001
                                                     db: str) -> None:
    # Blinds 0.50/1.00: Cy calls, Ann folds, Bob checks: a pot of 2.50 chopped, 1.25 each by
    # the rules (not whole dimes), and the mispaid 1.50/1.00, which a smallest chip in play of
    # 0.50 (5 dimes, the least that is whole quarters and dimes) would pass as a split.
    assert user("session", "open", "dimes", "--chip-value", "0.10", "--currency", "USD")[0] == 0
    refusal = ("its smallest chip in play is 0.25 USD, larger than session dimes's chip of "
               "0.10 USD and not a whole number of them: the session's chips cannot divide its "
               "pots as the table did (RULES.md §2.1); import it into a session whose chip "
               "divides 0.25 USD, or with no session; nothing of the hand is imported\n")
    for paid in ("1.25, 1.25", "1.50, 1.00"):
        path = phh(tmp_path / "d1.phh", hand="d1", paid=paid)
        path.write_text(path.read_text(encoding="utf-8").replace(
            "[0.25, 0.50, 0]", "[0.50, 1.00, 0]").replace("min_bet = 0.50", "min_bet = 1.00"),
            encoding="utf-8")
        code, out, err = user("import", "--session", "dimes", str(path))
        assert (code, err) == (2, f"error: {path}:1, hand d1: {refusal}")
        assert "1 rejected" in out
    code, out, _ = user("sql", "SELECT count(*) AS n FROM events WHERE hand_id = 'd1'", "--json")
    assert (code, json.loads(out)) == (0, [{"n": 0}])
    # with no session it is its own quarters, the mispaid copy a discrepancy
    assert user("import", str(path))[0] == 0
    code, out, _ = user("replay", "--hand", "d1", "--json")
    hand = json.loads(out)
    assert code == 1 and hand["pots"][0]["awards"] == {"Bob": 5, "Cy": 5}
    assert hand["recorded"] == {"Bob": 6, "Cy": 4}


def test_a_hand_in_four_cent_chips_is_refused_by_a_dime_session(  # noqa: ANN001
        user, tmp_path: Path, db: str) -> None:
    # Chips of 0.04 USD, blinds 0.20/0.40 (5 and 10 of them): every amount is whole dimes
    # too, so each would convert, but the table divided its pots in 0.04 and no number of
    # 0.04 chips is a dime; the least amount that is whole chips of both is 0.20, the
    # smallest chip in play it was silently given (2 dimes). Refused naming both chips, in
    # a dime session; a session of 0.02 USD chips (0.04 is two of them) takes it x2.
    assert user("session", "open", "dimes", "--chip-value", "0.10", "--currency", "USD")[0] == 0
    path = phh(tmp_path / "f1.phh", hand="f1", paid="0.52, 0.48",
               chip="_chip = { minor_per_chip = 4 }\n")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "[0.25, 0.50, 0]", "[0.20, 0.40, 0]").replace("min_bet = 0.50", "min_bet = 0.40")
        .replace("10.00", "4.00"), encoding="utf-8")
    code, out, err = user("import", "--session", "dimes", str(path))
    assert (code, err) == (2, (
        f"error: {path}:1, hand f1: its smallest chip in play is 0.04 USD, smaller than "
        "session dimes's chip of 0.10 USD and no whole number of it is one (the least amount "
        "that is whole chips of both is 0.20 USD, a chip the table never used): the "
        "session's chips cannot divide its pots as the table did (RULES.md §2.1); import it "
        "into a session whose chip is a whole number of 0.04 USD or divides it, or with no "
        "session; nothing of the hand is imported\n"))
    assert "1 rejected" in out
    code, out, _ = user("sql", "SELECT count(*) AS n FROM events WHERE hand_id = 'f1'", "--json")
    assert (code, json.loads(out)) == (0, [{"n": 0}])
    assert user("session", "open", "twos", "--chip-value", "0.02", "--currency", "USD")[0] == 0
    assert user("import", "--session", "twos", str(path))[0] == 0
    hand = replayed(user, "f1")
    # a pot of 1.00 USD (Ann's 0.20, Bob's and Cy's 0.40), 25 chips of 0.04: Bob, first left
    # of the button, 13 of them (0.52), Cy 12 (0.48); in chips of 0.02: 50, Bob 26, Cy 24
    assert (hand["pots"][0]["amount"], hand["pots"][0]["awards"]) == (50, {"Bob": 26, "Cy": 24})
    assert json.loads(stored(user, "f1")[0])["options"]["split"]["smallest_chip"] == 2


@pytest.mark.parametrize(("value", "said"), [
    ("0", "_split.smallest_chip = 0 is not at least one chip of the hand"),
    ("0.001", "_split.smallest_chip: amount 0.001 has more decimal places than the hand's "
              "scale (2)"),
    ("true", "_split.smallest_chip: True is not a number"),
])
def test_a_smallest_chip_that_is_no_chip_is_refused(user, tmp_path: Path, db: str,  # noqa: ANN001
                                                    value: str, said: str) -> None:
    bad = phh(tmp_path / "bad.phh")
    bad.write_text(bad.read_text(encoding="utf-8")
                   + f"_split = {{ smallest_chip = {value} }}\n", encoding="utf-8")
    code, out, err = user("import", str(bad))
    assert code == 2 and "1 rejected" in out
    assert err.startswith(f"error: {bad}:14, hand q1: {said}")
    assert not Path(db).exists()


# --------------------------------------------------------------------------------------------
# Live: a hand started live is in the session's chips (its smallest chip in play is one of
# them); a hand in play imported from a larger chip goes on in its own


IN_PLAY = [
    {"hand": "L1", "seq": 1, "event": {
        "type": "hand_started", "hand": "L1", "game": "NT", "button": "Cy",
        "stakes": {"betting": "no_limit", "antes": [0, 0, 0], "blinds_or_straddles": [1, 2, 0],
                   "min_bet": 2},
        "seats": [{"player": "Ann", "stack": 100}, {"player": "Bob", "stack": 100},
                  {"player": "Cy", "stack": 100}],
        "unit": {"currency": "USD", "minor_per_chip": 25}}},
    {"hand": "L1", "seq": 2, "event": {"type": "forced_bet", "player": "Ann",
                                       "kind": "small_blind", "amount": 1}},
    {"hand": "L1", "seq": 3, "event": {"type": "forced_bet", "player": "Bob",
                                       "kind": "big_blind", "amount": 2}},
    {"in_play": {"L1": 3}, "rows": 3},
]


def test_a_hand_in_play_goes_on_in_its_own_chip(user, tmp_path: Path) -> None:  # noqa: ANN001
    nickel_session(user)
    lines = tmp_path / "l1.jsonl"
    lines.write_text("".join(json.dumps(x) + "\n" for x in IN_PLAY), encoding="utf-8")
    assert user("import", "--session", "fri", str(lines))[0] == 0
    for action in ("d dh Ann 2c3d", "d dh Bob 4c5d", "d dh Cy 6h7h"):
        assert user("act", "L1", action)[0] == 0
    # 22 nickels are 1.10 USD, no number of 0.25 USD chips; 25 are 1.25
    code, _, err = user("act", "L1", "Cy cbr 22")
    assert (code, err.split("; now:")[0]) == (
        2, "error: hand L1, action 'Cy cbr 22': raise to 22 is not a whole number of the "
           "smallest chip in play, 5")
    for action in ("Cy cbr 25", "Ann f", "Bob cc", "d db AsKsQs", "Bob cc", "Cy cc", "d db Js",
                   "Bob cc", "Cy cc", "d db Ts", "Bob cc", "Cy cc", "Bob sm 4c5d",
                   "Cy sm 6h7h", "pay Bob 30", "pay Cy 25", "end"):
        assert user("act", "L1", action)[0] == 0, action
    # the pot: Ann's 5 and 25 each from Bob and Cy, 55; tied, Bob 30 and Cy 25 (not 28, 27)
    hand = replayed(user, "L1")
    assert hand["pots"][0]["awards"] == {"Bob": 30, "Cy": 25}
    assert hand["discrepancies"] == []
