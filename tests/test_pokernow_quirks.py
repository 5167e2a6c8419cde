"""PokerNow logs as they are (FORMATS.md §2): the quirks real home-game exports hold.

Each small log here is made of real rows of ../shared/data/pokernow (the ids and names as they are
there), with the one line the quirk is about written the way PokerNow writes it: a stand-up and
sit-back followed by a join, a raise to the bet, the big blind's check logged as a call, a show of
one card, an id change, a short all-in big blind called at the level, two tables in one file. Each
test asserts the chips: buy-ins, stacks, pots, awards and what the audit finds (nothing).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ledger.formats.pokernow.log import read_pokernow_log
from ledger.model.events import AllIn, BetRaise, Call, Check, PlayerAlias, RecordedPayout, Reveal
from tests.conftest import SHARED
from tests.test_pokernow import _at, _hands, _of, _write
from tests.test_pokernow_cli import _json, _rows
from tests.test_pokernow_cli import _write as _write_rows

DATA = SHARED / "pokernow"

# -- real rows ---------------------------------------------------------------------------------
# valakuzhyk_07_21_2022_log1.csv, hands #1, #2 and #9 (oldest row first)
PHZ, SJF, HZN, AAB = ('"Phzd Juwvifsvh @ Bq7QhNKAYJ"', '"sjfid753 @ Bv3wRKv-vh"',
                      '"Hznmh#9009 @ 1RhUayZFQU"', '"Aab Ovwsi @ gKyQzJRs7T"')
IPU, EFV, ERH, GAX = ('"IpusyM @ f-mUxYkHrq"', '"Efvoziamtgktl @ JC9KmsGDZv"',
                      '"Erhradnpmi3 @ H353kCoMHV"', '"gaxdqwmwksve @ hoL3fbolcH"')
NLHE = "(No Limit Texas Hold'em)"


def _stacks(*seats: tuple[int, str, int]) -> str:
    return "Player stacks: " + " | ".join(f"#{n} {p} ({s})" for n, p, s in seats)


def _joins(stacks: str) -> list[str]:
    """A ``joined the game`` line for every seat of a ``Player stacks`` line, with its stack."""
    return [f"The player {p} joined the game with a stack of {s}."
            for p, s in re.findall(r'#\d+ ("[^"]*") \((\d+)\)', stacks)]


VK1 = [
    f"-- starting hand #1  {NLHE} (dealer: {SJF}) --",
    *(f"The player {p} joined the game with a stack of 1000."
      for p in (PHZ, SJF, HZN, AAB, IPU, EFV, ERH, GAX)),
    _stacks((1, PHZ, 1000), (2, SJF, 1000), (3, HZN, 1000), (4, AAB, 1000), (5, IPU, 1000),
            (6, EFV, 1000), (7, ERH, 1000), (8, GAX, 1000)),
    "Your hand is J♥, 5♣",
    f"{HZN} posts a small blind of 10", f"{AAB} posts a big blind of 20", f"{IPU} folds",
    f"{EFV} calls 20", f"{ERH} folds", f"{GAX} calls 20", f"{PHZ} folds", f"{SJF} folds",
    f"{HZN} calls 20", f"{AAB} checks",
    "Flop:  [10♠, K♦, 3♥]",
    f"{HZN} bets 20", f"{AAB} folds", f"{EFV} folds", f"{GAX} calls 20",
    "Turn: 10♠, K♦, 3♥ [Q♠]",
    f"{HZN} bets 20", f"{GAX} calls 20",
    "River: 10♠, K♦, 3♥, Q♠ [10♥]",
    f"{HZN} bets 120", f"{GAX} folds", f"Uncalled bet of 120 returned to {HZN}",
    f"{HZN} collected 160 from pot",
    "-- ending hand #1 --",
]
VK2 = [
    f"-- starting hand #2  {NLHE} (dealer: {HZN}) --",
    _stacks((1, PHZ, 1000), (2, SJF, 1000), (3, HZN, 1100), (4, AAB, 980), (5, IPU, 1000),
            (6, EFV, 980), (7, ERH, 1000), (8, GAX, 940)),
    "Your hand is 9♣, 3♣",
    f"{AAB} posts a small blind of 10", f"{IPU} posts a big blind of 20", f"{EFV} folds",
    f"{ERH} raises to 45", f"{GAX} calls 45", f"{PHZ} folds", f"{SJF} calls 45",
    f"{HZN} folds", f"{AAB} folds", f"{IPU} calls 45",
    "Flop:  [3♥, Q♣, 6♥]",
    f"{IPU} checks", f"{ERH} bets 142", f"{GAX} folds", f"{SJF} raises to 290",
    f"{IPU} calls 290", f"{ERH} calls 290",
    "Turn: 3♥, Q♣, 6♥ [8♥]",
    f"{IPU} checks", f"{ERH} checks", f"{SJF} bets 665 and go all in", f"{IPU} folds",
    f"{ERH} folds", f"Uncalled bet of 665 returned to {SJF}", f"{SJF} collected 1060 from pot",
    "-- ending hand #2 --",
]
VK9_STACKS = ((1, PHZ, 900), (2, SJF, 1465), (3, HZN, 1360), (4, AAB, 1370), (5, IPU, 535),
              (6, EFV, 265), (8, GAX, 2105))
VK9 = [
    "The game's small blind was changed from 20 to 30.",
    "The game's big blind was changed from 40 to 60.",
    f"-- starting hand #9  {NLHE} (dealer: {SJF}) --",
    *_joins(_stacks(*VK9_STACKS)),
    _stacks(*VK9_STACKS),
    "Your hand is K♦, 10♣",
    f"{HZN} posts a small blind of 30", f"{AAB} posts a big blind of 60",
    f"{IPU} folds", f"{EFV} folds", f"{GAX} folds", f"{PHZ} folds", f"{SJF} folds",
    f"{HZN} calls 60", f"{AAB} checks",
    "Flop:  [8♥, Q♣, 4♣]", f"{HZN} checks", f"{AAB} checks",
    "Turn: 8♥, Q♣, 4♣ [A♥]", f"{HZN} checks", f"{AAB} checks",
    "River: 8♥, Q♣, 4♣, A♥ [8♦]",
    f"{HZN} bets 120", f"{AAB} folds", f"Uncalled bet of 120 returned to {HZN}",
    f"{HZN} collected 120 from pot",
    "-- ending hand #9 --",
]
# charlestudor_Input_Log_002.csv, hands #2, #3 and #4
A8, OVV, KSV = '"A8 @ gE4aE_Yhc3"', '"@ovvkpfngo@@@ @ CzMp1GAawT"', '"ksv @ ycx @ YJJJbgIQrB"'
CT2 = [
    f"-- starting hand #2  {NLHE} (dealer: {OVV}) --",
    *_joins(_stacks((1, A8, 50), (2, OVV, 30), (4, KSV, 120))),
    _stacks((1, A8, 50), (2, OVV, 30), (4, KSV, 120)),
    "Your hand is 4♥, Q♥", "Dead Small Blind", f"{KSV} posts a big blind of 20",
    f"{A8} folds", f"{OVV} raises to 30 and go all in", f"{KSV} calls 30",
    f"{OVV} shows a 8♥, A♣.", f"{KSV} shows a 4♣, 4♦.",
    "Flop:  [6♠, 2♠, 7♥]", "Turn: 6♠, 2♠, 7♥ [5♦]", "River: 6♠, 2♠, 7♥, 5♦ [3♥]",
    f"{KSV} collected 60 from pot with Straight, 7 High (combination: 7♥, 6♠, 5♦, 4♣, 3♥)",
    "-- ending hand #2 --",
]
CT34 = [
    f"-- starting hand #3  {NLHE} (dealer: {KSV}) --",
    *_joins(_stacks((1, A8, 50), (4, KSV, 150))),
    _stacks((1, A8, 50), (4, KSV, 150)),
    "Your hand is K♦, 9♥",
    f"{KSV} posts a small blind of 10", f"{A8} posts a big blind of 20", f"{KSV} calls 20",
    f"{A8} raises to 50 and go all in", f"{KSV} calls 50",
    f"{A8} shows a K♦, 9♥.", f"{KSV} shows a 8♦, 2♦.",
    "Flop:  [5♣, Q♦, 9♣]", "Turn: 5♣, Q♦, 9♣ [6♥]", "River: 5♣, Q♦, 9♣, 6♥ [5♦]",
    f"{A8} collected 100 from pot with Two Pair, 9's & 5's (combination: 9♥, 9♣, 5♣, 5♦, K♦)",
    "-- ending hand #3 --",
    f"-- starting hand #4  {NLHE} (dealer: {A8}) --",
    _stacks((1, A8, 100), (4, KSV, 100)),
    "Your hand is 2♥, 9♦",
    f"{A8} posts a small blind of 10", f"{KSV} posts a big blind of 20",
    f"{A8} raises to 100 and go all in", f"{KSV} calls 100 and go all in",
    f"{A8} shows a 2♥, 9♦.", f"{KSV} shows a J♥, K♠.",
    "Flop:  [3♦, 4♥, 8♠]", "Turn: 3♦, 4♥, 8♠ [5♠]", "River: 3♦, 4♥, 8♠, 5♠ [A♣]",
    f"{A8} collected 200 from pot with Straight, 5 High (combination: 5♠, 4♥, 3♦, 2♥, A♣)",
    "-- ending hand #4 --",
]


def _swap(rows: list[str], old: str, new: str | list[str], *, first: bool = False
          ) -> list[str]:
    """``rows`` with the row ``old`` (the only one, or the ``first``) replaced by ``new`` (a
    list: several rows)."""
    assert first or rows.count(old) == 1, old
    i = rows.index(old)
    return [*rows[:i], *([new] if isinstance(new, str) else new), *rows[i + 1 :]]


def _import(run, path: Path) -> list[dict]:  # noqa: ANN001
    """Import ``path`` (no error line, nothing rejected) and replay it: one object per hand."""
    out = run("import", str(path))
    assert out.exit_code == 0 and "0 rejected" in out.output, out.output
    replay = run("replay", "--json")
    assert replay.exit_code == 0, replay.output
    return [json.loads(line) for line in replay.output.splitlines()]


def _short_big_blind(rows: list[str]) -> list[str]:
    """Hand #9 with Aab's stack 53: he posts the big blind of 53 all in; up to the call."""
    rows = [r.replace(f"#4 {AAB} (1370)", f"#4 {AAB} (53)").replace(
        "a stack of 1370.", "a stack of 53.") for r in rows]
    rows = _swap(rows, f"{AAB} posts a big blind of 60",
                 f"{AAB} posts a big blind of 53 and go all in")
    return rows[: next(i for i, r in enumerate(rows) if r.startswith(f"{HZN} calls 60")) + 1]


def _books(run, session: str) -> dict[str, dict]:  # noqa: ANN001
    _, rows = _json(run, "sql", "--json", "SELECT player, buy_in, cash_out, on_table, net FROM "
                    f"player_session_results WHERE session = '{session}'")
    return {r.pop("player"): r for r in rows}


def _clean_audit(run) -> None:  # noqa: ANN001
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})


# -- seats and money ---------------------------------------------------------------------------


def test_stand_up_sit_back_and_join_again_is_one_buy_in_of_200(run, tmp_path) -> None:  # noqa: ANN001
    """Hznmh is approved with 200 and wins 100 in hand #1 (his stack there 200, not the log's
    1000); he stands up with 300, sits back with 300 and is logged "joined" with 300 before
    hand #2, where he folds. No chips moved: one buy-in of 200 (books used to say 200 + 300 +
    300 = 800, with a cash-out of 300 and a stack_continuity finding), 300 on the table."""
    approved = [f"The admin approved the player {HZN} participation with a stack of 200.",
                f"The player {HZN} joined the game with a stack of 200."]
    one = _swap(VK1, f"The player {HZN} joined the game with a stack of 1000.", approved)
    one = [row.replace(f"#3 {HZN} (1000)", f"#3 {HZN} (200)") for row in one]
    two = [row.replace(f"#3 {HZN} (1100)", f"#3 {HZN} (300)") for row in VK2]
    moves = [f"The player {HZN} stand up with the stack of 300.",
             f"The player {HZN} sit back with the stack of 300.",
             f"The player {HZN} joined the game with a stack of 300."]
    log = _write(tmp_path / "standup.csv", [*one, *moves, *two])
    game = read_pokernow_log(log)
    assert game.errors == []
    hands = _import(run, log)
    assert all(h["discrepancies"] == [] for h in hands)
    assert hands[0]["final_stacks"]["Hznmh#9009"] == 300  # replay names 1RhUayZFQU so
    books = _books(run, "standup")
    assert books["1RhUayZFQU"] == {"buy_in": 200, "cash_out": 0, "on_table": 300, "net": 100}
    assert sum(b["buy_in"] for b in books.values()) == 7 * 1000 + 200
    _clean_audit(run)


def test_a_join_of_a_seated_player_with_another_stack_is_reported(tmp_path: Path) -> None:
    """Joined again with chips he does not have: said (the books then find it too)."""
    log = _write(tmp_path / "j.csv", [
        *VK1, f"The player {HZN} joined the game with a stack of 1500.", *VK2])
    game = read_pokernow_log(log)
    assert [e.message for e in game.errors] == [
        "Hznmh#9009 (1RhUayZFQU) starts with 1100 but had 1500 after the previous hand and the "
        "session lines",
        "joins with 1500 but has 1100 at the table"]  # (the file is newest first)


# -- actions as PokerNow words them --------------------------------------------------------------


def test_a_raise_to_the_bet_of_an_all_in_is_a_call(run, tmp_path) -> None:  # noqa: ANN001
    """@ovv raises all in to 30; ksv (120 behind) is logged "raises to 30": he calls 30 and
    wins the 60 pot with his straight (was refused: "raises to 30, not above the bet of 30")."""
    rows = _swap(CT2, f"{KSV} calls 30", f"{KSV} raises to 30")
    log = _write(tmp_path / "raise.csv", rows)
    game = read_pokernow_log(log)
    (hand,) = _hands(game)
    assert game.errors == [] and Call(player="YJJJbgIQrB") in hand.events
    assert not _of(hand, BetRaise)
    (h,) = _import(run, log)
    assert h["discrepancies"] == [] and h["pots"][0]["amount"] == 60
    assert h["pots"][0]["awards"] == {"ksv @ ycx": 60}  # replay names the ids as the log
    assert h["final_stacks"] == {"ksv @ ycx": 150, "A8": 50, "@ovvkpfngo@@@": 0}
    _clean_audit(run)


def test_the_big_blinds_check_logged_as_a_call_is_a_check(run, tmp_path) -> None:  # noqa: ANN001
    """Hand #9: the small blind completes to 60 and the big blind "calls 60" with nothing more
    to put in: his check. Hznmh then bets the river alone and takes the 120 (was refused:
    "nothing to call (check)")."""
    rows = _swap(VK9, f"{AAB} checks", f"{AAB} calls 60", first=True)
    log = _write(tmp_path / "check.csv", rows)
    game = read_pokernow_log(log)
    (hand,) = _hands(game)
    assert game.errors == [] and _of(hand, Check)[0] == Check(player="gKyQzJRs7T")
    (h,) = _import(run, log)
    assert h["discrepancies"] == [] and h["net"]["Hznmh#9009"] == 60  # 1RhUayZFQU
    assert h["net"]["Aab Ovwsi"] == -60 and h["returned"] == {"Hznmh#9009": 120}
    _clean_audit(run)


@pytest.mark.parametrize("stack", [1360, 60], ids=["deep", "all-in"])
def test_a_short_all_in_big_blind_called_at_the_level(run, tmp_path, stack) -> None:  # noqa: ANN001
    """Hand #9 with the big blind all in for 53 of the 60: the small blind "calls 60" and
    PokerNow gives 7 back as an uncalled bet. RULES.md §4.2 (the bet sizes stay when a blind is
    posted short all-in): the bet to call is the full 60, so his call is of 60 (an all-in to 60
    when 60 is all he has), the 7 the short blind cannot match come back (§1.4: returned
    chips), and the pot is 53 + 53 = 106, won by Hznmh's two pair: no discrepancy, no
    over-call. Was read as a call of the 53 posted, the 7 never in."""
    rows = VK9
    if stack != 1360:
        rows = [r.replace(f"#3 {HZN} (1360)", f"#3 {HZN} ({stack})").replace(
            "a stack of 1360.", f"a stack of {stack}.") for r in VK9]
        rows = _swap(rows, f"{HZN} calls 60", f"{HZN} calls 60 and go all in")
    short = [*_short_big_blind(rows), f"Uncalled bet of 7 returned to {HZN}",
             f"{HZN} shows a 9♠, 4♠.", f"{AAB} shows a K♦, 10♣.",
             "Flop:  [8♥, Q♣, 4♣]", "Turn: 8♥, Q♣, 4♣ [A♥]", "River: 8♥, Q♣, 4♣, A♥ [8♦]",
             f"{HZN} collected 106 from pot with Two Pair, 8's & 4's (combination: 8♥, 8♦, "
             "4♠, 4♣, A♥)", "-- ending hand #9 --"]
    log = _write(tmp_path / "shortbb.csv", short)
    game = read_pokernow_log(log)
    (hand,) = _hands(game)
    assert game.errors == []
    call = Call(player="1RhUayZFQU") if stack == 1360 else AllIn(player="1RhUayZFQU", to=60)
    assert call in hand.events
    assert [p for p in _of(hand, RecordedPayout) if p.returned] == [
        RecordedPayout(player="1RhUayZFQU", amount=7, returned=True)]
    assert "over_call" not in hand.events[0].source
    assert hand.events[0].stakes.min_bet == 60  # the level, not the short blind
    (h,) = _import(run, log)
    assert h["discrepancies"] == [] and h["returned"] == {"Hznmh#9009": 7}
    assert h["pots"] == [{**h["pots"][0], "amount": 106, "awards": {"Hznmh#9009": 106}}]
    assert h["net"]["Hznmh#9009"] == 53 and h["net"]["Aab Ovwsi"] == -53
    assert h["final_stacks"]["Hznmh#9009"] == stack + 53
    _clean_audit(run)


def test_a_short_big_blinds_unmatched_call_collected_with_the_pot(run, tmp_path) -> None:  # noqa: ANN001
    """Without the uncalled-bet line the 7 of the call of 60 the big blind all in for 53
    cannot match (RULES.md §4.2, §1.4) are in what Hznmh collects, 113: every chip put in is
    paid out, no error line (was "calls 60 but the bet is 53; 7 of it never comes back")."""
    short = [*_short_big_blind(VK9), "Flop:  [8♥, Q♣, 4♣]", "Turn: 8♥, Q♣, 4♣ [A♥]",
             "River: 8♥, Q♣, 4♣, A♥ [8♦]", f"{HZN} collected 113 from pot",
             "-- ending hand #9 --"]
    log = _write(tmp_path / "over.csv", short)
    game = read_pokernow_log(log)
    assert [e.message for e in game.errors if e.hand == _hands(game)[0].hand_id] == []
    (h,) = _import(run, log)
    assert h["discrepancies"] == [] and h["returned"] == {"Hznmh#9009": 7}
    assert h["recorded"] == {"Hznmh#9009": 113}
    assert [p["amount"] for p in h["pots"]] == [106]
    assert h["net"]["Hznmh#9009"] == 53 and h["net"]["Aab Ovwsi"] == -53


# -- shows ---------------------------------------------------------------------------------------


def test_a_one_card_show_leaves_the_other_card_unknown(run, tmp_path) -> None:  # noqa: ANN001
    """Hands #3 and #4 of log 002, A8 exporting. In #3 ksv shows only his 8♦: his hand is
    8♦ and an unknown card, the showdown cannot be checked and A8's recorded 100 stands. In #4
    A8 shows only his 9♦ (was refused: "holds 2 cards but shows 1"); his other card is his own
    2♥, so the showdown is checked: his wheel takes the 200."""
    rows = _swap(CT34, f"{KSV} shows a 8♦, 2♦.", f"{KSV} shows a 8♦.")
    rows = _swap(rows, f"{A8} shows a 2♥, 9♦.", f"{A8} shows a 9♦.")
    log = _write(tmp_path / "show.csv", rows)
    game = read_pokernow_log(log)
    three, four = _hands(game)
    assert game.errors == [] and game.exporter == "gE4aE_Yhc3"
    assert Reveal(player="YJJJbgIQrB", cards=["8d", "??"]) in three.events
    assert Reveal(player="gE4aE_Yhc3", cards=["9d", "2h"]) in four.events
    h3, h4 = _import(run, log)
    assert h3["discrepancies"] == [] and h3["verifiable"] is False
    assert h3["recorded"] == {"A8": 100} and h3["net"] == {"A8": 50, "ksv @ ycx": -50}
    assert h4["verifiable"] is True and h4["discrepancies"] == []
    assert h4["pots"][0]["awards"] == {"A8": 200}
    _clean_audit(run)


# -- ids ------------------------------------------------------------------------------------------


NEW = "q3Xv9_LmZa"
CHANGE = (f'The player "Hznmh#9009 @ {NEW}" changed the ID from 1RhUayZFQU to {NEW} '
          "because authenticated login.")


def _renamed(rows: list[str]) -> list[str]:
    return [r.replace(HZN, f'"Hznmh#9009 @ {NEW}"') for r in rows]


def test_an_id_change_in_the_middle_of_a_hand_is_one_player(run, tmp_path) -> None:  # noqa: ANN001
    """Hznmh logs in after the flop of hand #1: from that line on the log names him by his new
    id. In #1 he keeps his seat (every event of the hand names 1RhUayZFQU); the session says
    1RhUayZFQU is q3Xv9_LmZa; the books know one player, one buy-in of 1000, +100 (was exit 2,
    "unrecognised log entry", and two players)."""
    flop = VK1.index("Flop:  [10♠, K♦, 3♥]") + 1
    log = _write(tmp_path / "login.csv",
                 [*VK1[:flop], CHANGE, *_renamed(VK1[flop:]), *_renamed(VK2)])
    game = read_pokernow_log(log)
    one, two = _hands(game)
    assert game.errors == []
    assert {getattr(e, "player", None) for e in one.events[1:]} - {None} <= {
        s.player for s in one.events[0].seats} and "1RhUayZFQU" in {
        p.player for p in _of(one, RecordedPayout)}
    assert NEW in {s.player for s in two.events[0].seats}
    alias = PlayerAlias(player=NEW, alias="1RhUayZFQU")
    assert alias in game.items and game.items.index(alias) > game.items.index(one)
    _import(run, log)
    books = _books(run, "login")
    assert "1RhUayZFQU" not in books
    assert books[NEW] == {"buy_in": 1000, "cash_out": 0, "on_table": 1100, "net": 100}
    _clean_audit(run)
    assert "Hznmh#9009 (q3Xv9_LmZa)" in run("balances").output


def test_an_id_change_between_hands(run, tmp_path) -> None:  # noqa: ANN001
    log = _write(tmp_path / "between.csv", [*VK1, CHANGE, *_renamed(VK2)])
    assert read_pokernow_log(log).errors == []
    _import(run, log)
    assert _books(run, "between")[NEW]["buy_in"] == 1000
    _clean_audit(run)


# -- files ----------------------------------------------------------------------------------------


def test_a_file_of_two_tables_is_two_games(run, tmp_path) -> None:  # noqa: ANN001
    """The whole valakuzhyk log, then a second ``entry,at,order`` header and log 001 played
    the same evening (its rows moved to 21:10 that day): two sessions, 52 + 4 hands, every
    buy-in where it belongs, nothing to report (was 1,382-odd error lines in one game)."""
    vk_header, vk = _rows(DATA / "valakuzhyk_07_21_2022_log1.csv")
    header, log1 = _rows(DATA / "charlestudor_Input_Log_001.csv")
    shift = 1658437856000 - 1642103277000  # 2022-01-13T19:47:57Z → 2022-07-21T21:10:56Z
    moved = [[e, _at(int(o) // 100 + shift), str(int(o) + shift * 100)] for e, _, o in log1]
    first = _write_rows(tmp_path / "a.csv", vk_header, vk).read_text(encoding="utf-8")
    second = _write_rows(tmp_path / "b.csv", header, moved).read_text(encoding="utf-8")
    both = tmp_path / "friday.csv"
    both.write_text(first + "\ufeff" + second, encoding="utf-8")  # as `cat` pastes two exports
    game = read_pokernow_log(both)
    (other,) = game.more
    assert (game.session, other.session) == ("friday", "friday-2")
    assert game.errors == [] and other.errors == []
    assert [len(_hands(g)) for g in (game, other)] == [52, 4]
    assert other.items[0].source["table"] == 2
    assert other.items[0].source["header_line"] == len(first.splitlines()) + 1
    hands = _import(run, both)
    assert len(hands) == 56 and all(h["discrepancies"] == [] for h in hands)
    assert {h["hand"].rsplit("-", 2)[0] for h in hands} == {"pn-friday", "pn-friday-2"}
    assert sorted(b["buy_in"] for b in _books(run, "friday-2").values()) == [100] * 3
    assert sorted(b["buy_in"] for b in _books(run, "friday").values()) == [1000] * 8
    _clean_audit(run)
    again = run("import", str(both))
    assert "imported 0 hand(s) (0 events)" in again.output


def test_rejected_counts_hands_not_error_lines(run, tmp_path) -> None:  # noqa: ANN001
    """Hand #1 bets 1 on the river and gets 120 back (one error line, the return: the chips
    collected of a hand not stored are no line of their own): refused, nothing of it
    written. Hand #9 (its short big blind's 7 given back, collecting 113 of the 106 put in)
    follows it in the log, its stacks carrying from it: refused with it in one line, its
    finding no warning (FORMATS.md §2). Two error lines, two hands rejected, exit 2."""
    bad = _swap(VK1, f"{HZN} bets 120", f"{HZN} bets 1")
    hand = [r for r in VK9 if not r.startswith(("The player", "The game"))]
    short = [*_short_big_blind(hand), f"Uncalled bet of 7 returned to {HZN}",
             "Flop:  [8♥, Q♣, 4♣]", "Turn: 8♥, Q♣, 4♣ [A♥]",
             "River: 8♥, Q♣, 4♣, A♥ [8♦]", f"{HZN} collected 113 from pot",
             "-- ending hand #9 --"]
    log = _write(tmp_path / "mixed.csv", [*bad, *short])
    out = run("import", str(log))
    lines = out.output.splitlines()
    errors = [line for line in lines if line.startswith("error:")]
    assert out.exit_code == 2 and len(errors) == 2, out.output
    assert "hand pn-mixed-1-" in errors[0]  # the follower's line names hand #9, not #1
    assert errors[-1] == (
        f"error: {log}:18, hand pn-mixed-9-170000003500000: hand #9 follows the refused hand "
        "#1 in the log and is not written (the stacks carry from hand to hand): fix the log "
        "and import it again")
    assert not [line for line in lines if line.startswith("warning:")]
    assert lines[-1] == ("imported 0 hand(s) (25 events) from 1 file(s); 0 already in the "
                         "ledger; 2 rejected")
