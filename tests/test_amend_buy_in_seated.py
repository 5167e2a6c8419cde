"""``entry amend`` of a buy-in is held to the rules ``entry retract`` and ``buyin`` hold:
lowered below the stack the first hand after it seats its player with, it would start him with
chips nobody bought, and while he sits in a hand in play his buy-ins do not change; each is one
line naming the entry, the player, the hand and the chips, exit 2, nothing written. A file's
``entry_corrected`` row that lowers a buy-in so is refused the same way, with or without
worker processes (replay/sessions/seated_chips.py). Before, each went in and only the
audit's stack continuity named it later.

``night`` (as tests/test_live_books.py's): session s (plain chips), Ann and Bob buy in 100 each
(entries 2, 3); hand x1: Ann's aces beat Bob's kings all in, Ann is paid 200: Ann 200, Bob 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.store.store import Ledger
from tests.copies import copy_ledger
from tests.test_books_refusals import open_s, refused, rows, run
from tests.test_import_workers_same_books import cli
from tests.test_live_books import ALL_IN, SEATS, _start
from tests.workers import import_by_workers

BY = ("--reason", "typo", "--by", "host")


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    db = tmp_path_factory.mktemp("night") / "t.duckdb"
    open_s(db, "s", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "x1", *SEATS, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    for action in ALL_IN:
        assert run(db, "act", "x1", action).exit_code == 0, action
    return db


def _amend(db: Path, seq: int, chips: int) -> tuple[int, str]:
    result = run(db, "entry", "amend", "s", str(seq), str(chips), *BY)
    return result.exit_code, (result.stdout if result.exit_code == 0 else refused(result))


def _bob_rebuys_and_sits_in_x2(night: Path, tmp_path: Path) -> Path:
    """The night, Bob's rebuy of 100 (entry 4) and hand x2 in play, Ann 200, Bob 100."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100").exit_code == 0
    assert _start(db, "x2", "Ann:200,Bob:100") == (0, [])
    return db


def test_a_buy_in_lowered_below_the_first_hand_after_it_is_refused(
        night: Path, tmp_path: Path) -> None:
    """Bob's buy-in (entry 3) of 100 made 40: x1 seats him with 100, 60 nobody bought; his
    rebuy (entry 4) made 60: he left x1 with 0, x2 seats him with 100, 40 nobody bought. Each
    refused in one line, the ledger unchanged."""
    db = _bob_rebuys_and_sits_in_x2(night, tmp_path)
    before = rows(db)
    assert _amend(db, 3, 40) == (2, (
        "error: entry amend s 3 (buy-in of Bob): 40 chips: hand x1 seats Bob with 100 chips, "
        "and Bob's buy-ins there would come to 40: it would start Bob with 60 chips nobody "
        "bought (RULES.md §1.1); nothing written (a hand seated with the wrong stack is "
        "corrected or voided first; `handledger history --session s` lists the entries)"))
    assert _amend(db, 4, 60) == (2, (
        "error: entry amend s 4 (buy-in of Bob): 60 chips: hand x2 seats Bob with 100 chips, "
        "and Bob left hand x1 with 0 and would have bought 60 since: it would start Bob with "
        "40 chips nobody bought (RULES.md §1.1); nothing written (a hand seated with the "
        "wrong stack is corrected or voided first; `handledger history --session s` lists the "
        "entries)"))
    assert rows(db) == before


def test_a_buy_in_of_a_player_in_a_hand_in_play_is_amended_once_it_ends(
        night: Path, tmp_path: Path) -> None:
    """Raising Bob's rebuy while x2 seats him is refused as `buyin` is; once x2 ends it goes
    in with a warning naming x2's start, 100 of 150: -50 (as the audit then names it), and
    lowering it back to the 100 x2 seats him with goes in too, no warning, the audit clean
    again. Ann's buy-in, lowered to 99 while
    she sits in x2, is refused by the first rule: x1 seats her with 100."""
    db = _bob_rebuys_and_sits_in_x2(night, tmp_path)
    assert _amend(db, 4, 150) == (2, (
        "error: entry amend s 4 (buy-in of Bob): 150 chips: Bob is seated in hand x2 of "
        "session s, which is still open: Bob's buy-ins change only between a showdown and the "
        "next deal (RULES.md §1.1), as `buyin` holds them; nothing written; amend it once the "
        "hand ends (`handledger act x2 end`) or is voided"))
    assert _amend(db, 2, 99)[1].startswith(
        "error: entry amend s 2 (buy-in of Ann): 99 chips: hand x1 seats Ann with 100 chips, "
        "and Ann's buy-ins there would come to 99: it would start Ann with 1 chip nobody bought")
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann f", "pay Bob 3", "end"):
        assert run(db, "act", "x2", action).exit_code == 0, action
    raised = run(db, "entry", "amend", "s", "4", "150", *BY)
    assert (raised.exit_code, raised.stdout, raised.stderr) == (
        0, "s: entry 4 (buy-in of Bob) amended: 100 → 150 chips\n",
        "warning: entry 4 (buy-in of Bob, 150 chips): hand x2 seats Bob with 100 chips, but "
        "Bob left hand x1 with 0 and bought 150 since: expected 150 (-50); the books no longer "
        "follow the hands' stacks, and the audit's stack_continuity will name it; a wrong "
        "amount is amended again (`handledger entry amend s 4 100 --reason … --by …`)\n")
    audit = run(db, "audit", "--session", "s", "--json")
    assert [(d["hand"], d["player"], d["expected"], d["actual"])
            for d in json.loads(audit.stdout)["discrepancies"]] == [("x2", "Bob", 150, 100)]
    back = run(db, "entry", "amend", "s", "4", "100", *BY)
    assert (back.exit_code, back.stdout, back.stderr) == (
        0, "s: entry 4 (buy-in of Bob) amended: 150 → 100 chips\n", "")
    assert run(db, "audit", "--session", "s").exit_code == 0


def test_a_buy_in_made_before_a_hand_in_play_is_amended_as_it_was_recorded(
        night: Path, tmp_path: Path) -> None:
    """x2 in play seats Bob with 100 after he left x1 with 0: his rebuy, recorded then before
    x2 (`buyin --before x2`, taken while x2 is in play) as 50 by mistake, is amended to the 100
    x2 seats him with while x2 is still in play, no warning: the books follow x2's start. His
    first buy-in, made before no hand, is still refused while he sits in x2."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "hand", "start", "--hand", "x2", *SEATS, "--seats", "Ann:200,Bob:100"
               ).exit_code == 0
    made = run(db, "buyin", "s", "Bob", "50", "--before", "x2")
    assert (made.exit_code, made.stdout) == (0, "s: Bob rebuy 50 chips before hand x2 (entry 4)\n")
    amended = run(db, "entry", "amend", "s", "4", "100", *BY)
    assert (amended.exit_code, amended.stdout, amended.stderr) == (
        0, "s: entry 4 (buy-in of Bob) amended: 50 → 100 chips\n", "")
    assert _amend(db, 3, 150) == (2, (
        "error: entry amend s 3 (buy-in of Bob): 150 chips: Bob is seated in hand x2 of "
        "session s, which is still open: Bob's buy-ins change only between a showdown and the "
        "next deal (RULES.md §1.1), as `buyin` holds them; nothing written; amend it once the "
        "hand ends (`handledger act x2 end`) or is voided"))


VAL = Path(__file__).resolve().parents[2] / "shared/data/pokernow/valakuzhyk_07_21_2022_log1.csv"


def test_a_buy_in_after_a_cash_out_names_the_cash_out(tmp_path: Path) -> None:
    """Cy buys in 100 (entry 4), wins Bob's small blind in k1 (101), cashes out all 101 (entry
    5) and buys in 50 (entry 6); k2 seats him with 50. His rebuy made 30 or retracted would
    start him with 20 or 50 chips nobody bought: the refusal names his cash-out (the chips
    he left k1 with went with it), not a stack of 0 left by k1. The warning of a rebuy
    raised to 80 names it too."""
    from cli.main import cli as main

    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100"), ("buyin", "s", "Cy", "100")):
        assert run(db, *args).exit_code == 0
    for hand, seats, button, acts in (
            ("k1", "Ann:100,Bob:100,Cy:100", "Ann",
             "d dh Bob ????\nd dh Cy ????\nd dh Ann ????\nAnn f\nBob f\nend\n"),
            ("k2", "Ann:100,Bob:99,Cy:50", "Bob",
             "d dh Cy ????\nd dh Ann ????\nd dh Bob ????\nBob f\nCy f\nend\n")):
        if hand == "k2":
            assert run(db, "cashout", "s", "Cy", "101").exit_code == 0
            assert run(db, "buyin", "s", "Cy", "50").exit_code == 0
        assert run(db, "hand", "start", "--session", "s", "--hand", hand, "--game", "NT",
                   "--stakes", "1/2", "--seats", seats, "--button", button).exit_code == 0
        played = CliRunner().invoke(main, ["--db", str(db), "table", hand], input=acts,
                                    catch_exceptions=False)
        assert played.exit_code == 0, played.output
    before = rows(db)
    tail = ("(RULES.md §1.1); nothing written (a hand seated with the wrong stack is corrected "
            "or voided first; `handledger history --session s` lists the entries)")
    assert _amend(db, 6, 30) == (2, (
        "error: entry amend s 6 (buy-in of Cy): 30 chips: hand k2 seats Cy with 50 chips, and "
        "Cy cashed out 101 (entry 5) after hand k1 and would have bought 30 since: it would "
        f"start Cy with 20 chips nobody bought {tail}"))
    assert refused(run(db, "entry", "retract", "s", "6", *BY)) == (
        "error: entry retract s 6 (buy-in of Cy, 50 chips): hand k2 seats Cy with 50 chips, "
        "and Cy cashed out 101 (entry 5) after hand k1 and would have bought nothing since: "
        f"it would start Cy with 50 chips nobody bought {tail}")
    assert rows(db) == before
    result = run(db, "entry", "amend", "s", "6", "80", *BY)
    assert (result.exit_code, result.stderr) == (0, (
        "warning: entry 6 (buy-in of Cy, 80 chips): hand k2 seats Cy with 50 chips, but Cy "
        "cashed out 101 (entry 5) after hand k1 and bought 80 since: expected 80 (-30); the "
        "books no longer follow the hands' stacks, and the audit's stack_continuity will name "
        "it; a wrong amount is amended again (`handledger entry amend s 6 50 --reason … --by "
        "…`)\n"))


def test_a_buy_in_raised_above_the_first_hand_after_it_is_warned_of(
        night: Path, tmp_path: Path) -> None:
    """Ann's buy-in (entry 2) of 100 raised to 150: x1 seats her with 100, so the books no
    longer follow the hands: it goes in (the host's statement) with one warning naming x1
    and the stacks, and the audit names the same start. Lowered to 100 again: no warning."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    result = run(db, "entry", "amend", "s", "2", "150", *BY)
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "s: entry 2 (buy-in of Ann) amended: 100 → 150 chips\n",
        "warning: entry 2 (buy-in of Ann, 150 chips): hand x1 seats Ann with 100 chips, but "
        "Ann's buy-ins there come to 150: expected 150 (-50); the books no longer follow the "
        "hands' stacks, and the audit's stack_continuity will name it; a wrong amount is "
        "amended again (`handledger entry amend s 2 100 --reason … --by …`)\n")
    audit = run(db, "audit", "--session", "s", "--json")
    assert [(d["hand"], d["player"], d["expected"], d["actual"])
            for d in json.loads(audit.stdout)["discrepancies"]] == [("x1", "Ann", 150, 100)]
    back = run(db, "entry", "amend", "s", "2", "100", *BY)
    assert (back.exit_code, back.stdout, back.stderr) == (
        0, "s: entry 2 (buy-in of Ann) amended: 150 → 100 chips\n", "")
    assert run(db, "audit", "--session", "s").exit_code == 0


def test_a_pokernow_buy_in_raised_is_warned_of(tmp_path: Path) -> None:
    """The valakuzhyk log into w3: entry 4 is the log's buy-in of 1000 for Phzd Juwvifsvh,
    whom its first hand seats with 1000. Raised to 1100, it goes in with a warning naming
    that hand and the stacks (-100)."""
    db = tmp_path / "t.duckdb"
    assert run(db, "import", str(VAL), "--session", "w3").exit_code == 0
    result = run(db, "entry", "amend", "w3", "4", "1100", "--reason", "x", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "w3: entry 4 (buy-in of Phzd Juwvifsvh) amended: 1000 → 1100 chips\n",
        "warning: entry 4 (buy-in of Phzd Juwvifsvh, 1100 chips): hand "
        "pn-w3-1-165843755677200 seats Phzd Juwvifsvh with 1000 chips, but Phzd Juwvifsvh's "
        "buy-ins there come to 1100: expected 1100 (-100); the books no longer follow the "
        "hands' stacks, and the audit's stack_continuity will name it; a wrong amount is "
        "amended again (`handledger entry amend w3 4 1000 --reason … --by …`)\n")


def test_a_buy_in_no_hand_follows_is_lowered(night: Path, tmp_path: Path) -> None:
    """Eve, bought in for 50 and never seated, and Bob's rebuy before any hand after it:
    lowered as before, and raised with no warning (no hand after them to follow)."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    for args in (("buyin", "s", "Eve", "50"), ("buyin", "s", "Bob", "100")):
        assert run(db, *args).exit_code == 0
    for seq, who, was, chips in ((4, "Eve", 50, 20), (5, "Bob", 100, 60), (5, "Bob", 60, 250)):
        result = run(db, "entry", "amend", "s", str(seq), str(chips), *BY)  # no hand after
        assert (result.exit_code, result.stdout, result.stderr) == (  # them: no warning
            0, f"s: entry {seq} (buy-in of {who}) amended: {was} → {chips} chips\n", "")


def test_a_files_amendment_lowering_a_seated_buy_in_is_refused(night: Path,
                                                               tmp_path: Path) -> None:
    """The night's export with one more row, the host's amendment of Bob's buy-in to 40
    (seq 4 of s, after x1): refused into a fresh ledger in one line naming the file's line,
    with and without workers, no ledger left; the export alone goes in."""
    export = tmp_path / "night.jsonl"
    assert run(night, "export", "--format", "jsonl", "-o", str(export)).exit_code == 0
    text = export.read_text()
    lines = len(text.splitlines())
    fix = {"by": "host", "reason": "typo", "schema_version": 1, "seq": 3,
           "type": "entry_corrected", "replacement": {
               "chips": 40, "kind": "buy_in", "player": "Bob", "schema_version": 1,
               "type": "buy_in"}}
    path = tmp_path / "fix.jsonl"
    path.write_text(text + json.dumps({"session": "s", "seq": 4, "event": fix}) + "\n")
    for jobs in ("1", "2"):
        db = tmp_path / f"fresh{jobs}.duckdb"
        assert cli(db, "import", str(path), "--jobs", jobs) == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
               "rejected; 1 other hand(s) not written, their file refused\n",
            f"error: {path}:{lines + 1}, session s: its entry_corrected at seq 4 amends entry "
            "3 (buy-in of Bob): 40 chips: hand x1 seats Bob with 100 chips, and Bob's buy-ins "
            "there would come to 40: it would start Bob with 60 chips nobody bought (RULES.md "
            "§1.1); nothing of the file was written (a hand seated with the wrong stack is "
            "corrected or voided first; `handledger history --session s` lists the entries); a "
            "file's correction of a book entry is held to `entry amend`'s rules\n")
        assert not db.exists()
    assert cli(tmp_path / "plain.duckdb", "import", str(export))[0] == 0


def _fix_row(seq: int, target: int, chips: int | None) -> str:
    """Session s's row ``seq``: the host's amendment of entry ``target`` to Bob's buy-in of
    ``chips`` (None: its retraction)."""
    fix: dict[str, object] = {"by": "host", "reason": "typo", "seq": target,
                              "type": "entry_corrected"}
    if chips is not None:
        fix["replacement"] = {"chips": chips, "kind": "buy_in", "player": "Bob",
                              "type": "buy_in"}
    return json.dumps({"session": "s", "seq": seq, "event": fix})


def _bob_buys(seq: int, chips: int, kind: str) -> str:
    return json.dumps({"session": "s", "seq": seq, "event": {
        "chips": chips, "kind": kind, "player": "Bob", "type": "buy_in"}})


def _before_x1(night: Path, tmp_path: Path, name: str, *rows_: str) -> Path:
    """The night's export (lines 1-3: the opening, Ann's and Bob's buy-ins; then hand x1)
    with ``rows_`` put between Bob's buy-in and x1."""
    export = tmp_path / "night.jsonl"
    if not export.exists():
        assert run(night, "export", "--format", "jsonl", "-o", str(export)).exit_code == 0
    lines = export.read_text().splitlines()
    assert [json.loads(x).get("hand") for x in lines[:4]] == [None, None, None, "x1"]
    path = tmp_path / name
    path.write_text("\n".join([*lines[:3], *rows_, *lines[3:]]) + "\n")
    return path


SEATED_AFTER = (
    "its entry_corrected at seq 4 amends entry 3 (buy-in of Bob): 40 chips: hand x1 seats Bob "
    "with 100 chips, and Bob's buy-ins there would come to 40: it would start Bob with 60 chips "
    "nobody bought (RULES.md §1.1); nothing of the file was written (a hand seated with the "
    "wrong stack is corrected or voided first; `handledger history --session s` lists the "
    "entries); a file's correction of a book entry is held to `entry amend`'s rules")
RETRACTED_AFTER = (
    "its entry_corrected at seq 4 retracts entry 3 (buy-in of Bob, 100 chips): it is all Bob "
    "bought in session s, and hand x1 seats Bob: it would start Bob with chips nobody bought; "
    "nothing of the file was written (a wrong amount is amended: `handledger entry amend s 3 "
    "CHIPS --reason … --by …`; a hand seated by mistake is voided first); a file's correction "
    "of a book entry is held to `entry retract`'s rules")


@pytest.mark.parametrize(("chips", "said"), [(40, SEATED_AFTER), (None, RETRACTED_AFTER)],
                         ids=["lowered", "retracted"])
def test_a_files_amendment_before_the_hand_that_seats_him_is_refused(
        night: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chips: int | None,
        said: str) -> None:
    """Bob's buy-in (entry 3, 100) lowered to 40, or retracted, by line 4 of the file, before
    hand x1 (lines 5-16) seats him with 100: held to the rule `entry amend` and `entry
    retract` hold it to with x1 in the ledger, at line 4: refused into a ledger holding
    another session (its rows and its file's bytes unchanged) and into a fresh one (not made),
    with the default jobs, --jobs 1 and 2 and by worker processes reading the file in parts
    (they give it back). Each went in before (x1 was not stored before the row)."""
    path = _before_x1(night, tmp_path, "early.jsonl", _fix_row(4, 3, chips))
    other = tmp_path / "other.duckdb"
    open_s(other, "o", "Cy")
    before, data = rows(other), other.read_bytes()
    refusal = (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
                  "rejected; 1 other hand(s) not written, their file refused\n",
               f"error: {path}:4, session s: {said}\n")
    for jobs in ((), ("--jobs", "1"), ("--jobs", "2")):  # () : the default
        assert cli(other, "import", str(path), *jobs) == refusal
        assert (rows(other), other.read_bytes()) == (before, data)
        fresh = tmp_path / f"fresh{len(jobs)}{jobs[-1:]}.duckdb"
        assert cli(fresh, "import", str(path), *jobs) == refusal
        assert not fresh.exists()
    report, results = import_by_workers(monkeypatch, path, tmp_path / "w.duckdb", 200)
    assert (results, report.errors) == ([None], [f"{path}:4, session s: {said}"])
    with Ledger(tmp_path / "w.duckdb", read_only=True) as ledger:
        assert ledger.query("SELECT count(*) FROM events") == [(0,)]


#: The warning of line 4 raising Bob's buy-in to 150, `entry amend s 3 150`'s own
RAISED = ("{path}:4, session s: entry 3 (buy-in of Bob, 150 chips): hand x1 seats Bob with "
          "100 chips, but Bob's buy-ins there come to 150: expected 150 (-50); the books no "
          "longer follow the hands' stacks, and the audit's stack_continuity will name it; a "
          "wrong amount is amended again (`handledger entry amend s 3 100 --reason … --by …`)")


@pytest.mark.parametrize(("extra", "bob_bought", "warned"), [
    ([_fix_row(4, 3, 40), _bob_buys(5, 60, "rebuy")], 100, None),
    ([_fix_row(4, 3, 40), _fix_row(5, 3, 100)], 100, None),
    ([_fix_row(4, 3, None), _bob_buys(5, 100, "buy_in")], 100, None),
    ([_fix_row(4, 3, 150)], 150, RAISED),
], ids=["rebuy-before-x1", "amended-again", "retracted-and-bought", "raised"])
def test_a_files_amendment_the_hand_after_it_follows_goes_in(
        night: Path, tmp_path: Path, extra: list[str], bob_bought: int,
        warned: str | None) -> None:
    """Rows before x1 that leave Bob the 100 chips x1 seats him with (or more) as the books
    read them at x1's start: his buy-in lowered to 40 then a rebuy of 60 or amended back to
    100, retracted then bought in again for 100, raised to 150 (x1 seats him
    with less than he bought: the audit's to name, and warned of as `entry amend` warns of
    it): each goes in, with --jobs 1 and 2, and the books count Bob's buy-ins as the rows
    leave them."""
    path = _before_x1(night, tmp_path, "ok.jsonl", *extra)
    summary = f"imported 1 hand(s) ({12 + 3 + len(extra)} events) from 1 file(s); 0 already " \
              "in the ledger; 0 rejected"
    said = (summary + "\n", "") if warned is None else (
        summary + "; 1 book entry amended off the hands' stacks (a warning each)\n",
        f"warning: {warned.format(path=path)}\n")
    for jobs in ("1", "2"):
        db = tmp_path / f"ok{jobs}.duckdb"
        assert cli(db, "import", str(path), "--jobs", jobs) == (0, *said)
        code, out, _ = cli(db, "balances", "--json")
        assert (code, [(p["name"], p["buy_in"], p["net"]) for p in json.loads(out)["players"]]
                ) == (0, [("Ann", 100, 100), ("Bob", bob_bought, -100)])
