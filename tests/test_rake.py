"""A site's payouts against the rules: its rake and the uncalled bet some sites leave out are
their own kinds, explained in words; a real over-payment stays a ``payout`` discrepancy."""

from __future__ import annotations

from ledger.formats.phh.read import read_phh_text
from replay.build import events_from_phh
from replay.fold import replay_events

#: p1 opens to 6, p2 calls; on the flop p1 bets 20 and p2 folds: 20 of p1's 26 is uncalled and
#: goes back to him, and the 12 pot is his. The rules pay p1 32.
HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 200]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6', 'p2 cc',
           'd db 2sKd9d', 'p1 cbr 20', 'p2 f']
"""


def replayed(extra: str) -> object:
    (hand,) = read_phh_text(HAND + extra).check()
    return replay_events(events_from_phh(hand))


def kinds(r: object) -> list[tuple[str, str, int]]:
    return [(d.kind, d.player, d.diff) for d in r.discrepancies]  # type: ignore[attr-defined]


def test_the_rules_pay_the_pot_and_the_uncalled_bet() -> None:
    r = replayed("winnings = [32, 0, 0]\n")
    assert r.result.returned == {"p1": 20} and r.result.awards["p1"] == 12
    assert kinds(r) == []


def test_winnings_of_the_pot_alone_get_the_uncalled_bet_returned() -> None:
    """PHH's winnings are the collected pots (FORMATS.md §1): 12, the pot alone, leave out
    p1's uncalled 20, which goes back to him (RULES.md §1.4): the import records it returned,
    so he is paid 32 as the rules say and his net is +6 (32 less the 26 he put in), p2's
    -6: they sum to zero (with the pot alone it was -14)."""
    r = replayed("winnings = [12, 0, 0]\n")
    assert kinds(r) == []
    assert r.recorded == {"p1": 32}
    assert r.paid_net == {"p1": 6, "p2": -6, "p3": 0}
    (hand,) = read_phh_text(HAND + "winnings = [12, 0, 0]\n").check()
    assert [(e.player, e.amount, e.returned) for e in events_from_phh(hand)
            if e.type == "recorded_payout"] == [("p1", 20, True), ("p1", 12, False)]


def test_a_stored_hand_paid_without_its_uncalled_bet() -> None:
    """Our own export (``_hand_id``) writes everything the table paid as winnings: 12 there
    is a hand that was paid the pot alone, the bet left out, which the audit names."""
    r = replayed("winnings = [12, 0, 0]\n_hand_id = 'h1'\n")
    assert kinds(r) == [("uncalled", "p1", -20)]
    assert "p1's uncalled bet of 20" in r.discrepancies[0].sentence()


def test_the_rake_the_file_records() -> None:
    r = replayed("winnings = [31, 0, 0]\nrake = 1\n")
    assert kinds(r) == [("rake", "p1", -1)]
    assert "the site kept 1 as rake (as the file records)" in r.discrepancies[0].sentence()


def test_rake_and_the_uncalled_bet_left_out_together() -> None:
    """The rake counted is the file's 1 (recomputed 32 − recorded 31, as if the uncalled
    bet had been paid), never the 21 the payouts leave out; the 20 is an ``uncalled``
    finding beside it."""
    r = replayed("winnings = [11, 0, 0]\nrake = 1\n_hand_id = 'h1'\n")
    assert kinds(r) == [("rake", "p1", -1), ("uncalled", "p1", -20)]
    assert [(d.recorded, d.recomputed) for d in r.discrepancies] == [(31, 32), (11, 31)]
    assert "left out the uncalled bet (20)" in r.discrepancies[0].sentence()
    assert r.discrepancies[1].sentence() == (
        f"hand {r.hand}: p1 was paid 11, the rules give 31 beside the rake: the "
        "difference is p1's uncalled bet of 20, which the site leaves out of what it says p1 "
        "collected")


def test_winnings_of_the_pot_less_the_rake_get_the_uncalled_bet_returned() -> None:
    """A site's file (no ``_hand_id``) paying 11 of the 12 pot with a rake of 1 gives the
    pot less the rake: p1's 20 is returned beside it, and the rake is the one finding."""
    r = replayed("winnings = [11, 0, 0]\nrake = 1\n")
    assert [(d.kind, d.player, d.recorded, d.recomputed) for d in r.discrepancies] == [
        ("rake", "p1", 31, 32)]


def test_a_rake_within_the_hands_rule() -> None:
    """10 % of the 12 pot is 1 (capped at 3): a shortfall of 1 is the rake, of 2 is not."""
    rule = "_rake = {percent = 10, cap = 3}\n"
    assert kinds(replayed("winnings = [31, 0, 0]\n" + rule)) == [("rake", "p1", -1)]
    assert kinds(replayed("winnings = [30, 0, 0]\n" + rule)) == [("payout", "p1", -2)]


def test_no_flop_no_drop() -> None:
    """The rule takes nothing from a hand that ends before the flop (p2 folds to the open)."""
    text = HAND.replace("'p2 cc',\n           'd db 2sKd9d', 'p1 cbr 20', 'p2 f']", "'p2 f']")
    rule = "_rake = {percent = 50, no_flop_no_drop = true}\n"
    (hand,) = read_phh_text(text + "winnings = [7, 0, 0]\n" + rule).check()
    r = replay_events(events_from_phh(hand))
    assert r.result.returned == {"p1": 4} and kinds(r) == [("payout", "p1", -1)]


def test_a_real_over_payment_stays_a_payout() -> None:
    r = replayed("winnings = [22, 10, 0]\nrake = 1\n")
    assert kinds(r) == [("payout", "p1", -10), ("payout", "p2", 10)]


def test_a_files_rake_stays_counted_beside_a_short_payout() -> None:
    """Paid 30 with a rake of 1: the 12 pot less the rake and the 20 returned are 31, so the
    rake is counted (its finding: 30 paid of 32, less the payout's 1 short: 1) and the
    payout is 1 short of 31; paid 12, the
    whole pot with the uncalled bet left out, leaves the rake no room: the bet is the one
    finding, as before."""
    r = replayed("winnings = [30, 0, 0]\nrake = 1\n")
    assert [(d.kind, d.player, d.recorded, d.recomputed) for d in r.discrepancies] == [
        ("rake", "p1", 30, 32), ("payout", "p1", 30, 31)]
    from ledger.audit.rake_count import counted_rake

    assert counted_rake(r.discrepancies) == 1
    r = replayed("winnings = [12, 0, 0]\nrake = 1\n")
    assert kinds(r) == [("uncalled", "p1", -20)]
