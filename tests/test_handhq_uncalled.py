"""HandHQ's PokerStars hands give as ``winnings`` the pots each player collected, not the
uncalled bet the site returned to him (FORMATS.md §1; RULES.md §1.4): the import records that
bet returned, so the raiser's net counts it and every hand's nets sum to zero, less the rake
the site kept. Its PartyPoker hands count the bet in their winnings: stored as they are."""

from __future__ import annotations

from ledger.formats.phh.read import read_phh
from replay.build import events_from_phh
from replay.fold import replay_events
from tests.conftest import SHARED

HANDHQ = SHARED / "phh" / "handhq"


def _replays(name: str) -> dict[str, object]:
    return {(r := replay_events(events_from_phh(h))).hand: r
            for h in read_phh(HANDHQ / name).check()}


def test_the_raiser_everyone_folds_to_gets_his_uncalled_bet_back() -> None:
    """Blinds 5.00/10.00, p3 raises to 20.00, all fold: 10.00 of his 20.00 is uncalled and
    goes back to him, and the pot of 25.00 (the blinds and the 10.00 the big blind called)
    is his. The file's winnings say 25: paid 35.00 in all, he is +15.00 (was +5.00), the
    blinds -5.00 and -10.00: the nets sum to zero."""
    r = _replays("ps-1000nl-excerpt.phhs")["PokerStars-59937826176"]
    assert r.recorded == {"p3": 3500}
    assert r.paid_net == {"p1": -500, "p2": -1000, "p3": 1500, "p4": 0, "p5": 0, "p6": 0}
    assert r.discrepancies == ()


def test_every_hand_sums_to_zero_less_the_rake() -> None:
    """The six hands with winnings and an uncalled bet: three with no flop are paid the
    rules exactly; three raked 5 % of the pot after the flop (25.00 -> 23.75 paid, 1.25
    kept; 45.00 -> 2.25; 55.00 -> 2.75), which the files do not record: each sums to minus
    its rake, a ``payout`` finding of the winner short by it, his uncalled bet paid back.
    E.g. PokerStars-59937825268: p3 limps 10.00, the big blind checks, p3 bets 10.00 on the
    flop and p2 folds: put in 5.00, 10.00 and 20.00; p3 is paid 10.00 back and 23.75 of the
    25.00 pot, +13.75."""
    replays = _replays("ps-1000nl-excerpt.phhs")
    returned = {h: r.result.returned for h, r in replays.items()
                if r.recorded and r.result.returned}  # the others record no winnings
    assert returned == {
        "PokerStars-59937825268": {"p3": 1000}, "PokerStars-59937826176": {"p3": 1000},
        "PokerStars-59937829334": {"p5": 3000}, "PokerStars-59937848060": {"p3": 5000},
        "PokerStars-59937863276": {"p7": 2500}, "PokerStars-59937867812": {"p3": 2000}}
    sums = {h: sum(r.paid_net.values()) for h, r in replays.items()}
    assert {h: s for h, s in sums.items() if s} == {
        "PokerStars-59937825268": -125, "PokerStars-59937829334": -225,
        "PokerStars-59937863276": -275}
    assert replays["PokerStars-59937825268"].paid_net == {
        "p1": -500, "p2": -1000, "p3": 1375, "p4": 0, "p5": 0}
    assert [(h, d.kind, d.player, d.diff) for h in returned
            for d in replays[h].discrepancies] == [
        ("PokerStars-59937825268", "payout", "p3", -125),
        ("PokerStars-59937829334", "payout", "p5", -225),
        ("PokerStars-59937863276", "payout", "p7", -275)]


def test_partypoker_winnings_hold_the_uncalled_bet_already() -> None:
    """PartyPoker-16405516088: the pot of 1.00 and the uncalled 0.25, paid 1.20 (0.05 of
    rake): more than the pot, so the winnings hold the bet, and nothing is added."""
    (hand,) = [h for h in read_phh(HANDHQ / "pty-25nl-excerpt.phhs").check()
               if h.started.hand == "PartyPoker-16405516088"]
    paid = [(e.player, e.amount, e.returned) for e in events_from_phh(hand)
            if e.type == "recorded_payout"]
    assert paid == [("p2", 120, False)]
