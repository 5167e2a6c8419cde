"""PokerStars text whose amounts contradict each other is refused, one error naming the file,
line, hand and action (ledger/formats/pokerstars/table.py ``check_blinds``, build.py
``Builder._to`` and ``Builder._call``); the 184 real hands of ``../shared/data/text`` all
read as before.

Worked by hand, the NL file's first hand ($0.05/$0.10, chips are cents): k1tt9nM1nd posts the
small blind, 5, Hero the big blind, 10; k1tt9nM1nd ``raises $0.20 to $0.30``: facing 10, a
raise to 30 is by 20. The Badugi file's first hand ($0.25/$0.50 fixed limit): the big blind
is the small bet, 25, and the site's small blind 10, at most half of it (12).
"""

from __future__ import annotations

from pathlib import Path

from ledger.formats.pokerstars import read_pokerstars, read_pokerstars_text
from tests.pokerstars_helpers import FILES, hand_texts, path

NLHE = "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
BADUGI = "Stars-cash-Badugi-USD-0.25-0.50-201009.txt"
FIRST = "PokerStars-35824118297"


def _errors(name: str, hand: str, old: str, new: str) -> list[str]:
    """The hand ``hand`` of file ``name`` alone, ``old`` replaced by ``new`` once: its errors
    as the import prints them (the file named ``e.txt``)."""
    text = hand_texts(name)[hand]
    assert text.count(old) == 1, old
    read = read_pokerstars_text(text.replace(old, new), file="e.txt")
    return [str(e) for e in read.errors]


def test_a_small_blind_the_stakes_do_not_make_is_refused() -> None:
    assert _errors(NLHE, FIRST, "posts small blind $0.05", "posts small blind $0.07") == [
        f"e.txt:7, hand {FIRST}, action 'k1tt9nM1nd: posts small blind $0.07': k1tt9nM1nd "
        "posts a small blind of 0.07, but the stakes 0.05/0.10 make it 0.05 (less only when "
        "it is k1tt9nM1nd's whole stack)"]
    assert _errors(NLHE, FIRST, "posts big blind $0.10", "posts big blind $0.20") == [
        f"e.txt:8, hand {FIRST}, action 'Hero: posts big blind $0.20': Hero posts a big blind "
        "of 0.20, but the stakes 0.05/0.10 make it 0.10 (less only when it is Hero's whole "
        "stack)"]


def test_a_short_stack_posts_what_he_has() -> None:
    """k1tt9nM1nd seated with $0.03 posts it all as his small blind: read, a blind of 3."""
    text = hand_texts(NLHE)[FIRST].replace("k1tt9nM1nd ($10 in chips)",
                                           "k1tt9nM1nd ($0.03 in chips)").replace(
        "posts small blind $0.05", "posts small blind $0.03 and is all-in")
    read = read_pokerstars_text(text, file="e.txt")
    assert read.errors == []
    (hand,) = read.hands
    assert [(b.player, b.kind, b.amount) for b in hand.forced] == [
        ("k1tt9nM1nd", "small_blind", 3), ("Hero", "big_blind", 10)]
    # with $0.05 in front of him the same post is short for no reason
    short = hand_texts(NLHE)[FIRST].replace("posts small blind $0.05",
                                            "posts small blind $0.03")
    assert [str(e) for e in read_pokerstars_text(short, file="e.txt").errors] == [
        f"e.txt:7, hand {FIRST}, action 'k1tt9nM1nd: posts small blind $0.03': k1tt9nM1nd "
        "posts a small blind of 0.03, but the stakes 0.05/0.10 make it 0.05 (less only when "
        "it is k1tt9nM1nd's whole stack)"]


def test_a_fixed_limit_small_blind_above_half_the_big_blind_is_refused() -> None:
    hand = "PokerStars-49164202872"
    assert _errors(BADUGI, hand, "posts small blind $0.10", "posts small blind $0.15") == [
        f"e.txt:10, hand {hand}, action 'Lino19: posts small blind $0.15': Lino19 posts a small "
        "blind of 0.15, but the stakes 0.25/0.50 make it 0.01 to 0.12 (less only when it is "
        "Lino19's whole stack)"]


def test_a_raise_whose_increment_is_not_its_total_less_the_bet_faced_is_refused() -> None:
    assert _errors(NLHE, FIRST, "raises $0.20 to $0.30", "raises $0.25 to $0.30") == [
        f"e.txt:14, hand {FIRST}, action 'k1tt9nM1nd: raises $0.25 to $0.30': k1tt9nM1nd "
        "raises 0.25 to 0.30, but the bet k1tt9nM1nd faces is 0.10: a raise to 0.30 is by 0.20"]


ALLIN = "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
RETURNED = "PokerStars-42875758685"


def test_a_call_that_is_not_the_bet_faced_less_his_street_bet_is_refused() -> None:
    """Player2 posted the small blind, 5; facing Hero's raise to 40 his call is 35."""
    assert _errors(ALLIN, RETURNED, "Player2: calls $0.35", "Player2: calls $0.25") == [
        f"e.txt:11, hand {RETURNED}, action 'Player2: calls $0.25': Player2 calls 0.25, but "
        "the bet Player2 faces is 0.40 and Player2 has 0.05 in on this street: a call is 0.35"]
    # the flop: Hero bet 60, Player2 raised to 120; Hero's call is 60, not 70 (he has 140)
    assert _errors(ALLIN, RETURNED, "Hero: calls $0.60", "Hero: calls $0.70") == [
        f"e.txt:17, hand {RETURNED}, action 'Hero: calls $0.70': Hero calls 0.70, but the bet "
        "Hero faces is 1.20 and Hero has 0.60 in on this street: a call is 0.60"]


def test_an_all_in_call_is_his_whole_stack_left() -> None:
    """Hero: 240 less 40 preflop and 120 on the flop leaves 80, all-in facing the turn's 90
    (10 returned to Player2); a call of 70 is neither."""
    assert _errors(ALLIN, RETURNED, "Hero: calls $0.80 and is all-in",
                   "Hero: calls $0.70 and is all-in") == [
        f"e.txt:20, hand {RETURNED}, action 'Hero: calls $0.70 and is all-in': Hero calls "
        "0.70, but the bet Hero faces is 0.90 and Hero has 0.00 in on this street: a call is "
        "0.90, or Hero's whole stack left, 0.80, all-in"]
    (hand,) = read_pokerstars(path(ALLIN)).hands
    assert [a.text for a in hand.actions if a.line == 20] == ["p3 cc"]  # p1 the small blind


def test_every_real_hand_still_reads() -> None:
    counts = {name: (len(r.hands), r.errors) for name in FILES
              for r in [read_pokerstars(path(name))]}
    assert sum(n for n, _ in counts.values()) == 184
    assert all(errors == [] for _, errors in counts.values()), counts


def test_the_import_names_the_file(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Through ``import``: exit 2, the hand not written."""
    lines = path(NLHE).read_text().splitlines(keepends=True)[:26]
    bad = tmp_path / "sb.txt"
    bad.write_text("".join(lines).replace("posts small blind $0.05", "posts small blind $0.07"))
    out = run("import", str(bad))
    assert out.exit_code == 2
    assert f"error: {bad}:7, hand {FIRST}, action 'k1tt9nM1nd: posts small blind $0.07'" \
        in out.output and "imported 0 hand(s)" in out.output
