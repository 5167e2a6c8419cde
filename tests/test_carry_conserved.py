"""A pot carried to the session's next hand (RULES.md §3.8 (ii), §7.1) is never paid as well,
never lost with a voided hand, never carried where no next hand can take it: every chip stays
in a stack, a carried pot, a payout or a rake, and the audit says so.

The hand ``c1`` is heads-up declare hold'em with ``no_eligible_winner = carry_over``: Ann
(AhKh) and Bob (2c3d) each put in 2 and check it down on AdAcKs 4h 5s; both declare swing. Ann
has the best high (aces full of kings against a five-high straight), Bob the best low
(5-4-3-2-A against K-5-4-A-A), so both swings fail under Rule A and nobody is left: the pot
of 4 carries over (RULES.md §3.8). Hand-checked chips: c2 (button Bob, blinds 1/2) holds Bob's
1 and Ann's 2 plus the 4 carried, 7; Bob folds, Ann is paid 7: Ann -2 + 5 = +3, Bob -2 - 1 =
-3 over the session.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import run as run_main
from ledger.audit.books import HandFacts
from ledger.audit.checks import hand_conservation
from tests.built_once import build, extend, table
from tests.conftest import ROOT
from tests.copies import copy_ledger

C1 = ["d dh Ann AhKh", "d dh Bob 2c3d", "Ann cc", "Bob cc", "d db AdAcKs", "Bob cc", "Ann cc",
      "d db 4h", "Bob cc", "Ann cc", "d db 5s", "Bob cc", "Ann cc", "Ann dcl swing",
      "Bob dcl swing", "Ann sm AhKh", "Bob sm 2c3d"]  # seqs 4-20
C2 = ["d dh Ann ????", "d dh Bob ????", "Bob f", "pay Ann 7", "end"]
CARRY = ("--game", "NT", "--stakes", "1/2", "--declare-options", "no_eligible_winner=carry_over")
CASE = ROOT / "tests" / "declare_cases" / "c13_no_winner_carry_over.phh"
REFUSED = ("the pot holds 4, 4 of it carried to the session's next hand (no_eligible_winner = "
           "carry_over; RULES.md §3.8, §7.1)")


def _session(user) -> None:  # noqa: ANN001
    for args in (("session", "open", "x"), ("buyin", "x", "Ann", "100"),
                 ("buyin", "x", "Bob", "100")):
        assert user(*args)[0] == 0


def _start(user, hand: str, button: str, stacks: str = "Ann:98,Bob:98") -> None:  # noqa: ANN001
    code, out, err = user("hand", "start", "--session", "x", "--hand", hand, *CARRY,
                          "--seats", stacks, "--button", button)
    assert (code, err) == (0, ""), err


def _table(user, hand: str, lines: list[str]) -> tuple[int, str, str]:  # noqa: ANN001
    return user("table", hand, input="".join(f"{x}\n" for x in lines))


def _start_step(hand: str, button: str, stacks: str = "Ann:98,Bob:98"):  # noqa: ANN202
    """The step of :func:`_start`, for a ledger built once."""
    return ("hand", "start", "--session", "x", "--hand", hand, *CARRY, "--seats", stacks,
            "--button", button), None


@pytest.fixture(scope="module")
def c1_shown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_session``, c1 started and played through ``C1`` (seq 20, the shows), not ended:
    built once for the module, every command silent on stderr as ``_start`` asserts."""
    books = [("session", "open", "x"), ("buyin", "x", "Ann", "100"),
             ("buyin", "x", "Bob", "100")]
    return build(tmp_path_factory.mktemp("c1-shown") / "t.duckdb", [
        *((args, None) for args in books), _start_step("c1", "Ann", "Ann:100,Bob:100"),
        table("c1", C1)], quiet=True)


@pytest.fixture(scope="module")
def c2_started(c1_shown: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``c1_shown`` ended (nothing paid: its 4 chips carry over) and ``_start(user, "c2",
    "Bob")``."""
    return extend(c1_shown, tmp_path_factory.mktemp("c2-started") / "t.duckdb",
                  [(("act", "c1", "end"), None), _start_step("c2", "Bob")], quiet=True)


@pytest.fixture(scope="module")
def c2_played(c2_started: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``c2_started`` and c2 played (``C2``): Bob folds, Ann is paid the 7."""
    return extend(c2_started, tmp_path_factory.mktemp("c2-played") / "t.duckdb",
                  [table("c2", C2)], quiet=True)


def _balanced(user) -> None:  # noqa: ANN001
    code, out, _ = user("balances")
    assert code == 0 and "sum to" not in out
    assert [line.split()[:2] for line in out.splitlines()[1:3]] == [["Ann", "3"], ["Bob", "-3"]]
    assert user("audit")[1].startswith("audit clean: 2 hand(s) in 1 session(s)")
    assert user("settle")[0] == 0


def test_a_pot_the_rules_carry_cannot_be_paid_at_the_table(user, db: str,  # noqa: ANN001
                                                           c1_shown: Path) -> None:
    copy_ledger(c1_shown, Path(db))  # _session, c1 through C1 (the shows): phase showdown
    code, _, err = _table(user, "c1", ["pay Ann 2"])
    assert code == 2
    assert err.strip() == (f"error: line 1, hand c1, action 'pay Ann 2': {REFUSED}: nothing can "
                           "be paid; now: phase showdown, next: pay PLAYER AMOUNT, end")
    assert ("carried: 4 to the session's next hand, paid to nobody (RULES.md §3.8, §7.1)"
            in user("state", "c1")[1].splitlines())
    code, _, err = user("act", "c1", "rake 1")
    assert code == 2 and f"{REFUSED}: nothing can be raked" in err
    assert user("act", "c1", "end")[0] == 0
    _start(user, "c2", "Bob")
    assert "Main pot: 7 (Ann, Bob)" in user("state", "c2")[1]  # 1 + 2 + the 4 carried
    assert _table(user, "c2", C2)[0] == 0
    _balanced(user)


def test_payouts_recorded_before_the_shows_cannot_end_with_the_carried_pot(user  # noqa: ANN001
                                                                           ) -> None:
    """Unknown hole cards: the rules cannot tell the pot carries until the shows, so the
    payouts (seqs 19, 20) go in; the end is refused, naming the carry and the correction that
    takes them back, and `undo` of a show, which would leave them standing, is refused."""
    _session(user)
    _start(user, "c1", "Ann", "Ann:100,Bob:100")
    unseen = ["d dh Ann ????", "d dh Bob ????", *C1[2:15]]
    assert _table(user, "c1", [*unseen, "pay Ann 2", "pay Bob 2", *C1[15:]])[0] == 0
    code, _, err = user("act", "c1", "end")
    assert code == 2 and (f"cannot end: {REFUSED}: the payouts come to 4, at most 0 can be "
                          "paid (4 too many; take the payouts back with `handledger correct c1 "
                          "--delete 19 --delete 20 --reason R --by NAME` (seq 19: pay Ann 2, "
                          "seq 20: pay Bob 2))") in err
    code, _, err = user("undo", "c1", "--by", "host")
    assert code == 2 and "and the hand cannot end so: take the payouts back" in err
    assert user("correct", "c1", "--delete", "19", "--delete", "20", "--reason", "r", "--by",
                "host")[0] == 0
    assert user("act", "c1", "end")[0] == 0
    _start(user, "c2", "Bob")
    assert _table(user, "c2", C2)[0] == 0
    _balanced(user)


def test_a_correction_cannot_pay_a_pot_a_later_hand_took(user, db: str,  # noqa: ANN001
                                                        c2_played: Path) -> None:
    copy_ledger(c2_played, Path(db))  # c1 carried its 4, c2 (button Bob) played: C2
    change = ("--insert-after", "20", "pay Ann 2", "--insert-after", "20", "pay Bob 2")
    said = (f"error: hand c1: correction insert_after 20 'pay Ann 2', insert_after 20 'pay Bob "
            f"2': {REFUSED}: the payouts come to 4, at most 0 can be paid")
    code, _, err = user("correct", "c1", *change, "--reason", "r", "--by", "host")
    assert (code, err.strip()) == (2, said)
    code, _, err = user("whatif", "c1", *change)
    assert (code, err.strip()) == (2, said.replace("correction insert_after", "what-if "
                                                   "insert_after"))
    code, _, err = user("correct", "c1", "--delete", "22", "--reason", "r", "--by", "host")
    assert code == 2 and "delete 22: a carry_over records chips carried to hand c2" in err
    # its last write: the carry_over, written as c2 started and took the 4
    assert user("undo", "c1", "--by", "host") == (2, "", (
        "error: hand c1: cannot undo the last thing appended to the hand, the record of the 4 "
        "chip(s) it carried to the session's next hand: hand c2 took them as it started "
        "(RULES.md §3.8, §7.1), and an undo does not take them back from it; nothing written; "
        "void it with hand c2, which took its chips, in one write (`handledger void c1 c2 "
        "--reason … --by …`) and record them again as new hands (the void of a later hand "
        "alone passes the chips on)\n"))
    code, _, err = user("void", "c1", "--reason", "r", "--by", "host")
    assert code == 2 and "hand c2 took the chips this hand carried" in err
    _balanced(user)


def test_a_voided_hand_passes_the_carried_chips_to_the_next_hand_played(  # noqa: ANN001
        user, db: str, c2_started: Path) -> None:
    copy_ledger(c2_started, Path(db))  # c1 carried its 4, c2 started (button Bob)
    code, out, _ = user("void", "c2", "--reason", "misdeal", "--by", "host")
    assert (code, out.strip()) == (0, "voided hand c2: returned Ann 2, Bob 1; the 4 chip(s) "
                                   "carried into it pass on to the session's next hand "
                                   "(RULES.md §7.1); change in net: Ann +2, Bob +1; by the rules: "
                                   "Ann +2, Bob +1")
    _start(user, "c3", "Bob")
    assert "Main pot: 7 (Ann, Bob)" in user("state", "c3")[1]
    code, _, err = user("undo", "c2", "--by", "host")
    assert code == 2 and "hand c3 took the chips this hand carried" in err
    assert _table(user, "c3", C2)[0] == 0
    code, out, _ = user("balances")
    assert [line.split()[:2] for line in out.splitlines()[1:3]] == [["Ann", "3"], ["Bob", "-3"]]
    assert user("audit")[1].startswith("audit clean: 3 hand(s) in 1 session(s)")


def test_carry_over_needs_a_session(user, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    code, _, err = user("hand", "start", "--hand", "c1", *CARRY, "--seats", "Ann:100,Bob:100",
                        "--button", "Ann")
    assert code == 2 and "a hand of no session has none: give --session S" in err
    assert not Path(db).exists()
    code, out, err = user("import", str(CASE))
    assert code == 2 and not Path(db).exists()
    assert ("hand carries 27 chips between hands (RULES.md §3.8, §7.1: no_eligible_winner = "
            "carry_over), which go into the session's next hand, and it belongs to no session: "
            "import its file with --session S") in err
    assert user("session", "open", "s1")[0] == 0
    assert user("import", "--session", "s1", str(CASE))[0] == 0


def test_the_audit_names_chips_carried_by_a_hand_of_no_session() -> None:
    """A ledger written before carry_over needed a session: the 4 chips go nowhere."""
    facts = HandFacts(hand="c1", session=None, ord=1, position=1, game="NT", status="complete",
                      starting={"Ann": 100, "Bob": 100}, contributions={"Ann": 2, "Bob": 2},
                      paid={"Ann": 0, "Bob": 0}, net={"Ann": -2, "Bob": -2}, pot_out=4,
                      carried=4)
    [found] = hand_conservation(facts)
    assert (found.kind, found.expected, found.actual, found.message) == (
        "chip_conservation", 4, 0, "hand c1 carries 4 chips to the session's next hand but "
        "belongs to no session: no hand can bring them in (-4)")


def test_an_imported_hand_that_paid_the_carried_pot_carries_nothing(  # noqa: ANN001
        user, tmp_path: Path) -> None:
    """c13 (27 chips the rules carry) as a file whose table paid them out, P1 14 and P2 13:
    stored as paid, the audit names the payouts, and the next hand gets nothing carried."""
    paid = tmp_path / "paid.phh"
    paid.write_text(CASE.read_text().replace(
        CASE.read_text().splitlines()[-1], "winnings = [14, 13, 0]"))
    nxt = tmp_path / "next.phh"
    nxt.write_text("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\n"
                   "min_bet = 2\nstarting_stacks = [101, 100, 99]\nplayers = ['P1', 'P2', "
                   "'P3']\nactions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', "
                   "'p1 cbr 6', 'p2 f']\nwinnings = [8, 0, 0]\n")
    assert user("session", "open", "s1")[0] == 0
    code, _, err = user("import", "--session", "s1", str(paid), str(nxt))
    assert code == 0 and ("hand phh-1a4cd59873f9: the table paid out 27 of the 27 chips the "
                          "rules carry to the session's next hand (no_eligible_winner = "
                          "carry_over; RULES.md §3.8, §7.1): nothing carried (stored; the audit "
                          "reports it)") in err
    code, out, _ = user("sql", "--csv", "SELECT count(*) FROM events WHERE type = 'carry_over'")
    assert out.split() == ["count_star()", "0"]
    code, out, _ = user("balances", "--session", "s1")
    assert "sum to" not in out  # P1 +1 +2, P2 0 -2, P3 -1 -0: nothing created
    audit = user("audit")[1]
    assert "P1 was paid 14, the rules give 0 (+14)" in audit
    assert "P2 was paid 13, the rules give 0 (+13)" in audit
    assert "chip_conservation" not in audit


def test_a_file_that_pays_a_pot_and_carries_it_too_is_named(  # noqa: ANN001
        user, db: str, tmp_path: Path, c2_played: Path) -> None:
    """A JSON-lines file (an export, edited) whose c1 records payouts of 2 each and also the
    carry_over of its 4 chips into c2: stored as the file says with a warning, and the audit
    names the 4 chips made (paid 4 + carried 4 of a pot of 4) besides the payouts."""
    copy_ledger(c2_played, Path(db))  # c1 carried its 4, c2 (button Bob) played: C2
    export = tmp_path / "night.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    lines = export.read_text().splitlines()
    end = lines.index('{"hand":"c1","seq":21,"event":{"schema_version":1,"status":"complete",'
                      '"type":"hand_ended"}}')
    pays = [f'{{"hand":"c1","seq":{21 + k},"event":{{"amount":2,"player":"{p}",'
            '"schema_version":1,"type":"recorded_payout"}}' for k, p in enumerate(("Ann", "Bob"))]
    moved = [line.replace('"seq":21,', '"seq":23,').replace('"seq":22,', '"seq":24,')
             for line in lines[end:end + 2]]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([*lines[:end], *pays, *moved, *lines[end + 2:]]) + "\n")
    other = str(tmp_path / "other.duckdb")
    with CliRunner().isolation() as (out, err, _):
        try:
            code = run_main(["--db", other, "import", str(edited)])
        except SystemExit as exc:
            code = exc.code
        warned = err.getvalue().decode()
    assert code == 0
    assert ("hand c1: the table paid 4 of the pot of 0 (4 more carried to the session's next "
            "hand): over by 4, chips the pot did not hold (stored; the audit reports it)") in warned
    with CliRunner().isolation() as (out, err, _):
        try:
            run_main(["--db", other, "audit"])
        except SystemExit:
            pass
        audit = out.getvalue().decode()
    assert ("chip_conservation: hand c1: the table paid 4 and carried 4 to the next hand, 4 more "
            "than the 4 chips that went in (+4)") in audit
    assert "hand c1: Ann was paid 2, the rules give 0 (+2)" in audit
