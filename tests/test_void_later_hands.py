"""A void of a hand still in play once a later hand of its session started beside it
(RULES.md §1.1, §3.8, §7.1; ``hand start`` refuses such a hand now, a ledger written before
or an import holds it: :func:`tests.beside.started_beside`): live (``void``) and imported
(a JSON-lines file that goes on with a hand the ledger holds in play) alike, it is refused in
one line when the books could not follow it, nothing written, and goes in when they can.

Stacks: heads-up hold'em, blinds 1/2, Ann and Bob bought in 100 each. ``h1`` (button Ann: Ann
posts 1, Bob 2) is in play when ``h2`` (button Bob: Bob 1, Ann 2) starts on what they kept
beside h1's pot, Ann 99 and Bob 98. Voided, h1 gives back Ann's 1 and Bob's 2: the books
would start them in h2 with 100 each, not the 99 and 98 h2 holds.

Carried chips: ``h1`` of :mod:`tests.test_carry_taken` carries its pot of 4 (both swings
fail); ``h2`` takes them as it starts (pot 4 + 1 + 2 = 7); ``h3`` starts while h2 is in play.
Voided, h2 would pass the 4 on to a hand that started without them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.beside import started_beside
from tests.built_once import build, table
from tests.copies import copy_ledger
from tests.test_carry_taken import _played_steps

STAKES = ("--game", "NT", "--stakes", "1/2")


def _hand(user, hand: str, button: str, seats: str) -> None:  # noqa: ANN001
    code, _, err = user("hand", "start", "--session", "sat", "--hand", hand, *STAKES,
                        "--seats", seats, "--button", button)
    assert code == 0, err


def _fold_bob(user, hand: str) -> None:  # noqa: ANN001
    """Bob, the button (small blind 1), folds to Ann's big blind 2: Ann +1, Bob -1."""
    lines = ["d dh Ann ????", "d dh Bob ????", "Bob f", "end"]
    assert user("table", hand, input="".join(f"{x}\n" for x in lines))[0] == 0


def _start_step(hand: str, button: str, seats: str):  # noqa: ANN202
    """The step of :func:`_hand`, for a ledger built once."""
    return ("hand", "start", "--session", "sat", "--hand", hand, *STAKES, "--seats", seats,
            "--button", button), None


OPENED = [(("session", "open", "sat"), None), (("buyin", "sat", "Ann", "100"), None),
          (("buyin", "sat", "Bob", "100"), None)]


@pytest.fixture(scope="module")
def h1_ann_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_opened`` and ``_hand(user, "h1", "Ann", "Ann:100,Bob:100")``, built once."""
    return build(tmp_path_factory.mktemp("h1-ann") / "t.duckdb",
                 [*OPENED, _start_step("h1", "Ann", "Ann:100,Bob:100")])


@pytest.fixture(scope="module")
def h2_on_h1_built(h1_ann_built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``h1_ann_built`` and h2 started beside h1 on what they kept, Ann 99 and Bob 98."""
    db = copy_ledger(h1_ann_built, tmp_path_factory.mktemp("h2-on-h1") / "t.duckdb")
    started_beside(db, "h2", seats="Ann:99,Bob:98", button="Bob")  # hand start refuses it
    return db


@pytest.fixture(scope="module")
def h1_folded_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_opened``, h1 (button Bob) and ``_fold_bob``: Ann 101, Bob 99, built once."""
    return build(tmp_path_factory.mktemp("h1-folded") / "t.duckdb", [
        *OPENED, _start_step("h1", "Bob", "Ann:100,Bob:100"),
        table("h1", ["d dh Ann ????", "d dh Bob ????", "Bob f", "end"])])


@pytest.fixture(scope="module")
def carried_h3_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``_played`` (tests/test_carry_taken.py: h1 carries 4), h2 (button Bob) taking them and
    h3 (button Ann) started while h2 is in play, built once."""
    start = ("hand", "start", "--session", "sat", "--game", "NT", "--stakes", "1/2",
             "--declare-options", "no_eligible_winner=carry_over", "--seats", "Ann:98,Bob:98")
    db = build(tmp_path_factory.mktemp("carried-h3") / "t.duckdb", [
        *_played_steps(), ((*start, "--hand", "h2", "--button", "Bob"), None)])
    started_beside(db, "h3", seats="Ann:98,Bob:98", button="Ann",  # hand start refuses it
                   declare="no_eligible_winner=carry_over")
    return db


STACKS_SAID = (
    "hand h2 started while this hand was in play, Ann with the 99 chips Ann had beside its pot "
    "(RULES.md §1.1: only the chips on the table when the deal starts); voided, the hand gives "
    "back every chip it holds and the books would start Ann there with 100: void hand h2 "
    "first (it started on chips this hand held), then this one; nothing written")


def test_a_void_the_next_hands_stacks_could_not_follow_is_refused(  # noqa: ANN001
        user, db: str, h2_on_h1_built: Path) -> None:
    """Voiding h2 first, then h1, leaves both at nothing; h3 starts on 100 each, Bob folds:
    Ann 101, Bob 99, which they cash out: the audit is clean."""
    copy_ledger(h2_on_h1_built, Path(db))  # _opened, h1 (button Ann), h2 on Ann 99, Bob 98
    code, out, err = user("void", "h1", "--reason", "misdeal", "--by", "Dan")
    assert (code, out, err.strip()) == (2, "", f"error: hand h1: {STACKS_SAID}")
    assert "Main pot: 3 (Bob, Ann)" in user("state", "h1")[1]  # still in play: nothing written
    code, out, _ = user("void", "h2", "--reason", "misdeal", "--by", "Dan")
    assert (code, out.strip()) == (0, "voided hand h2: returned Ann 2, Bob 1; change in net: Ann "
                                      "+2, "
                                      "Bob +1; by the rules: Ann +2, Bob +1")
    code, out, _ = user("void", "h1", "--reason", "misdeal", "--by", "Dan")
    assert (code, out.strip()) == (0, "voided hand h1: returned Bob 2, Ann 1; change in net: Bob "
                                      "+2, "
                                      "Ann +1; by the rules: Bob +2, Ann +1")
    _hand(user, "h3", "Bob", "Ann:100,Bob:100")
    _fold_bob(user, "h3")
    assert user("cashout", "sat", "Ann", "101")[0] == 0
    assert user("cashout", "sat", "Bob", "99")[0] == 0
    assert user("audit")[1].startswith("audit clean: 3 hand(s) in 1 session(s)")


def test_a_void_the_next_hand_started_without_goes_in(user, db: str,  # noqa: ANN001
                                                     h1_ann_built: Path) -> None:
    """h2 starts on 100 each (h1 taken as void at the table already): ``hand start`` refuses
    it while h1 is in play (its blinds only), naming the void; on a ledger that holds it (one
    written before, an import) the void of h1 leaves the books where h2 started; Bob folds
    h2: Ann 101, Bob 99, the audit clean."""
    copy_ledger(h1_ann_built, Path(db))  # _opened, h1 (button Ann) on 100 each
    code, out, err = user("hand", "start", "--session", "sat", "--hand", "h2", *STAKES,
                          "--seats", "Ann:100,Bob:100", "--button", "Bob")
    assert (code, out, err) == (
        2, "", "error: hand h2: Ann and Bob are seated in hand h1 of session sat, still in "
        "play: a player's chips are in one hand at a time (RULES.md §1.1): play it out and end "
        "it first, or void it (`handledger void h1 --reason … --by …`); nothing written\n")
    started_beside(db, "h2", seats="Ann:100,Bob:100", button="Bob")
    code, out, _ = user("void", "h1", "--reason", "misdeal", "--by", "Dan")
    assert (code, out.strip()) == (0, "voided hand h1: returned Bob 2, Ann 1; change in net: Bob "
                                      "+2, "
                                      "Ann +1; by the rules: Bob +2, Ann +1")
    _fold_bob(user, "h2")
    assert user("cashout", "sat", "Ann", "101")[0] == 0
    assert user("cashout", "sat", "Bob", "99")[0] == 0
    assert user("audit")[1].startswith("audit clean: 2 hand(s) in 1 session(s)")


def test_a_void_of_a_finished_hand_the_next_hand_followed_warns(  # noqa: ANN001
        user, db: str, h1_folded_built: Path) -> None:
    """h1 ends (Bob, the button, folds his 1 to Ann's 2: Ann 101, Bob 99) and h2 starts on
    those stacks; voided, h1 gives back Bob 1 and Ann 2 and the books have 100 each before
    h2: the void goes in (h1 held no chip of h2) and warns of both players, as ``correct``
    and ``undo`` do; h2 was dealt on h1 as it stood, so it stands as played and the chip
    the void moves is owed in settle (README "A correction after the chips moved on")."""
    copy_ledger(h1_folded_built, Path(db))  # _opened, h1 (button Bob), _fold_bob
    _hand(user, "h2", "Ann", "Ann:101,Bob:99")
    code, out, err = user("void", "h1", "--reason", "meant h2", "--by", "Dan")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "voided hand h1: returned Ann 2, Bob 1; change in net: Ann -1, Bob +1; by the rules: Ann "
        "-1, "
        "Bob +1",
        "  warning: hand h2 started Bob with 99, on hand h1 as it stood (the books had Bob 99 "
        "there); now they have Bob 100: Bob +1 chips in settle, and hand h2 stands as played "
        "(the chips at the table are facts)",
        "  warning: hand h2 started Ann with 101, on hand h1 as it stood (the books had Ann "
        "101 there); now they have Ann 100: Ann -1 chips in settle, and hand h2 stands as "
        "played (the chips at the table are facts)"]
    code, out, err = user("audit")  # h2 in play: that alone, no stack continuity
    assert (code, out.splitlines()[-1], err) == (
        1, "audit: 1 discrepancy (in_progress 1); 2 hand(s) in 1 session(s) checked",
        "note: hand h1 voided after hand h2 was dealt (seq 8, by Dan: void: meant h2): Bob "
        "+1, Ann -1 chips owed in settle\n")


def test_a_void_of_a_finished_hand_the_next_hand_started_without_says_nothing_more(  # noqa: ANN001
        user, db: str, h1_folded_built: Path) -> None:
    """h2 starts on 100 each (h1 taken as void at the table already): no warning."""
    copy_ledger(h1_folded_built, Path(db))  # _opened, h1 (button Bob), _fold_bob
    _hand(user, "h2", "Ann", "Ann:100,Bob:100")
    assert user("void", "h1", "--reason", "meant h2", "--by", "Dan") == (
        0, "voided hand h1: returned Ann 2, Bob 1; change in net: Ann -1, Bob +1; by the rules: "
           "Ann -1, "
        "Bob +1\n", "")


def _export_with_void(user, tmp_path: Path, hand: str, seq: int, name: str,  # noqa: ANN001
                      in_play: dict[str, int], before: str | None = None) -> tuple[Path, int]:
    """The ledger exported as JSON lines with a void of ``hand`` (its row ``seq``) added:
    last, or before the first row of the hand ``before``; the file and the void's line."""
    export = tmp_path / "all.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(export))[0] == 0
    rows = export.read_text().splitlines()[:-1]
    void = json.dumps({"hand": hand, "seq": seq, "event": {
        "by": "Dan", "reason": "misdeal", "schema_version": 1, "type": "hand_voided"}},
        separators=(",", ":"))
    at = len(rows) if before is None else next(
        i for i, r in enumerate(rows) if r.startswith(f'{{"hand":"{before}"'))
    rows.insert(at, void)
    path = tmp_path / name
    tail = json.dumps({"in_play": in_play, "rows": len(rows)}, separators=(",", ":"))
    path.write_text("\n".join([*rows, tail]) + "\n")
    return path, at + 1


def test_an_imported_void_the_next_hands_stacks_could_not_follow_is_refused(  # noqa: ANN001
        user, tmp_path: Path, db: str, h2_on_h1_built: Path) -> None:
    copy_ledger(h2_on_h1_built, Path(db))  # _opened, h1 (button Ann), h2 on Ann 99, Bob 98
    path, line = _export_with_void(user, tmp_path, "h1", 4, "v.jsonl", {"h2": 3})
    code, _, err = user("import", str(path))
    assert code == 2
    assert f"error: v.jsonl:{line}, hand h1: {STACKS_SAID}" in err.splitlines()
    assert "Main pot: 3 (Bob, Ann)" in user("state", "h1")[1]  # nothing written


def test_an_imported_void_that_passes_carried_chips_to_no_hand_is_refused(  # noqa: ANN001
        user, tmp_path: Path, db: str, carried_h3_built: Path) -> None:
    """The live ``void h2`` is refused (tests/test_carry_taken.py); a file that goes on with h2
    by a void is refused the same, in one line naming its line: h2 keeps the 4."""
    copy_ledger(carried_h3_built, Path(db))  # _played, h2 (button Bob), h3 (button Ann)
    path, line = _export_with_void(user, tmp_path, "h2", 5, "c.jsonl", {"h3": 3})
    audit = user("audit")[1]
    code, _, err = user("import", str(path))
    assert code == 2
    assert (f"error: c.jsonl:{line}, hand h2: voiding hand h2 changes the chips it carries to "
            "the session's next hand from 0 to 4, and hand h3, the session's next hand, started "
            "without them (RULES.md §3.8, §7.1): the chips would be counted twice or lost; "
            "nothing written") in err.splitlines()
    assert "Main pot: 7 (Ann, Bob)" in user("state", "h2")[1]
    assert user("audit")[1] == audit  # nothing written


def test_an_imported_void_before_the_next_hand_passes_the_chips_to_it(  # noqa: ANN001
        user, db: str, tmp_path: Path, carried_h3_built: Path) -> None:
    """A file that voids h2 (held in play by the ledger) and then starts h3: h3 takes the 4
    h2 passes on, pot 4 + 1 + 2 = 7, and the audit names only h3 in progress."""
    copy_ledger(carried_h3_built, Path(db))  # _played, h2 (button Bob), h3 (button Ann)
    path, _ = _export_with_void(user, tmp_path, "h2", 5, "c.jsonl", {"h3": 3}, before="h3")
    first = tmp_path / "to-h2.jsonl"
    rows = [r for r in path.read_text().splitlines()[:-1]
            if not r.startswith(('{"hand":"h3"', '{"hand":"h2","seq":5'))]
    first.write_text("\n".join([*rows, json.dumps({"in_play": {"h2": 4}, "rows": len(rows)},
                                                  separators=(",", ":"))]) + "\n")
    other = str(tmp_path / "other.duckdb")
    assert user("--db", other, "import", str(first))[0] == 0
    code, _, err = user("--db", other, "import", str(path))
    assert code == 0, err
    assert "Main pot: 7 (Bob, Ann)" in user("--db", other, "state", "h3")[1]
    audit = user("--db", other, "audit")[1]
    assert "audit: 1 discrepancy (in_progress 1); 3 hand(s) in 1 session(s) checked" in audit
