"""PokerNow game log and ledger CSV import (ledger/formats/pokernow/log.py, FORMATS.md §2).

The real logs are read in place from /work/shared/data/pokernow/; every value asserted here was read
off the CSV by hand. The chip arithmetic of the events is checked by a small independent replay
(``_flow``): running street totals, all-ins that empty the stack, payouts.
"""

from __future__ import annotations

import csv
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ledger.formats.pokernow.lines import card, game_code, parse_line
from ledger.formats.pokernow.log import PnGame, PnHand, read_pokernow_ledger, read_pokernow_log
from ledger.model.errors import MalformedInput, StoredFinding
from ledger.model.events import (
    AllIn,
    BetRaise,
    BuyIn,
    Call,
    CardsDealt,
    CashOut,
    Check,
    Fold,
    ForcedBet,
    HandEnded,
    HandStarted,
    HandVoided,
    Payment,
    PlayerAlias,
    RecordedPayout,
    Reveal,
    RunCount,
    SeatChange,
    SessionOpened,
    parse_event,
)

DATA = Path("/work/shared/data/pokernow")
LOG1 = DATA / "charlestudor_Input_Log_001.csv"
LOG2 = DATA / "charlestudor_Input_Log_002.csv"
RIT = DATA / "pokernowpy_run-it-twice.csv"
VK = DATA / "valakuzhyk_07_21_2022_log1.csv"
REAL = [LOG1, LOG2, RIT, VK]
FULL = [LOG1, LOG2, VK]  # whole games (the run-it-twice file is an excerpt: #30, #31, #48)

_LIVE = {"small_blind", "big_blind", "straddle", "posted_blind"}


# -- helpers ---------------------------------------------------------------------------------


def _hands(game: PnGame) -> list[PnHand]:
    return [item for item in game.items if isinstance(item, PnHand)]


def _hand(game: PnGame, number: int) -> PnHand:
    (hand,) = [h for h in _hands(game) if h.number == number]
    return hand


def _of(hand: PnHand, kind: type) -> list:
    return [e for e in hand.events if isinstance(e, kind)]


def _flow(hand: PnHand) -> dict:
    """Replay the chips of a hand's events: put in, returned, collected, stacks after."""
    start = hand.events[0]
    behind = {s.player: s.stack for s in start.seats}
    street = dict.fromkeys(behind, 0)
    put_in = dict.fromkeys(behind, 0)
    returned = collected = 0

    def pay(player: str, amount: int) -> None:
        assert 0 <= amount <= behind[player], (hand.number, player, amount)
        behind[player] -= amount
        put_in[player] += amount

    for e in hand.events[1:]:
        if isinstance(e, ForcedBet):
            pay(e.player, e.amount)
            street[e.player] += e.amount if e.kind in _LIVE else 0
        elif isinstance(e, Call):
            to = min(max(street.values()), street[e.player] + behind[e.player])
            pay(e.player, to - street[e.player])
            street[e.player] = to
        elif isinstance(e, BetRaise):
            assert e.to > max(street.values())
            pay(e.player, e.to - street[e.player])
            street[e.player] = e.to
        elif isinstance(e, AllIn):
            assert e.to == street[e.player] + behind[e.player], (hand.number, e)
            street[e.player] = e.to
            pay(e.player, behind[e.player])
        elif isinstance(e, CardsDealt) and e.player is None and e.run == 1:
            street = dict.fromkeys(street, 0)
        elif isinstance(e, RecordedPayout):
            behind[e.player] += e.amount
            if e.returned:
                returned += e.amount
            else:
                collected += e.amount
    return {"in": sum(put_in.values()), "returned": returned, "collected": collected,
            "after": behind, "put_in": put_in}


def _at(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def _write(path: Path, entries: list[str], *, start_ms: int = 1_700_000_000_000) -> Path:
    """Write ``entries`` (oldest first) as a PokerNow export, newest row first, one second apart.
    Entry i is on CSV line ``len(entries) + 1 - i`` (when no entry spans several lines)."""
    rows = [(e, _at(start_ms + 1000 * i), str((start_ms + 1000 * i) * 100)) for i, e in
            enumerate(entries)]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["entry", "at", "order"])
        writer.writerows(reversed(rows))
    return path


def P(name: str, pid: str) -> str:  # noqa: N802 - reads like the log's "P"
    return f'"{name} @ {pid}"'


A, B, C = P("Ann", "AAAAAAAAAA"), P("Bob", "BBBBBBBBBB"), P("all in @ 5", "CCCCCCCCCC")


def _hand_lines(number: int, *, stacks: str, dealer: str = A, extra: tuple = ()) -> list[str]:
    return [f"-- starting hand #{number}  (No Limit Texas Hold'em) (dealer: {dealer}) --",
            f"Player stacks: {stacks}", *extra]


# -- line grammar ----------------------------------------------------------------------------


def test_cards_and_games() -> None:
    assert card("10♠") == "Ts" and card("A♦") == "Ad"
    with pytest.raises(ValueError):
        card("1♠")
    assert game_code("(No Limit Texas Hold'em)") == "NT"
    assert game_code("Pot Limit Omaha Hi") == "PO"
    assert game_code("Pot Limit Omaha Hi/Lo 8 or Better") == "PO/8"
    assert game_code("Pot Limit Omaha 5 Hi") == "PO5"
    assert game_code("Pot Limit Omaha 5 Hi/Lo (8 or Better)") == "PO5/8"
    with pytest.raises(ValueError):
        game_code("Pot Limit Omaha 6 Hi")


def test_hostile_names_split_on_last_at() -> None:
    line = parse_line('"ksv @ ycx @ YJJJbgIQrB" calls 100 and go all in')
    assert (line.player, line.amount, line.all_in) == ("YJJJbgIQrB", "100", True)
    assert line.refs == (("YJJJbgIQrB", "ksv @ ycx"),)
    line = parse_line('"all in @ CCCCCCCCCC" folds')
    assert (line.kind, line.what, line.all_in) == ("act", "folds", False)
    line = parse_line('""uhuhqb""\'\'\' @ 6OQxLdU_ZO" shows a A♣, Q♠.')
    assert line.refs == (("6OQxLdU_ZO", '"uhuhqb""\'\'\''),) and line.cards == ("Ac", "Qs")


def test_newer_start_line_with_id_and_no_brackets() -> None:
    line = parse_line('-- starting hand #26 (id: ndddmwtmyhzo)  No Limit Texas Hold\'em '
                      '(dead button) --')
    assert (line.number, line.pn_id, line.game, line.player) == (
        26, "ndddmwtmyhzo", "No Limit Texas Hold'em", None)


# -- real logs -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_logs_read_without_errors_and_events_validate(path: Path) -> None:
    game = read_pokernow_log(path)
    if path == RIT:  # an excerpt (#30, #31, #48): #48's stacks are not what #31 left them
        H48 = "pn-pokernowpy_run-it-twice-48-16302875682920"  # noqa: N806
        assert [(e.hand, e.line, e.message.split(" starts")[0], e.message.split(" had ")[1]
                 .split(" after")[0], e.message.split("with ")[1].split(" but")[0])
                for e in game.errors] == [
            (H48, 29, name, had, now) for name, had, now in (
                ("Mdeyxwb (HXN7RGKNLI)", "191", "157"), ("Ntunn (5ZxauEKa4C)", "1493", "1467"),
                ("sappxxu (3r4cXeU7Dp)", "1561", "1413"),
                ("OjtkunxseAbye (r6R7wIH3qS)", "599", "1071"),
                ("yfg (R2MwqIZu29)", "2445", "2408"))]
        assert all(isinstance(e, StoredFinding) and e.message.endswith(
            "after hand #31 and the session lines (hands #32-#47 are not in the log); amounts "
            "in chips of 0.01")
            for e in game.errors)
    else:
        assert game.errors == []
    for hand in _hands(game):
        assert isinstance(hand.events[0], HandStarted) and hand.events[-1] == HandEnded()
        assert hand.status == "complete"
        for event in hand.events:  # round trip through the event schema
            assert parse_event(event.model_dump(mode="json")) == event


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_money_in_minus_returned_equals_collected(path: Path) -> None:
    for hand in _hands(read_pokernow_log(path)):
        flow = _flow(hand)
        assert flow["in"] - flow["returned"] == flow["collected"], hand.number


@pytest.mark.parametrize("path", FULL, ids=lambda p: p.stem)
def test_each_hand_starts_where_the_last_one_and_the_session_lines_left_off(path: Path) -> None:
    stacks: dict[str, int] = {}
    for item in read_pokernow_log(path).items:
        if isinstance(item, PnHand):
            for seat in item.events[0].seats:
                assert stacks[seat.player] == seat.stack, (item.number, seat.player)
            stacks.update(_flow(item)["after"])
        elif isinstance(item, BuyIn):
            stacks[item.player] = stacks.get(item.player, 0) + item.chips
        elif isinstance(item, CashOut):
            assert stacks.pop(item.player) == item.chips


def test_log_001_three_handed_hands_and_buy_ins() -> None:
    game = read_pokernow_log(LOG1)
    assert game.session == "charlestudor_Input_Log_001" and game.unit.decimals == 0
    hands = _hands(game)
    assert [h.number for h in hands] == [1, 2, 3, 4]
    assert game.exporter is None  # nobody ever shows: every hole card stays unknown
    first = hands[0]
    assert first.line == 50 and first.pn_id is None
    assert first.hand_id == "pn-charlestudor_Input_Log_001-1-164210353199300"
    start = first.events[0]
    # dealer Qapurjsa9 sits in seat 6: seat order 1, 2, 6 already ends on the button
    assert [(s.player, s.seat, s.stack) for s in start.seats] == [
        ("gE4aE_Yhc3", 1, 100), ("ydk9sgEWl2", 2, 100), ("BfS83Cedu3", 6, 100)]
    assert start.button == "BfS83Cedu3" and start.game == "NT"
    assert start.stakes.blinds_or_straddles == [1, 2, 0] and start.stakes.min_bet == 2
    assert start.source["your_hand"] == ["7s", "9c"]
    assert all(e.cards == ["??", "??"] for e in _of(first, CardsDealt))
    third = _hand(game, 3)
    assert [s.player for s in third.events[0].seats] == ["BfS83Cedu3", "gE4aE_Yhc3", "ydk9sgEWl2"]
    assert [e for e in third.events if not isinstance(e, CardsDealt | HandStarted)] == [
        ForcedBet(player="BfS83Cedu3", kind="small_blind", amount=1),
        ForcedBet(player="gE4aE_Yhc3", kind="big_blind", amount=2),
        Fold(player="ydk9sgEWl2"), Call(player="BfS83Cedu3"), Check(player="gE4aE_Yhc3"),
        Check(player="BfS83Cedu3"), BetRaise(player="gE4aE_Yhc3", to=10),
        Fold(player="BfS83Cedu3"),
        RecordedPayout(player="gE4aE_Yhc3", amount=10, returned=True),
        RecordedPayout(player="gE4aE_Yhc3", amount=4), HandEnded()]
    assert _of(third, CardsDealt)[-1].cards == ["3s", "Ac", "Kd"]
    # approvals buy in; the "joined the game" line that follows each is the same seat
    session = [i for i in game.items if not isinstance(i, PnHand)]
    assert isinstance(session[0], SessionOpened)
    assert [i.chips for i in session if isinstance(i, BuyIn)] == [100, 100, 100]
    assert game.items.index(first) == 10  # opened + 3 × (alias, join, buy-in)


def test_log_002_hostile_names_all_ins_dead_small_blind_and_quits() -> None:
    game = read_pokernow_log(LOG2)
    assert game.names == {"gE4aE_Yhc3": {"A8"}, "CzMp1GAawT": {"@ovvkpfngo@@@"},
                          "6OQxLdU_ZO": {'"uhuhqb""\'\'\''}, "YJJJbgIQrB": {"ksv @ ycx"}}
    assert game.players["YJJJbgIQrB"] == "ksv @ ycx"
    aliases = [i for i in game.items if isinstance(i, PlayerAlias)]
    assert {(a.player, a.alias) for a in aliases} == {
        (pid, name) for pid, names in game.names.items() for name in names}
    # A8 shows 2♥ 9♦ in hand #4, which is that hand's "Your hand is": A8 exported the log
    assert game.exporter == "gE4aE_Yhc3"
    dealt = {e.player: e.cards for e in _of(_hand(game, 1), CardsDealt)}
    assert dealt["gE4aE_Yhc3"] == ["8c", "Ts"] and dealt["YJJJbgIQrB"] == ["??", "??"]
    one = _hand(game, 1)
    assert AllIn(player="6OQxLdU_ZO", to=50) in one.events
    assert AllIn(player="YJJJbgIQrB", to=50) in one.events
    assert _of(one, RecordedPayout) == [RecordedPayout(player="YJJJbgIQrB", amount=120)]
    assert Reveal(player="6OQxLdU_ZO", cards=["Ac", "Qs"]) in one.events
    two = _hand(game, 2)  # "Dead Small Blind": only the big blind is posted
    start = two.events[0]
    assert [s.player for s in start.seats] == ["YJJJbgIQrB", "gE4aE_Yhc3", "CzMp1GAawT"]
    assert start.source["dead_small_blind"] is True
    assert _of(two, ForcedBet) == [ForcedBet(player="YJJJbgIQrB", kind="big_blind", amount=20)]
    assert [e for e in two.events if isinstance(e, Fold | AllIn | Call)] == [
        Fold(player="gE4aE_Yhc3"), AllIn(player="CzMp1GAawT", to=30), Call(player="YJJJbgIQrB")]
    assert _of(two, CardsDealt)[-3:] == [
        CardsDealt(cards=["6s", "2s", "7h"], face_up=[True] * 3),
        CardsDealt(cards=["5d"], face_up=[True]), CardsDealt(cards=["3h"], face_up=[True])]
    quits = [i for i in game.items if isinstance(i, SeatChange) and i.change == "quit"]
    assert [(q.player, q.stack) for q in quits] == [
        ("6OQxLdU_ZO", 0), ("CzMp1GAawT", 0), ("YJJJbgIQrB", 0)]
    # the first quit comes between hands #1 and #2, in log order
    assert game.items.index(one) < game.items.index(quits[0]) < game.items.index(two)


def test_run_it_twice_cents_and_the_short_order() -> None:
    game = read_pokernow_log(RIT)
    assert game.unit.decimals == 2 and game.exporter == "R2MwqIZu29"
    # hand #48's starting row has order 16302875682920 (a digit short) yet sorts first
    assert [h.number for h in _hands(game)] == [30, 31, 48]
    h48 = _hand(game, 48)
    assert h48.line == 30 and h48.events[0].source["order"] == "16302875682920"
    start = h48.events[0]
    assert [(s.player, s.stack) for s in start.seats] == [
        ("HXN7RGKNLI", 157), ("5ZxauEKa4C", 1467), ("3r4cXeU7Dp", 1413), ("r6R7wIH3qS", 1071),
        ("R2MwqIZu29", 2408)]
    assert start.stakes.blinds_or_straddles == [5, 10, 0, 0, 0] and start.stakes.min_bet == 10
    assert _of(h48, CardsDealt)[4] == CardsDealt(player="R2MwqIZu29", cards=["8s", "8h"],
                                                 face_up=[False, False])
    assert AllIn(player="HXN7RGKNLI", to=23) in h48.events
    assert _of(h48, RunCount) == [RunCount(runs=2)]
    assert [e for e in _of(h48, CardsDealt) if e.player is None][-2:] == [
        CardsDealt(cards=["Tc"], face_up=[True], run=1),
        CardsDealt(cards=["7c"], face_up=[True], run=2)]
    assert _of(h48, RecordedPayout) == [
        RecordedPayout(player="R2MwqIZu29", amount=167, run=1),
        RecordedPayout(player="R2MwqIZu29", amount=167, run=2)]
    # 15.61 → 7.81 on run 1 and 7.80 on run 2 (the odd cent to run 1)
    assert [(p.amount, p.run) for p in _of(_hand(game, 30), RecordedPayout)] == [(781, 1),
                                                                                 (780, 2)]
    h31 = _hand(game, 31)  # "Some players choose to not run it twice": one run
    assert _of(h31, RunCount) == []
    assert _of(h31, RecordedPayout) == [RecordedPayout(player="6sDYZfyXI8", amount=227)]


def test_valakuzhyk_side_pots_short_all_ins_and_dead_buttons() -> None:
    game = read_pokernow_log(VK)
    hands = _hands(game)
    assert [h.number for h in hands] == list(range(1, 53))
    assert game.exporter == "gKyQzJRs7T"
    assert [i.chips for i in game.items if isinstance(i, BuyIn)] == [1000] * 8
    assert len([i for i in game.items if isinstance(i, CashOut)]) == 7
    h21 = _hand(game, 21)
    assert h21.events[0].stakes.min_bet == 150
    assert AllIn(player="hoL3fbolcH", to=85) in h21.events  # all in for less than the big blind
    assert _of(h21, RecordedPayout) == [RecordedPayout(player="1RhUayZFQU", amount=330),
                                        RecordedPayout(player="1RhUayZFQU", amount=2320)]
    h23 = _hand(game, 23)
    assert AllIn(player="JC9KmsGDZv", to=70) in h23.events
    paid = _of(h23, RecordedPayout)
    assert paid == [RecordedPayout(player="1RhUayZFQU", amount=1969, returned=True),
                    RecordedPayout(player="JC9KmsGDZv", amount=280),
                    RecordedPayout(player="1RhUayZFQU", amount=165)]
    # the uncalled bet comes back before the shows and the board, as logged
    assert h23.events.index(paid[0]) < h23.events.index(_of(h23, Reveal)[0])
    h37 = _hand(game, 37)
    assert AllIn(player="f-mUxYkHrq", to=160) in h37.events
    assert [(p.amount, p.returned) for p in _of(h37, RecordedPayout)] == [
        (300, True), (480, False), (280, False)]
    # dead button: no button, seats rotated from the small blind (seat 8) round to seat 6
    six = _hand(game, 6).events[0]
    assert six.button is None and six.source["inferred_button"] == "JC9KmsGDZv"
    assert [s.seat for s in six.seats] == [8, 1, 2, 3, 4, 5, 6]
    five = _hand(game, 5)  # dealer in seat 6, seat 7 left: the big blind (seat 8) is first
    assert [s.seat for s in five.events[0].seats] == [8, 1, 2, 3, 4, 5, 6]
    assert _of(five, ForcedBet) == [ForcedBet(player="hoL3fbolcH", kind="big_blind", amount=40)]
    # shows logged after "-- ending hand --" belong to the hand that ended: #42's winner shows
    # 7♠ 6♠; in #11 IpusyM, who folded, shows K♦ 5♠ (kept in the source, not a showdown Reveal)
    assert _hand(game, 42).events[-2:] == [Reveal(player="gKyQzJRs7T", cards=["7s", "6s"]),
                                           HandEnded()]
    eleven = _hand(game, 11)
    assert eleven.events[0].source["shown_after_fold"] == {"f-mUxYkHrq": ["Kd", "5s"]}
    assert Reveal(player="f-mUxYkHrq", cards=["Kd", "5s"]) not in eleven.events
    split = _of(_hand(game, 39), RecordedPayout)
    assert [(p.player, p.amount) for p in split] == [("gKyQzJRs7T", 1035), ("JC9KmsGDZv", 1035)]
    assert _hand(game, 52).events[0].stakes.min_bet == 500


def test_reimport_gives_the_same_ids_and_keys(tmp_path: Path) -> None:
    first = read_pokernow_log(VK)
    copy = tmp_path / "renamed.csv"
    copy.write_bytes(VK.read_bytes())
    again = read_pokernow_log(copy, session=first.session)
    assert [h.hand_id for h in _hands(again)] == [h.hand_id for h in _hands(first)]
    assert [h.source_key for h in _hands(read_pokernow_log(copy))] == [
        h.source_key for h in _hands(first)]
    assert len({h.source_key for h in _hands(first)}) == 52


# -- synthetic logs --------------------------------------------------------------------------


def test_log_cut_mid_hand_is_incomplete(tmp_path: Path) -> None:
    entries = _hand_lines(1, stacks=f"#1 {A} (100) | #2 {B} (100)", extra=(
        f"{A} posts a small blind of 1", f"{B} posts a big blind of 2", f"{A} raises to 6"))
    game = read_pokernow_log(_write(tmp_path / "cut.csv", entries))
    (hand,) = _hands(game)
    assert hand.status == "incomplete" and hand.events[-1] == HandEnded(status="incomplete")
    # the log is newest first: its lines 2 (Ann's raise) to 6 (the starting line) are the hand
    (finding,) = game.errors
    assert isinstance(finding, StoredFinding)
    assert (finding.line, finding.hand, str(finding)) == (2, "pn-cut-1-170000000000000", (
        f"{tmp_path}/cut.csv:2, hand pn-cut-1-170000000000000, action '\"Ann @ AAAAAAAAAA\" "
        "raises to 6': the log stops inside hand #1, before its ending line (an export cut at "
        "the game's newest rows, or taken during the hand): its 5 lines (2 to 6) kept as an "
        "incomplete hand, every chip returned"))
    # heads-up: the button (Ann) posts the small blind and is last in seat order
    assert [s.player for s in hand.events[0].seats] == ["BBBBBBBBBB", "AAAAAAAAAA"]


def test_restarted_hand_voids_the_first_attempt(tmp_path: Path) -> None:
    stacks = f"#1 {A} (100) | #2 {B} (100)"
    entries = [
        *_hand_lines(7, stacks=stacks, extra=(f"{A} posts a small blind of 1",
                                              f"{B} posts a big blind of 2")),
        *_hand_lines(7, stacks=stacks, extra=(
            f"{A} posts a small blind of 1", f"{B} posts a big blind of 2", f"{A} folds",
            f'Uncalled bet of 1 returned to {B}', f"{B} collected 2 from pot",
            "-- ending hand #7 --")),
    ]
    game = read_pokernow_log(_write(tmp_path / "restart.csv", entries))
    first, second = _hands(game)
    assert (first.status, second.status) == ("voided", "complete")
    assert first.events[-1] == HandVoided(reason="restarted", by="pokernow")
    assert not _of(first, HandEnded) and first.hand_id != second.hand_id
    assert first.source_key != second.source_key and game.errors == []


def test_unreadable_row_is_an_error_with_file_line_and_hand(tmp_path: Path) -> None:
    entries = [*_hand_lines(3, stacks=f"#1 {A} (100) | #2 {B} (100)", extra=(
        f"{A} posts a small blind of 1", f"{B} posts a big blind of 2",
        f"{A} juggles 5 chips", f"{A} folds", f"Uncalled bet of 1 returned to {B}",
        f"{B} collected 2 from pot")), "-- ending hand #3 --"]
    path = _write(tmp_path / "bad.csv", entries)
    game = read_pokernow_log(path)
    [error] = game.errors
    assert isinstance(error, MalformedInput)
    # the hand is still built (the line is skipped): the error names it by its hand id
    assert (error.file, error.line, error.hand) == (str(path), len(entries) + 1 - 4,
                                                    _hands(game)[0].hand_id)
    assert error.action == f"{A} juggles 5 chips"
    assert "bad.csv:6" in str(error)


def test_line_numbers_count_physical_lines_of_multi_line_entries(tmp_path: Path) -> None:
    entries = ["garbage", "Game Config Changes\nCents Mode: off » on\nBomb Pot: off » on"]
    game = read_pokernow_log(_write(tmp_path / "multi.csv", entries))
    assert [(e.line, e.hand, e.message) for e in game.errors] == [
        (5, None, "unrecognised log entry")]


def test_rows_are_sorted_by_at_and_order_not_by_file_position(tmp_path: Path) -> None:
    entries = [*_hand_lines(1, stacks=f"#1 {A} (100) | #2 {B} (100)", extra=(
        f"{A} posts a small blind of 1", f"{B} posts a big blind of 2", f"{A} folds",
        f"Uncalled bet of 1 returned to {B}", f"{B} collected 2 from pot")), "-- ending hand #1 --"]
    path = _write(tmp_path / "shuffled.csv", entries, start_ms=1_700_000_000_000)
    lines = path.read_text(encoding="utf-8").splitlines()
    body = lines[1:]
    path.write_text("\n".join([lines[0], *body[1::2], *body[::2]]) + "\n", encoding="utf-8")
    game = read_pokernow_log(path)
    assert game.errors == [] and _hands(game)[0].status == "complete"


def test_hand_without_an_ending_before_the_next_number_is_incomplete(tmp_path: Path) -> None:
    stacks = f"#1 {A} (100) | #2 {B} (100)"
    entries = [
        *_hand_lines(1, stacks=stacks, extra=(f"{A} posts a small blind of 1",)),
        *_hand_lines(2, stacks=stacks, dealer=B, extra=(
            f"{B} posts a small blind of 1", f"{A} posts a big blind of 2", f"{B} folds",
            f"Uncalled bet of 1 returned to {A}", f"{A} collected 2 from pot")),
        "-- ending hand #2 --"]
    game = read_pokernow_log(_write(tmp_path / "gap.csv", entries))
    assert [h.status for h in _hands(game)] == ["incomplete", "complete"]
    [error] = game.errors
    assert error.hand == _hands(game)[0].hand_id and "no ending line" in error.message


def test_chips_that_do_not_add_up_are_reported(tmp_path: Path) -> None:
    """``calls 3`` over a big blind of 2 posted in full does not match the bet (only a call at
    the level of a big blind all in short is one of the bet: FORMATS.md §2), and 5 is
    collected from the 4 put in. The call refuses hand #1, and with it hand #2, whose stacks
    carry from it: what the players have after #1 is not known, so #2's starting stacks are
    no finding (they were, counted from the 100 each #1 began with); #2 collects 2 of 3."""
    entries = [*_hand_lines(1, stacks=f"#1 {A} (100) | #2 {B} (100)", extra=(
        f"{A} posts a small blind of 1", f"{B} posts a big blind of 2", f"{A} calls 3",
        f"{B} checks", f"{B} collected 5 from pot")), "-- ending hand #1 --",
        *_hand_lines(2, stacks=f"#1 {A} (97) | #2 {B} (103)", dealer=B, extra=(
            f"{B} posts a small blind of 1", f"{A} posts a big blind of 2", f"{B} folds",
            f"{A} collected 2 from pot")), "-- ending hand #2 --"]
    game = read_pokernow_log(_write(tmp_path / "x.csv", entries))
    one, two = (h.hand_id for h in _hands(game))
    assert {(e.hand, e.message) for e in game.errors} == {
        (one, "calls 3 but the bet is 2"),
        (one, "chips put in 4 − returned 0 = 4, but 5 collected"),
        (two, "chips put in 3 − returned 0 = 3, but 2 collected")}
    # #1 refused: the items from 4 on (after the opening, two aliases and #1, which starts on
    # line 16) are refused with it
    assert game.refused == ((4, 1, 16),)
    assert [e.line for e in game.errors] == sorted(e.line for e in game.errors)


def test_order_must_be_an_integer(tmp_path: Path) -> None:
    path = tmp_path / "order.csv"
    path.write_text('entry,at,order\n"Dead Small Blind",2022-01-01T00:00:00.000Z,12x\n',
                    encoding="utf-8")
    # a row that cannot be placed refuses the file: the lines around it would be guessed
    with pytest.raises(MalformedInput) as caught:
        read_pokernow_log(path)
    assert str(caught.value) == (
        f"{path}:2, action 'Dead Small Blind': order '12x' is not an integer: the row cannot "
        "be placed in the log, so nothing of the file was written (the lines around it would "
        "be read in a guessed order or without it; correct the row and import the file "
        "again)")


def test_not_a_log(tmp_path: Path) -> None:
    path = tmp_path / "nope.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(MalformedInput):
        read_pokernow_log(path)


def test_duplicate_rows_are_dropped(tmp_path: Path) -> None:
    entries = [*_hand_lines(1, stacks=f"#1 {A} (100) | #2 {B} (100)", extra=(
        f"{A} posts a small blind of 1", f"{B} posts a big blind of 2", f"{A} folds",
        f'Uncalled bet of 1 returned to {B}', f"{B} collected 2 from pot")), "-- ending hand #1 --"]
    path = _write(tmp_path / "dup.csv", entries)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, *lines[1:4]]) + "\n", encoding="utf-8")
    game = read_pokernow_log(path)
    assert game.errors == [] and len(_of(_hands(game)[0], RecordedPayout)) == 2


def test_omaha_straddle_missed_blinds_bomb_pot_and_cents(tmp_path: Path) -> None:
    D = P("Dee", "DDDDDDDDDD")  # noqa: N806
    entries = [
        f"-- starting hand #9 (id: abcdefghijkl)  Pot Limit Omaha Hi (dealer: {D}) --",
        f"Player stacks: #1 {A} (50.00) | #3 {B} (50.00) | #5 {C} (50.00) | #7 {D} (50.00)",
        f"{A} posts a small blind of 0.25", f"{B} posts a big blind of 0.50",
        f"{C} posts a straddle of 1.00", f"{D} posts a missing small blind of 0.25",
        f"{D} posts a missed big blind of 0.50", f"{D} raises to 3.00", f"{A} folds",
        f"{B} calls 3.00", f"{C} folds", "Flop:  [10♠, 2♦, 3♣]", f"{B} checks",
        f"{D} bets 1.50", f"{B} folds", f"Uncalled bet of 1.50 returned to {D}",
        f"{D} collected 7.50 from pot", "-- ending hand #9 --",
        f"-- starting hand #10 (id: bcdefghijklm)  Pot Limit Omaha 5 Hi (dealer: {A}) --",
        f"Player stacks: #1 {A} (49.75) | #3 {B} (47.00) | #5 {C} (49.00) | #7 {D} (54.25)",
        f"{A} posts a bet of 1.00 (bomb pot bet)", f"{B} calls 1.00 (bomb pot bet)",
        f"{C} calls 1.00 (bomb pot bet)", f"{D} calls 1.00 (bomb pot bet)",
        "Flop:  [A♠, 2♠, 3♠]", f"{B} bets 1.00", f"{C} folds", f"{D} folds", f"{A} folds",
        f"Uncalled bet of 1.00 returned to {B}", f"{B} collected 4.00 from pot",
        "-- ending hand #10 --",
    ]
    game = read_pokernow_log(_write(tmp_path / "poker_now_log_pglTEST.csv", entries))
    assert game.errors == [] and game.session == "pglTEST" and game.unit.decimals == 2
    nine, ten = _hands(game)
    assert nine.hand_id == "pn-pglTEST-abcdefghijkl" and nine.source_key == "pokernow:abcdefghijkl"
    start = nine.events[0]
    assert start.game == "PO" and start.stakes.betting == "pot_limit"
    assert [s.seat for s in start.seats] == [1, 3, 5, 7]
    assert start.stakes.blinds_or_straddles == [25, 50, 100, 0] and start.stakes.min_bet == 50
    assert [(f.kind, f.amount) for f in _of(nine, ForcedBet)] == [
        ("small_blind", 25), ("big_blind", 50), ("straddle", 100), ("dead_blind", 25),
        ("posted_blind", 50)]
    assert _of(nine, CardsDealt)[0].cards == ["??"] * 4
    # the dead small blind does not count toward "raises to 3.00": D puts in 0.25 + 3.00 + 1.50
    assert _flow(nine)["put_in"] == {"AAAAAAAAAA": 25, "BBBBBBBBBB": 300, "CCCCCCCCCC": 100,
                                     "DDDDDDDDDD": 475}
    assert ten.events[0].game == "PO5" and _of(ten, CardsDealt)[0].cards == ["??"] * 5
    assert [(f.kind, f.amount) for f in _of(ten, ForcedBet)] == [("ante", 100)] * 4
    assert ten.events[0].stakes.antes == [100, 100, 100, 100]


def test_session_lines_become_session_events(tmp_path: Path) -> None:
    hand = [*_hand_lines(1, stacks=f"#1 {A} (100) | #2 {B} (100)", extra=(
        f"{A} posts a small blind of 1", f"{B} posts a big blind of 2", f"{A} folds",
        f"Uncalled bet of 1 returned to {B}", f"{B} collected 2 from pot")),
        "-- ending hand #1 --"]
    entries = [
        f"The player {A} joined the game with a stack of 100.",
        f"The admin approved the player {B} participation with a stack of 100.",
        *hand,
        f"{B} paid 5 for the 7-2 bounty to {A}",
        f"{A} collected 5 from the 7-2 bounty",
        f"The admin updated the player {A} stack from 104 to 150.",
        f"The admin updated the player {B} stack from 96 to 90.",
        f"The player {B} stand up with the stack of 90.",
        f"The player {B} sit back with the stack of 90.",
        f"The player {A} quits the game with a stack of 150.",
        f"The player {A} requested a rebuy of 100.",
        f"The player {A} rebought. New stack 100.",
        "The game's big blind was changed from 2 to 4.",
        "Undealt cards: [K♠]",
        "Game Config Changes\nCents Mode: on » off",
        f"{P('Ann2', 'AAAAAAAAAA')} chooses to  run it twice.",
    ]
    game = read_pokernow_log(_write(tmp_path / "session.csv", entries))
    assert game.errors == []
    session = [i for i in game.items if not isinstance(i, PnHand | PlayerAlias | SessionOpened)]
    assert session == [
        SeatChange(player="AAAAAAAAAA", change="join", stack=100),
        BuyIn(player="AAAAAAAAAA", chips=100),
        SeatChange(player="BBBBBBBBBB", change="join", stack=100),
        BuyIn(player="BBBBBBBBBB", chips=100),
        Payment(payer="BBBBBBBBBB", payee="AAAAAAAAAA", amount_minor=5, reason="7-2 bounty"),
        BuyIn(player="AAAAAAAAAA", chips=46, kind="top_up"),
        CashOut(player="BBBBBBBBBB", chips=6),
        SeatChange(player="BBBBBBBBBB", change="stand_up", stack=90),  # no chips move
        SeatChange(player="BBBBBBBBBB", change="sit_back", stack=90),
        SeatChange(player="AAAAAAAAAA", change="quit", stack=150),
        CashOut(player="AAAAAAAAAA", chips=150),
        BuyIn(player="AAAAAAAAAA", chips=100, kind="rebuy"),
    ]
    assert game.names["AAAAAAAAAA"] == {"Ann", "Ann2"} and game.players["AAAAAAAAAA"] == "Ann2"
    assert PlayerAlias(player="AAAAAAAAAA", alias="Ann2") in game.items


def test_dead_button_with_a_dealer_name_missing(tmp_path: Path) -> None:
    stacks = f"#2 {A} (100) | #4 {B} (100) | #7 {C} (100)"
    entries = ["-- starting hand #4 (id: qwertyuiopas)  No Limit Texas Hold'em (dead button) --",
               f"Player stacks: {stacks}", f"{C} posts a small blind of 1",
               f"{A} posts a big blind of 2", f"{B} folds", f"{C} folds",
               f"Uncalled bet of 1 returned to {A}", f"{A} collected 2 from pot",
               "-- ending hand #4 --"]
    (hand,) = _hands(read_pokernow_log(_write(tmp_path / "dead.csv", entries)))
    start = hand.events[0]
    assert start.button is None and start.source["dead_button"] is True
    assert [s.seat for s in start.seats] == [7, 2, 4]  # as if seat 4 (before the SB) were button


# -- ledger CSV ------------------------------------------------------------------------------


def test_ledger_groups_rows_by_player_id(tmp_path: Path) -> None:
    path = tmp_path / "ledger.csv"
    path.write_text(
        "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,"
        "nit_escrow,net\n"
        '"Alex, Jr.",player-a,2026-08-26T06:40:29.687Z,,5000,,6050,0,1050\n'
        "Blair,player-b,2026-08-26T06:10:46.798Z,,5000,,3950,0,-1050\n"
        "Alex,player-a,2026-08-26T05:17:52.143Z,2026-08-26T06:00:00.000Z,5000,4000,0,0,-1000\n"
        "Cy,player-c,2026-08-26T05:00:00.000Z,2026-08-26T06:00:00.000Z,1000,1900,0,100,1000\n",
        encoding="utf-8")
    rows = read_pokernow_ledger(path)
    assert [(r.player_id, r.nickname, r.sessions, r.buy_in, r.buy_out, r.stack, r.net)
            for r in rows] == [("player-a", "Alex, Jr.", 2, 10000, 4000, 6050, 50),
                               ("player-b", "Blair", 1, 5000, 0, 3950, -1050),
                               ("player-c", "Cy", 1, 1000, 1900, 0, 1000)]
    assert rows[0].nicknames == ("Alex, Jr.", "Alex") and rows[0].open and not rows[2].open
    assert rows[2].nit_escrow == 100 and sum(r.net for r in rows) == 0


def test_ledger_decimals_become_cents_and_bad_totals_raise(tmp_path: Path) -> None:
    head = "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net\n"
    path = tmp_path / "ledger.csv"
    path.write_text(head + "A,a,,,20,0,45.50,25.50\nB,b,,,20,14.50,0,-5.50\nB,b,,,20,0,0,-20\n",
                    encoding="utf-8")
    assert [(r.player_id, r.buy_in, r.net) for r in read_pokernow_ledger(path)] == [
        ("a", 2000, 2550), ("b", 4000, -2550)]
    path.write_text(head + "A,a,,,20,0,45,25\nB,b,,,20,0,0,-20\n", encoding="utf-8")
    with pytest.raises(MalformedInput, match="sum to 5"):
        read_pokernow_ledger(path)
    assert [r.net for r in read_pokernow_ledger(path, zero_sum=False)] == [25, -20]
    path.write_text(head + "A,a,,,20,0,45.50,25.50\nB,b,,,20,0,0,-20\n", encoding="utf-8")
    with pytest.raises(MalformedInput) as info:  # named in the file's money, at its last row
        read_pokernow_ledger(path)
    assert str(info.value) == (
        "ledger.csv:3: the nets sum to 5.50, not zero: A (a) +25.50 (line 2), B (b) -20.00 "
        "(line 3); the nets of a game's ledger sum to zero (FORMATS.md §2), so a row of it is "
        "wrong or missing")
    path.write_text(head + "A,a,,,20,0,45,20\n", encoding="utf-8")
    with pytest.raises(MalformedInput) as info:  # its player and the amounts that disagree
        read_pokernow_ledger(path)
    assert str(info.value) == ("ledger.csv:2: the net of A (a) is 20, not buy_out 0 + stack 45 "
                               "− buy_in 20 = 25")
    path.write_text(head.replace("stack,", "stack,nit_escrow,")
                    + "A,a,,,20,0,45.50,1,25.50\nB,b,,,20,14.5,0,0,-5.50\n", encoding="utf-8")
    with pytest.raises(MalformedInput) as info:  # in the file's money, its nit_escrow counted
        read_pokernow_ledger(path)
    assert str(info.value) == ("ledger.csv:2: the net of A (a) is 25.50, not buy_out 0.00 + "
                               "stack 45.50 + nit_escrow 1.00 − buy_in 20.00 = 26.50")
