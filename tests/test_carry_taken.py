"""Chips carried to the session's next hand (RULES.md §3.8 (ii), §7.1) stay counted once after
the next hand took them: a correction, what-if or undo that changes what a hand carries is
refused once a later hand started, a void never passes chips to a hand that started without
them, payouts that take a carried pot are taken back by their seq, an imported ``carry_over``
in must be what its hand carried, and a carried pot is said as carried (balances) and never
written as PHH.

The hand ``h1`` is heads-up declare hold'em with ``no_eligible_winner = carry_over``: Ann
(AsAd) and Bob (4c5d) each put in 2 and check it down on 2c3d9h Th Js; both declare swing. Ann
has the best high (a pair of aces against Bob's J-high), Bob the best low (9-5-4-3-2 against
Ann's T-9-3-2-A), so both swings fail under Rule A: the pot of 4 carries over (seq 22 records
it once h2 starts). Declared low instead, Bob wins the whole pot (nobody declared high): +2,
Ann -2. h2 (button Bob, blinds 1/2) holds Bob's 1, Ann's 2 and the 4 carried, 7; Bob folds and
Ann takes 7: Ann -2 + 5 = +3, Bob -2 - 1 = -3 over the session.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.beside import started_beside
from tests.built_once import build, extend, table
from tests.copies import copy_ledger

H1 = ["d dh Ann AsAd", "d dh Bob 4c5d", "Ann cc", "Bob cc", "d db 2c3d9h", "Bob cc", "Ann cc",
      "d db Th", "Bob cc", "Ann cc", "d db Js", "Bob cc", "Ann cc", "Ann dcl swing",
      "Bob dcl swing", "Ann sm AsAd", "Bob sm 4c5d"]  # seqs 4-20
H2 = ["d dh Ann ????", "d dh Bob ????", "Bob f", "end"]
CARRY = ("--game", "NT", "--stakes", "1/2", "--declare-options", "no_eligible_winner=carry_over")
HEAD = ("the pot holds 4, 4 of it carried to the session's next hand (no_eligible_winner = "
        "carry_over; RULES.md §3.8, §7.1)")


def _start(user, hand: str, button: str, stacks: str = "Ann:98,Bob:98") -> str:  # noqa: ANN001
    code, _, err = user("hand", "start", "--session", "sat", "--hand", hand, *CARRY,
                        "--seats", stacks, "--button", button)
    assert code == 0, err
    return err


def _table(user, hand: str, lines: list[str]) -> int:  # noqa: ANN001
    return user("table", hand, input="".join(f"{x}\n" for x in lines))[0]


def _played(user, lines: list[str] = H1) -> None:  # noqa: ANN001
    for args in (("session", "open", "sat"), ("buyin", "sat", "Ann", "100"),
                 ("buyin", "sat", "Bob", "100")):
        assert user(*args)[0] == 0
    _start(user, "h1", "Ann", "Ann:100,Bob:100")
    assert _table(user, "h1", [*lines, "end"]) == 0


def _played_steps(lines: list[str] = H1) -> list:
    """The steps of :func:`_played`, for a ledger built once."""
    books = [("session", "open", "sat"), ("buyin", "sat", "Ann", "100"),
             ("buyin", "sat", "Bob", "100"),
             ("hand", "start", "--session", "sat", "--hand", "h1", *CARRY, "--seats",
              "Ann:100,Bob:100", "--button", "Ann")]
    return [*((args, None) for args in books), table("h1", [*lines, "end"])]


@pytest.fixture(scope="module")
def h1_declaring(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_played(user)`` on a new ledger up to Ann's swing (seq 17, ``H1[:14]``), Bob still
    to declare, built once for the module."""
    return build(tmp_path_factory.mktemp("declaring") / "t.duckdb",
                 [*_played_steps()[:-1], table("h1", H1[:14])])


@pytest.fixture(scope="module")
def h1_built(h1_declaring: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_played(user)`` on a new ledger, built once for the module: h1 carries its 4."""
    return extend(h1_declaring, tmp_path_factory.mktemp("carried") / "t.duckdb",
                  [table("h1", [*H1[14:], "end"])])


@pytest.fixture(scope="module")
def h2_built(h1_built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``h1_built`` and ``_start(user, "h2", "Bob")``: h2 took the 4 (pot 7), in play."""
    return extend(h1_built, tmp_path_factory.mktemp("carried-h2") / "t.duckdb", [(
        ("hand", "start", "--session", "sat", "--hand", "h2", *CARRY, "--seats",
         "Ann:98,Bob:98", "--button", "Bob"), None)])


@pytest.fixture
def played(h1_built: Path, db: str) -> None:
    """The test's ledger (the ``user`` fixture's): a copy of ``h1_built``, as ``_played``
    leaves it."""
    copy_ledger(h1_built, Path(db))


@pytest.fixture
def h2_started(h2_built: Path, db: str) -> None:
    """The test's ledger: a copy of ``h2_built``, as ``_played`` and ``_start(user, "h2",
    "Bob")`` leave it."""
    copy_ledger(h2_built, Path(db))


def _nets(user) -> list[list[str]]:  # noqa: ANN001
    return [line.split()[:2] for line in user("balances")[1].splitlines()[1:3]]


def test_a_correction_of_what_a_taken_carry_was_is_refused(user, h2_started) -> None:  # noqa: ANN001
    assert _table(user, "h2", H2) == 0
    said = ("error: hand h1: correcting hand h1 changes the chips it carries to the session's "
            "next hand from 4 to 0, and hand h2 took the 4 as it started (RULES.md §3.8, "
            "§7.1): the chips would be counted twice or lost; nothing written")
    way = ("; void it with hand h2, which took its chips, in one write (`handledger void h1 h2 "
           "--reason … --by …`) and record them again as new hands (the void of a later hand "
           "alone passes the chips on)")
    for command in (("correct", "h1", "--replace", "18", "Bob dcl low", "--reason", "x",
                     "--by", "Dan"), ("whatif", "h1", "--replace", "18", "Bob dcl low")):
        code, out, err = user(*command)
        assert (code, out, err.strip()) == (2, "", said + way if command[0] == "correct" else
                                            said.replace("correcting hand h1",
                                                         "what-if of hand h1")
                                            .replace("; nothing written", ""))
    assert _nets(user) == [["Ann", "3"], ["Bob", "-3"]]
    assert user("audit")[1].startswith("audit clean: 2 hand(s) in 1 session(s)")
    # the way it names: h2's void alone passes the 4 on, and the correction stays refused
    code, out, _ = user("void", "h2", "--reason", "x", "--by", "Dan")
    assert code == 0 and "the 4 chip(s) carried into it pass on" in out
    code, _, err = user("correct", "h1", "--replace", "18", "Bob dcl low", "--reason", "x",
                        "--by", "Dan")
    assert (code, err.strip()) == (2, said + way)


def test_the_way_through_a_refused_correction_voids_both_hands(user, h2_started) -> None:  # noqa: ANN001
    """The void of h1 and h2 in one write that the refusal names gives every chip back: Ann
    her 2 of h1 and 2 of h2, Bob his 2 of h1 and 1 of h2; the 4 carried go to nobody."""
    assert _table(user, "h2", H2) == 0
    code, out, err = user("void", "h1", "h2", "--reason", "typed wrong", "--by", "Dan")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "voided hand h1: returned Bob 2, Ann 2; change in net: Bob +2, Ann +2; by the rules: "
        "Bob +2, Ann +2",
        "voided hand h2: returned Ann 2, Bob 1; change in net: Ann -5, Bob +1; by the rules: "
        "Ann -5, Bob +1"]
    assert _nets(user) == [["Ann", "0"], ["Bob", "0"]]
    assert "sum to" not in user("balances")[1]
    assert user("audit")[1].startswith("audit clean: 2 hand(s) in 1 session(s)")


def test_an_undo_of_the_carry_the_next_hand_took_names_that_hand(user, h2_started) -> None:  # noqa: ANN001
    """h1's last write is the ``carry_over`` of its 4 (seq 22), written as h2 started and took
    them: an undo of h1 is refused in the words of a correction's refusal, naming h2 and the
    void of both in one write, nothing written (the nets stay Ann +3, Bob -3 once h2 ends);
    that void then goes in."""
    code, out, err = user("undo", "h1", "--by", "Dan")
    assert (code, out, err) == (2, "", (
        "error: hand h1: cannot undo the last thing appended to the hand, the record of the 4 "
        "chip(s) it carried to the session's next hand: hand h2 took them as it started "
        "(RULES.md §3.8, §7.1), and an undo does not take them back from it; nothing written; "
        "void it with hand h2, which took its chips, in one write (`handledger void h1 h2 "
        "--reason … --by …`) and record them again as new hands (the void of a later hand "
        "alone passes the chips on)\n"))
    assert _table(user, "h2", H2) == 0
    assert _nets(user) == [["Ann", "3"], ["Bob", "-3"]]
    assert user("void", "h1", "h2", "--reason", "typed wrong", "--by", "Dan")[0] == 0
    assert _nets(user) == [["Ann", "0"], ["Bob", "0"]]


#: Hand k1's play to Ann's payout (:func:`odd_chip_k1_started`): Cy folds, Ann and Bob check
#: it down on a royal flush board: pot 3 + 2 + 2 = 7, Ann 3, Bob 3, 1 carried.
K1_TO_ANN_PAID = [
    "d dh Ann 2c3d", "d dh Bob 4c5d", "d dh Cy 6c7d", "Cy f", "Ann cc", "Bob cc",
    "d db AsKsQs", "Ann cc", "Bob cc", "d db Js", "Ann cc", "Bob cc", "d db Ts", "Ann cc",
    "Bob cc", "pay Ann 3"]


def odd_chip_k1_started(user) -> None:  # noqa: ANN001
    """Session S (Ann, Bob, Cy bought in 100) and its hand k1 started with
    ``odd_chip_tie_order=carry_to_next_hand``, antes 1, blinds 1/2, Cy on the button."""
    assert user("session", "open", "S")[0] == 0
    for player in ("Ann", "Bob", "Cy"):
        assert user("buyin", "S", player, "100")[0] == 0
    assert user("hand", "start", "--hand", "k1", "--session", "S", "--game", "NT", "--antes",
                "1", "--stakes", "1/2", "--button", "Cy", "--split-options",
                "odd_chip_tie_order=carry_to_next_hand", "--seats",
                "Ann:100,Bob:100,Cy:100")[0] == 0


def _odd_chip_k1(user) -> None:  # noqa: ANN001
    """:func:`odd_chip_k1_started` played to its end: Ann 3, Bob 3, 1 carried (the end is
    seq 24)."""
    odd_chip_k1_started(user)
    assert _table(user, "k1", [*K1_TO_ANN_PAID, "pay Bob 3", "end"]) == 0


def test_an_undo_of_an_odd_chip_the_next_hand_took_names_that_hand(user) -> None:  # noqa: ANN001
    """RULES.md §2.2, §5: with ``odd_chip_tie_order=carry_to_next_hand`` the odd chip of
    a tie stays in the pot for the next deal. Antes 1, blinds 1/2, Cy folds, Ann and Bob
    check it down on a royal flush board: pot 3 + 2 + 2 = 7, Ann 3, Bob 3, 1 carried (the
    end is seq 24). k2 starts and takes it (k1's ``carry_over`` out, seq 25): an undo of k1
    is refused naming k2, citing the odd chip's rule, not the declare pot's; before k2,
    ``session close`` and ``settle`` are refused citing it too, and the notes of
    ``balances`` and ``standings`` on the 1 chip the nets sum short cite it."""
    _odd_chip_k1(user)
    left = ("session S: hand k1 carries 1 chip to the session's next hand, and no later hand "
            "took them (RULES.md §2.2, §5): ")
    code, _, err = user("session", "close", "S")
    assert (code, err.startswith(f"error: {left}closed now, they would be owed")) == (2, True)
    code, _, err = user("settle")
    assert (code, err.startswith(f"error: cannot settle: {left}the players' nets sum to -1 "
                                 "chips until a hand takes them")) == (2, True)
    noted = ("note: the players' nets sum to -1 chips, not 0: chips carried to the session's "
             "next hand (RULES.md §2.2, §5), counted once the hand that takes them ends; "
             "`handledger state HAND` names them")
    assert user("balances")[1].splitlines()[-1] == noted
    assert user("standings")[1].splitlines()[-2:] == ["(sum)              -1           -1", noted]
    assert user("hand", "start", "--hand", "k2", "--session", "S", "--game", "NT", "--stakes",
                "1/2", "--button", "Ann", "--seats", "Ann:100,Bob:100,Cy:99")[0] == 0
    assert user("undo", "k1", "--by", "Dan") == (2, "", (
        "error: hand k1: cannot undo the last thing appended to the hand, the record of the 1 "
        "chip(s) it carried to the session's next hand: hand k2 took them as it started "
        "(RULES.md §2.2, §5), and an undo does not take them back from it; nothing "
        "written; void it with hand k2, which took its chips, in one write (`handledger void "
        "k1 k2 --reason … --by …`) and record them again as new hands (the void of a later "
        "hand alone passes the chips on)\n"))


def test_the_audit_cites_the_odd_chip_s_rule_for_one_carried_to_no_hand(  # noqa: ANN001
        user, tmp_path: Path) -> None:
    """The odd chip of k1 (RULES.md §2.2, §5; the hand of the test above) and a file that
    closes the session after k1: the audit's finding on the 1 chip carried to no hand cites
    the odd chip's sections, by k1's options, not the declare pot's §3.8, §7.1."""
    _odd_chip_k1(user)
    export = tmp_path / "k.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    closed = tmp_path / "closed.jsonl"
    closed.write_text(export.read_text() + '{"session":"S","seq":5,"event":{'
                      '"schema_version":1,"type":"session_closed"}}\n')
    other = str(tmp_path / "other.duckdb")
    assert user("--db", other, "import", str(closed))[0] == 0
    code, out, _ = user("--db", other, "audit")
    assert (code, out.splitlines()[0]) == (1, (
        "chip_conservation: hand k1 carried 1 chips to the session's next hand (RULES.md "
        "§2.2, §5), but the session closed with no hand that took them: carried chips owed by "
        "nobody (`handledger settle --session S` names the ways) (-1) [session S, hand k1; "
        "expected 1, actual 0]"))


def test_a_hand_that_carried_nothing_cannot_be_made_to_carry_once_the_next_started(
        user, db: str, h1_declaring: Path) -> None:  # noqa: ANN001
    """Bob declared low: he wins the 4 and nothing carries; h2 starts with no carry_over (pot
    3); a correction back to his swing would carry 4 into no hand."""
    copy_ledger(h1_declaring, Path(db))  # _played up to Ann's swing (seq 17)
    assert _table(user, "h1", ["Bob dcl low", *H1[15:], "end"]) == 0
    _start(user, "h2", "Bob")
    assert "Main pot: 3 (Ann, Bob)" in user("state", "h2")[1]
    code, _, err = user("correct", "h1", "--replace", "18", "Bob dcl swing", "--reason", "x",
                        "--by", "Dan")
    assert code == 2 and err.strip() == (
        "error: hand h1: correcting hand h1 changes the chips it carries to the session's next "
        "hand from 0 to 4, and hand h2, the session's next hand, started without them "
        "(RULES.md §3.8, §7.1): the chips would be counted twice or lost; nothing written; "
        "void it instead (`handledger void h1 --reason … --by …`) and record it again as a "
        "new hand")
    code, out, err = user("void", "h1", "--reason", "x", "--by", "Dan")  # the way it names
    assert (code, err) == (0, "")
    assert out.splitlines()[:3] == [  # h2 was started with stacks h1 paid out: now 100 each
        "voided hand h1: returned Bob 2, Ann 2; change in net: Bob -2, Ann +2; by the rules: "
        "Bob -2, Ann +2",
        "  warning: hand h2 started Ann with 98, on hand h1 as it stood (the books had Ann 98 "
        "there); now they have Ann 100: Ann +2 chips in settle, and hand h2 stands as played "
        "(the chips at the table are facts)",  # h2 dealt on h1 as it stood: as played
        "  warning: hand h2 starts Bob with 98, the corrected final stack is 100 (was 102)"]


def test_a_correction_before_the_next_hand_moves_the_carry_with_it(user, played) -> None:  # noqa: ANN001
    code, out, _ = user("correct", "h1", "--replace", "18", "Bob dcl low", "--reason", "x",
                        "--by", "Dan")
    assert code == 0 and "change in net: Bob +4" in out
    _start(user, "h2", "Bob", "Ann:98,Bob:102")
    assert "Main pot: 3 (Ann, Bob)" in user("state", "h2")[1]  # nothing carried in
    assert _table(user, "h2", H2) == 0  # Ann takes 3: +1; Bob -1
    assert _nets(user) == [["Bob", "1"], ["Ann", "-1"]]
    assert user("audit")[1].startswith("audit clean: 2 hand(s) in 1 session(s)")


def test_no_void_passes_chips_to_a_hand_that_started_without_them(user, db: str,  # noqa: ANN001
                                                                 h2_started) -> None:
    """``hand start`` refuses h3 while h2 (holding the 4 carried in) is in play (RULES.md
    §1.1); a ledger that holds h3 started beside it (written before, or imported:
    :func:`tests.beside.started_beside`) refuses the void of h2, which would lose the 4."""
    code, out, err = user("hand", "start", "--session", "sat", "--hand", "h3", *CARRY,
                          "--seats", "Ann:98,Bob:98", "--button", "Ann")
    assert (code, out, err) == (
        2, "", "error: hand h3: Bob and Ann are seated in hand h2 of session sat, still in "
        "play: a player's chips are in one hand at a time (RULES.md §1.1): play it out and end "
        "it first, or void it (`handledger void h2 --reason … --by …`); nothing written\n")
    started_beside(db, "h3", seats="Ann:98,Bob:98", button="Ann",
                   declare="no_eligible_winner=carry_over")
    said = ("error: hand h2: voided, the hand would pass the 4 chip(s) carried into it on to "
            "the session's next hand (RULES.md §7.1), but hand h3 started after it without "
            "them and takes nothing more: the chips would be lost; nothing written; void hand "
            "h1, whose chips they are, with it in one write (`handledger void h1 h2`)")
    code, _, err = user("void", "h2", "--reason", "misdeal", "--by", "Dan")
    assert (code, err.strip().splitlines()[-1]) == (2, said)
    assert user("void", "h3", "--reason", "misdeal", "--by", "Dan")[0] == 0
    code, _, err = user("void", "h2", "--reason", "misdeal", "--by", "Dan")
    assert (code, err.strip().splitlines()[-1]) == (2, said)  # h3 voided takes nothing
    assert "Main pot: 7 (Ann, Bob)" in user("state", "h2")[1]  # the 4 still in h2's pot
    assert _table(user, "h2", H2) == 0
    assert _nets(user) == [["Ann", "3"], ["Bob", "-3"]]


def test_payouts_of_a_carried_pot_are_taken_back_by_their_seq(user) -> None:  # noqa: ANN001
    """Unknown hole cards: `pay Ann 4` (seq 19) goes in before the shows (seqs 20, 21) make
    the rules carry the pot; the end is refused naming seq 19, and so is an undo of Bob's
    show, which would leave the payout standing; its correction takes it back."""
    unseen = ["d dh Ann ????", "d dh Bob ????", *H1[2:15], "pay Ann 4", *H1[15:]]
    for args in (("session", "open", "sat"), ("buyin", "sat", "Ann", "100"),
                 ("buyin", "sat", "Bob", "100")):
        assert user(*args)[0] == 0
    _start(user, "h1", "Ann", "Ann:100,Bob:100")
    assert _table(user, "h1", unseen) == 0
    back = ("take the payout back with `handledger correct h1 --delete 19 --reason R --by "
            "NAME` (seq 19: pay Ann 4)")
    code, _, err = user("act", "h1", "end")
    assert code == 2 and err.strip() == (
        f"error: hand h1, action 'end': cannot end: {HEAD}: the payouts come to 4, at most 0 "
        f"can be paid (4 too many; {back})")
    code, _, err = user("undo", "h1", "--by", "Dan")
    assert code == 2 and err.strip() == (
        f"error: hand h1: correcting hand h1: {HEAD}: the payouts come to 4, at most 0 can be "
        f"paid (4 too many), and the hand cannot end so: {back} first; nothing written")
    assert user("correct", "h1", "--delete", "19", "--reason", "R", "--by", "Dan")[0] == 0
    assert user("act", "h1", "end")[0] == 0
    assert "stacks after the hand: Bob 98, Ann 98" in user("state", "h1")[1].splitlines()
    assert "not 0: chips carried to the session's next hand" in user("balances")[1]


def test_an_imported_carry_over_in_is_what_its_hand_carried(user, tmp_path: Path,  # noqa: ANN001
                                                          h2_started) -> None:  # noqa: ANN001
    export = tmp_path / "c2.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    lines = export.read_text().splitlines()
    come = ('{"hand":"h2","seq":2,"event":{"amount":4,"direction":"in","other_hand":"h1",'
            '"schema_version":1,"type":"carry_over"}}')
    at = lines.index(come)
    edited = tmp_path / "c3.jsonl"
    edited.write_text("\n".join([*lines[:at], come.replace('"amount":4', '"amount":40'),
                                 *lines[at + 1:]]) + "\n")
    other = tmp_path / "other.duckdb"
    code, _, err = user("--db", str(other), "import", str(edited))
    assert code == 2 and err.strip() == (
        f"error: c3.jsonl:{at + 1}, hand h2: its carry_over in records 40 chip(s) from hand "
        "h1, which carried 4 to the session's next hand (RULES.md §3.8, §7.1): the chips "
        "would not add up; nothing written")
    assert not other.exists()
    code, _, err = user("--db", str(other), "import", str(export))
    assert code == 0, err
    code, out, _ = user("--db", str(other), "state", "h2")
    assert "Main pot: 7 (Ann, Bob)" in out


def test_a_pot_still_carried_is_said_as_carried_and_not_written_as_phh(  # noqa: ANN001
        user, tmp_path: Path, played) -> None:
    note = ("note: the players' nets sum to -4 chips, not 0: chips carried to the session's "
            "next hand (RULES.md §3.8, §7.1), counted once the hand that takes them "
            "ends; `handledger state HAND` names them")
    assert user("balances")[1].splitlines()[-1] == note
    out = tmp_path / "h1.phh"
    code, _, err = user("export", "--format", "phh", "h1", "-o", str(out))
    assert code == 2 and err.strip() == (
        "error: hand h1: cannot be written as PHH: it carries 4 chips to the session's next "
        "hand, not started yet (RULES.md §3.8, §7.1), and PHH holds no pot carried between "
        "hands")
    assert not out.exists()
    _start(user, "h2", "Bob")
    assert user("balances")[1].splitlines()[-2] == note  # in h2's pot until it ends
    assert _table(user, "h2", H2) == 0
    assert "sum to" not in user("balances")[1]


def test_an_imported_carry_over_in_from_a_hand_held_nowhere_is_refused(  # noqa: ANN001
        user, tmp_path: Path, h2_started) -> None:
    """h2's rows alone (h1's left out of the file) into a fresh ledger: its carry_over in of
    4 names h1, which neither the file nor the ledger holds, so the 4 would come from
    nowhere: refused, nothing written; imported after h1's file, it goes in."""
    export = tmp_path / "all.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    lines = export.read_text().splitlines()
    alone = tmp_path / "h2.jsonl"
    kept = [x for x in lines[:-1] if not x.startswith('{"hand":"h1"')]
    alone.write_text("\n".join([*kept, f'{{"in_play":{{"h2":4}},"rows":{len(kept)}}}']) + "\n")
    at = kept.index('{"hand":"h2","seq":2,"event":{"amount":4,"direction":"in","other_hand":'
                    '"h1","schema_version":1,"type":"carry_over"}}')
    other = tmp_path / "other.duckdb"
    code, _, err = user("--db", str(other), "import", str(alone))
    assert code == 2 and err.strip() == (
        f"error: h2.jsonl:{at + 1}, hand h2: its carry_over in records 4 chip(s) from hand h1, "
        "which neither the file nor the ledger holds (RULES.md §2.2, §3.8, §7.1): the chips "
        "would come from nowhere; import the file that holds hand h1 first; nothing written")
    assert not other.exists()
    assert user("--db", str(other), "import", str(export))[0] == 0
    code, out, _ = user("--db", str(other), "state", "h2")
    assert "Main pot: 7 (Ann, Bob)" in out


WAYS = ("deal the session's next hand (it takes them as dead money), or correct hand h1 "
        "(`handledger correct h1 … --reason … --by …`) or void it (`handledger void h1 "
        "--reason … --by …`)")
LEFT = ("session sat: hand h1 carries 4 chips to the session's next hand, and no later hand "
        "took them (RULES.md §3.8, §7.1)")


def test_chips_carried_to_no_hand_yet_keep_the_session_open_and_unsettled(  # noqa: ANN001
        user, played) -> None:
    """h1 carries its 4 and the session deals no other hand: Ann -2, Bob -2, sum -4. The
    close and settle are refused naming h1 and the 4, the audit is clean with a note, and
    standings say what balances say; h2 takes the 4 (Ann +5, Bob -1: Ann +3, Bob -3), and
    the session closes and settles: Bob pays Ann 3."""
    code, out, err = user("session", "close", "sat")
    assert (code, out, err.strip()) == (2, "", (
        f"error: {LEFT}: closed now, they would be owed by nobody and the books could not "
        f"settle; {WAYS}, then close; nothing written"))
    assert user("session", "list")[1].split()[-1] == "open"
    code, out, err = user("settle")
    assert (code, out, err.strip()) == (2, "", (
        f"error: cannot settle: {LEFT}: the players' nets sum to -4 chips until a hand takes "
        f"them; {WAYS}; then run `handledger settle` again"))
    assert user("standings")[1].splitlines() == [
        "player            sat        total",
        "Ann                -2           -2",
        "Bob                -2           -2",
        "(sum)              -4           -4",
        "note: the players' nets sum to -4 chips, not 0: chips carried to the session's next "
        "hand (RULES.md §3.8, §7.1), counted once the hand that takes them ends; "
        "`handledger state HAND` names them"]
    code, out, err = user("audit")
    assert (code, out.strip(), err.strip()) == (0, (
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)"), (
        f"note: {LEFT}: no finding while the session is open, but its players' nets sum to -4 "
        f"chips until a hand takes them, and it cannot settle or close; {WAYS}"))
    _start(user, "h2", "Bob")
    assert _table(user, "h2", H2) == 0
    assert user("audit")[2] == ""
    assert user("session", "close", "sat")[0] == 0
    code, out, _ = user("settle")  # (its note: no cash-out is recorded)
    assert (code, out.splitlines()[0]) == (0, "Bob pays Ann 3 chips")


def test_standings_note_gives_the_sum_row_beside_a_hand_in_progress(  # noqa: ANN001
        user, played) -> None:
    """h1 carries its 4 (sat: Ann -2, Bob -2) and no hand of sat took them; hand o1 of
    another session, sun, is in progress with the blinds in (button Ann: Ann 1, Bob 2). The
    sum row is -4 in sat and -3 in sun, -7 in all, and the note gives that figure and what
    makes it up (4 carried, 3 in o1's pot), not -4; once o1 is voided its 3 come back and
    the row and the note are -4, the chips carried alone."""
    for args in (("session", "open", "sun"), ("buyin", "sun", "Ann", "100"),
                 ("buyin", "sun", "Bob", "100"),
                 ("hand", "start", "--session", "sun", "--hand", "o1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann")):
        assert user(*args)[0] == 0
    carried = ("chips carried to the session's next hand (RULES.md §3.8, §7.1), counted "
               "once the hand that takes them ends; `handledger state HAND` names them")
    assert user("standings")[1].splitlines() == [
        "player            sat        sun        total",
        "Ann                -2         -1           -3",
        "Bob                -2         -2           -4",
        "(sum)              -4         -3           -7",
        "note: hand o1 of session sun is in progress (not ended): the 3 chips in its pot so "
        "far (Ann 1, Bob 2) count as put in, no payout counted until it ends; the nets are "
        "final once it ends (`handledger act o1 end`) or is voided",
        "note: the players' nets sum to -7 chips, not 0: 4 chips of them carried to the "
        "session's next hand (RULES.md §3.8, §7.1), counted once the hand that takes "
        "them ends; `handledger state HAND` names them; 3 chips in the pots of hands in progress "
        "(above), counted once they end"]
    assert user("void", "o1", "--reason", "misdeal", "--by", "Dan")[0] == 0
    assert user("standings")[1].splitlines()[-2:] == [
        "(sum)              -4          0           -4",
        f"note: the players' nets sum to -4 chips, not 0: {carried}"]


def test_standings_note_stays_when_other_chips_offset_the_carried_ones(  # noqa: ANN001
        user, played, tmp_path: Path) -> None:
    """h1 carries its 4 (sat: Ann -2, Bob -2); a hand of no session, z1, read from a file
    whose table paid Bob 7 of a pot of 3 (Ann's small blind 1 and Bob's big blind 2, Ann
    folding: Ann -1, Bob +5), 4 beyond the pot. The sum row is -4 and +4, 0 in all: the
    note still says the 4 carried and the 4 paid beyond, not nothing."""
    scratch = str(tmp_path / "scratch.duckdb")
    assert user("--db", scratch, "hand", "start", "--hand", "z1", "--game", "NT", "--stakes",
                "1/2", "--seats", "Ann:50,Bob:50", "--button", "Ann")[0] == 0
    assert user("--db", scratch, "table", "z1",
                input="d dh Ann ????\nd dh Bob ????\nAnn f\npay Bob 3\nend\n")[0] == 0
    code, out, _ = user("--db", scratch, "export", "--format", "jsonl")
    assert code == 0 and out.count('"amount":3,"player":"Bob"') == 1
    over = tmp_path / "z1.jsonl"
    over.write_text(out.replace('"amount":3,"player":"Bob"', '"amount":7,"player":"Bob"'))
    assert user("import", str(over))[0] == 0
    assert user("standings")[1].splitlines() == [
        "player            sat (no session)        total",
        "Bob                -2            5            3",
        "Ann                -2           -1           -3",
        "(sum)              -4            4            0",
        "note: `total` adds the plain chips of hands of no session to those of session sat, "
        "though none of them records what a chip is worth: the ledger cannot tell whether "
        "they are worth the same (a tournament's chips are no cash game's), so read their "
        "columns apart, or give each session's chip its worth (`handledger session set S "
        "--chip-value V --currency C`)",
        "note: the players' nets sum to 0 chips, but the books do not balance: 4 chips of "
        "them carried to the session's next hand (RULES.md §3.8, §7.1), counted once "
        "the hand that takes them ends; `handledger state HAND` names them; the rest, +4 "
        "chips: chips the table kept or paid to nobody (a rake, a hand paid short) or paid "
        "beyond the pot; `handledger audit` names the hands"]


def test_a_session_closed_with_chips_carried_to_no_hand_is_a_finding(  # noqa: ANN001
        user, tmp_path: Path, played) -> None:
    """A file closes the session after h1, Ann and Bob cashing out 98 each (the close here
    refuses it): the audit finds the 4
    carried to no hand, settle names them and the ways a closed session has, the list says
    it is not settled; h1's void with --closed gives back Ann's 2 and Bob's 2."""
    export = tmp_path / "all.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    rows = export.read_text().splitlines()
    closing = [f'{{"session":"sat","seq":{seq},"event":{{"chips":98,"player":"{who}",'
               '"schema_version":1,"type":"cash_out"}}' for seq, who in ((4, "Ann"), (5, "Bob"))]
    closing.append('{"session":"sat","seq":6,"event":{"schema_version":1,'
                   '"type":"session_closed"}}')
    closed = tmp_path / "closed.jsonl"
    closed.write_text("\n".join([*rows, *closing]) + "\n")
    other = str(tmp_path / "other.duckdb")
    code, _, err = user("--db", other, "import", str(closed))
    assert code == 0, err
    code, out, _ = user("--db", other, "audit")
    assert (code, out.splitlines()) == (1, [
        "chip_conservation: hand h1 carried 4 chips to the session's next hand (RULES.md "
        "§3.8, §7.1), but the session closed with no hand that took them: carried chips owed by "
        "nobody (`handledger settle --session sat` names the ways) (-4) [session sat, hand h1; "
        "expected 4, actual 0]",
        "audit: 1 discrepancy (chip_conservation 1); 1 hand(s) in 1 session(s) checked"])
    code, out, err = user("--db", other, "settle")
    assert (code, out, err.strip()) == (2, "", (
        f"error: cannot settle: {LEFT}: the players' nets sum to -4 chips, owed by nobody: the "
        "session is closed; correct hand h1 (`handledger correct h1 … --closed --reason … --by "
        "…`) or void it (`handledger void h1 --closed --reason … --by …`), as the session deals "
        "no more hands; then run `handledger settle` again"))
    assert user("--db", other, "standings")[1].splitlines()[-2:] == [
        "(sum)              -4           -4",
        "note: the players' nets sum to -4 chips, not 0: chips carried to the session's next "
        "hand (RULES.md §3.8, §7.1), owed by nobody: session sat is closed and deals no "
        "hand that takes them (`handledger settle --session sat` names the ways)"]
    assert user("--db", other, "session", "list")[1].split("  ")[-1].strip() == (
        "closed, not settled: hand h1 carries 4 chips to the session's next hand, which it "
        "will never deal (owed by nobody: `handledger settle --session sat` names the ways), "
        "but its audit has 1 finding(s) (chip_conservation 1: `handledger audit --session "
        "sat`)")
    code, out, _ = user("--db", other, "void", "h1", "--closed", "--reason", "x", "--by", "Dan")
    assert (code, out.strip()) == (0, "voided hand h1: returned Bob 2, Ann 2; change in net: "
                                      "Bob +2, Ann +2; by the rules: Bob +2, Ann +2")
    assert user("--db", other, "settle")[:2] == (0, "settled: nobody owes anybody\n")


def test_chips_a_voided_hand_passes_on_wait_for_the_next_hand_dealt(  # noqa: ANN001
        user, h2_started) -> None:
    """h2 took h1's 4 and is voided in play: it passes them on, and the close names it; h3
    takes them (pot 1 + 2 + 4 = 7) and Ann wins it as Bob folds: Ann -2 + 5 = +3, Bob -2 - 1
    = -3, and the session closes and settles."""
    code, out, _ = user("void", "h2", "--reason", "misdeal", "--by", "Dan")
    assert code == 0 and "the 4 chip(s) carried into it pass on" in out
    code, out, err = user("session", "close", "sat")
    assert (code, out, err.strip()) == (2, "", (
        "error: session sat: hand h2, voided or cut short, passes on the 4 chips hand h1 "
        "carried into it to the session's next hand, and no later hand took them (RULES.md "
        "§3.8, §7.1): closed now, they would be owed by nobody and the books could not "
        "settle; deal the session's next hand (it takes them as dead money), or undo the "
        "void of hand h2 (`handledger undo h2 --by …`): it takes them again; to take back "
        "hand h1 too, void both in one write after that undo (`handledger void h1 h2 --reason "
        "… --by …`), then close; nothing written"))
    _start(user, "h3", "Bob")
    assert "Main pot: 7 (Ann, Bob)" in user("state", "h3")[1]
    assert _table(user, "h3", H2) == 0
    assert _nets(user) == [["Ann", "3"], ["Bob", "-3"]]
    assert user("session", "close", "sat")[0] == 0
    assert user("settle")[1].splitlines()[0] == "Bob pays Ann 3 chips"


def test_a_closed_imported_session_whose_last_hand_is_voided_has_a_way_to_settle(  # noqa: ANN001
        user, h2_started, tmp_path: Path) -> None:
    """h1 carried its 4 into h2, which Ann won (Ann +3, Bob -3); the session is exported as
    JSON lines, imported into another ledger and closed there. h2's void (`--closed`) passes
    the 4 on to a next hand the closed session never deals: settle is refused, and its
    refusal names ways the ledger takes (appended events only): the undo of h2's void, after
    which h2 holds the 4 again and Bob pays Ann 3; then h1 and h2 voided in one write give
    back every chip (Ann 2 + 2, Bob 2 + 1): nobody owes anybody."""
    assert _table(user, "h2", H2) == 0
    export = tmp_path / "sat.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    other = str(tmp_path / "other.duckdb")

    def there(*args: str) -> tuple[int, str, str]:
        return user("--db", other, *args)

    assert there("import", str(export))[0] == 0
    assert there("session", "close", "sat")[0] == 0
    code, out, _ = there("void", "h2", "--closed", "--reason", "misdeal", "--by", "Dan")
    assert code == 0 and "the 4 chip(s) carried into it pass on" in out
    code, out, err = there("settle")
    assert (code, out, err.strip()) == (2, "", (
        "error: cannot settle: session sat: hand h2, voided or cut short, passes on the 4 "
        "chips hand h1 carried into it to the session's next hand, and no later hand took "
        "them (RULES.md §3.8, §7.1): the players' nets sum to -4 chips, owed by nobody: the "
        "session is closed; undo the void of hand h2 (`handledger undo h2 --closed --by …`): "
        "it takes them again; to take back hand h1 too, void both in one write after that "
        "undo (`handledger void h1 h2 --closed --reason … --by …`), as the session deals no "
        "more hands; then run `handledger settle` again"))
    code, out, _ = there("undo", "h2", "--closed", "--by", "Dan")
    assert (code, out.split(";")[-1].strip()) == (
        0, "by the rules: Ann +5, Bob -1")
    assert there("settle")[:2] == (0, "Bob pays Ann 3 chips\n1 transfer(s) settle 2 "
                                      "player(s)\n")
    code, out, _ = there("void", "h1", "h2", "--closed", "--reason", "wrong game", "--by", "Dan")
    assert (code, out.splitlines()) == (0, [
        "voided hand h1: returned Bob 2, Ann 2; change in net: Bob +2, Ann +2; by the rules: "
        "Bob +2, Ann +2",
        "voided hand h2: returned Ann 2, Bob 1; change in net: Ann -5, Bob +1; by the rules: "
        "Ann -5, Bob +1"])
    assert there("settle")[:2] == (0, "settled: nobody owes anybody\n")
    assert there("session", "list")[1].split("  ")[-1].strip().startswith("closed, settled")


def test_chips_passed_on_twice_name_only_the_undo_that_works(  # noqa: ANN001
        user, h2_started) -> None:
    """h2 took h1's 4 and was voided in play, passing them on; h3 took them (pot 1 + 2 + 4
    = 7; Bob folds, Ann takes 7: Ann +3, Bob -3); the session closes and h3 is voided
    (`--closed`), passing them on to no hand. h2 is voided already, so its void with h3 is
    no way: settle names only the undo of h3's void, which settles it (Bob pays Ann 3)."""
    assert user("void", "h2", "--reason", "misdeal", "--by", "Dan")[0] == 0
    _start(user, "h3", "Bob")
    assert _table(user, "h3", H2) == 0
    assert user("session", "close", "sat")[0] == 0
    assert user("void", "h3", "--closed", "--reason", "misdeal", "--by", "Dan")[0] == 0
    code, out, err = user("settle")
    assert (code, out, err.strip()) == (2, "", (
        "error: cannot settle: session sat: hand h3, voided or cut short, passes on the 4 "
        "chips hand h2 carried into it to the session's next hand, and no later hand took "
        "them (RULES.md §3.8, §7.1): the players' nets sum to -4 chips, owed by nobody: the "
        "session is closed; undo the void of hand h3 (`handledger undo h3 --closed --by …`): "
        "it takes them again, as the session deals no more hands; then run `handledger "
        "settle` again"))
    assert user("undo", "h3", "--closed", "--by", "Dan")[0] == 0
    assert _nets(user) == [["Ann", "3"], ["Bob", "-3"]]
    assert user("settle")[1].splitlines()[0] == "Bob pays Ann 3 chips"


def test_a_void_the_imported_file_holds_is_taken_back_by_undo(  # noqa: ANN001
        user, h2_started, tmp_path: Path) -> None:
    """As above, but h2's void is in the JSON-lines file (exported after the void, with the
    session's close): imported into a new ledger, the void is part of the hand's import,
    and settle's way is the same: ``undo h2 --closed`` takes back that void (its own
    correction and ``hand_voided``, seqs 9-10), h2 holds the 4 again and Bob pays Ann 3;
    an undo after it walks back to the import itself, which it does not take back."""
    assert _table(user, "h2", H2) == 0
    assert user("session", "close", "sat")[0] == 0
    assert user("void", "h2", "--closed", "--reason", "misdeal", "--by", "Dan")[0] == 0
    export = tmp_path / "sat.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    other = str(tmp_path / "other.duckdb")
    assert user("--db", other, "import", str(export))[0] == 0
    code, out, err = user("--db", other, "settle")
    assert (code, out) == (2, "") and err.strip().endswith(
        "the session is closed; undo the void of hand h2 (`handledger undo h2 --closed --by "
        "…`): it takes them again; to take back hand h1 too, void both in one write after "
        "that undo (`handledger void h1 h2 --closed --reason … --by …`), as the session deals "
        "no more hands; then run `handledger settle` again")
    code, out, _ = user("--db", other, "undo", "h2", "--closed", "--by", "Dan")
    assert (code, out.strip()) == (0, (
        "undid the void at seq 10 (by Dan: misdeal) in hand h2 (seq 11); change in net: Ann "
        "+5, Bob -1; by the rules: Ann +5, Bob -1"))
    assert user("--db", other, "settle")[:2] == (0, "Bob pays Ann 3 chips\n1 transfer(s) "
                                                    "settle 2 player(s)\n")
    code, _, err = user("--db", other, "undo", "h2", "--closed", "--by", "Dan")
    assert code == 2 and err.strip().endswith(
        "nothing to undo: the last thing appended to the hand and not taken back is the hand "
        "itself (seq 1-8, its start or import): void it or correct it")


def test_a_closed_session_whose_last_hand_is_cut_short_names_the_void_of_both(  # noqa: ANN001
        user, h2_started, tmp_path: Path) -> None:
    """h2 took h1's 4 and its log stops short after the deal (``hand_ended`` incomplete), and
    the file closes the session: h2 passes the 4 on to no hand. settle names the void of h1
    and h2 in one write, which gives back every chip (Ann 2 + 2, Bob 2 + 1): settled."""
    assert _table(user, "h2", ["d dh Ann ????", "d dh Bob ????"]) == 0
    export = tmp_path / "sat.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    rows = [r for r in export.read_text().splitlines() if '"in_play"' not in r]
    rows += ['{"hand":"h2","seq":7,"event":{"schema_version":1,"status":"incomplete",'
             '"type":"hand_ended"}}',
             '{"session":"sat","seq":4,"event":{"schema_version":1,"type":"session_closed"}}']
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(rows) + "\n")
    other = str(tmp_path / "other.duckdb")
    assert user("--db", other, "import", str(cut))[0] == 0
    code, out, err = user("--db", other, "settle")
    assert (code, out, err.strip()) == (2, "", (
        "error: cannot settle: session sat: hand h2, voided or cut short, passes on the 4 "
        "chips hand h1 carried into it to the session's next hand, and no later hand took "
        "them (RULES.md §3.8, §7.1): the players' nets sum to -4 chips, owed by nobody: the "
        "session is closed; void it with hand h1 in one write (`handledger void h1 h2 "
        "--closed --reason … --by …`), as the session deals no more hands; then run "
        "`handledger settle` again"))
    assert user("--db", other, "void", "h1", "h2", "--closed", "--reason", "cut", "--by",
                "Dan")[0] == 0
    assert user("--db", other, "settle")[:2] == (0, "settled: nobody owes anybody\n")


def test_an_imported_hand_that_takes_carried_chips_counts_as_one_hand(
        user, played, tmp_path: Path) -> None:  # noqa: ANN001
    """h1 carried 4 to the session's next hand; a PHH file of one hand (x1, Bob folds to
    Ann's big blind) imported into the session takes them: the import adds h1's
    ``carry_over`` out beside x1's own rows, and says one hand imported, not two (RULES.md
    §7.1: the record on h1 is part of x1's import)."""
    from tests.console_run import handledger

    other = tmp_path / "other.duckdb"
    assert handledger(other, "hand", "start", "--hand", "x1", "--game", "NT", "--stakes",
                      "1/2", "--seats", "Ann:98,Bob:98", "--button", "Bob")[0] == 0
    assert handledger(other, "table", "x1", input="d dh Ann ????\nd dh Bob ????\nBob f\nend\n"
                      )[0] == 0
    phh = tmp_path / "x1.phh"
    assert handledger(other, "export", "--format", "phh", "x1", "-o", str(phh))[0] == 0
    code, out, err = user("import", "--session", "sat", str(phh))
    assert (code, out) == (0, "imported 1 hand(s) (9 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected\n"), err
    assert [line.split()[3] for line in user("history", "h1")[1].splitlines()
            if " carry_over " in line] == ["carry_over"]


def test_a_hand_in_play_carries_nothing_yet(user, db: str, h1_declaring: Path) -> None:  # noqa: ANN001
    """h1 played to its showdown, both swings failing (its 4 chips the rules carry, RULES.md
    §3.8), but not ended: it leaves no chips to a next hand until it ends, so ``settle`` says
    the hand is in play, not that chips wait for the session's next hand."""
    copy_ledger(h1_declaring, Path(db))
    assert _table(user, "h1", H1[14:]) == 0
    assert user("settle", "--session", "sat") == (
        2, "", "error: cannot settle: hand h1 is still in progress (not ended) in session "
        "sat: its pot is paid when it ends (`handledger act h1 end`) or is voided; then run "
        "`handledger settle` again\n")
