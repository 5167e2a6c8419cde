"""A hand read from a file that records no rake and whose payouts do not come to its pot (and
uncalled bet) is stored with one ``warning:`` line naming the file, line, hand, what was paid
and the pot (replay/ingest/paid.py; docs/IMPORTING.md, "Bad input"): exit 0, never refused, in every
import path. Worked by hand on data/dispute/wrong-push.phh: Ann all in for 100, Bob and Cy
put in 150 each, a pot of 400 (main 300, side 100) with nothing uncalled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replay.ingest.parallel as par
from tests.conftest import DATA, SHARED
from tests.test_import_parallel import _import, _Spy
from tests.test_live_table import one_shot

PUSH = (DATA / "dispute" / "wrong-push.phh").read_text()
STORED = "; 0 rejected; 1 warning(s) about hands stored\n"


def _hand(number: int, winnings: str) -> str:
    """wrong-push.phh as hand ``number`` (id ``dispute-N``) paying ``winnings``."""
    text = PUSH.replace("hand = 1\n", f"hand = {number}\n")
    return text.replace("winnings = [0, 400, 0]\n", f"winnings = {winnings}\n")


def _file(tmp_path: Path, name: str, text: str, *args: str) -> tuple[int, str, str, Path]:
    path = tmp_path / name
    path.write_text(text)
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", *args, str(path))
    return code, out, err, path


def test_payouts_above_the_pot_are_a_warning(tmp_path: Path) -> None:
    """Bob paid 410 of the pot of 400: stored, one warning at the hand's line (1: the file's
    comments come first), and the audit's payout findings (Ann short 300, Bob over 310)."""
    code, out, err, path = _file(tmp_path, "over.phh", _hand(7, "[0, 410, 0]"))
    assert (code, out) == (0, "imported 1 hand(s) (24 events) from 1 file(s); 0 already in "
                              f"the ledger{STORED}")
    assert err == (f"warning: {path}:1: hand dispute-7: the table paid 410 of the pot of 400: "
                   "over by 10, chips the pot did not hold (stored; the audit reports it)\n")
    code, out, _ = one_shot(tmp_path / "t.duckdb", "audit", "--json")
    assert code == 1
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("payout", "Ann", 300, 0),
                                                            ("payout", "Bob", 100, 410)]


def test_a_hand_stored_already_is_not_warned_about_again(tmp_path: Path) -> None:
    """The over-paid hand 7 imported again, plain, with --strict, with --jobs 2 and both: 1
    already, no warning (it was given when the hand was stored); then a ``.phhs`` of hand 7
    and a new hand 8 (short by 10) through --jobs 2: hand 8's warning only, at its line."""
    code, out, err, path = _file(tmp_path, "w_over.phh", _hand(7, "[0, 410, 0]"))
    assert (code, err.count("warning: ")) == (0, 1)
    for args in ((), ("--strict",), ("--jobs", "2"), ("--strict", "--jobs", "2")):
        code, out, err = one_shot(tmp_path / "t.duckdb", "import", *args, str(path))
        assert (code, out, err) == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 "
                                       "already in the ledger; 0 rejected\n", ""), args
    body = [_hand(n, w).split("variant", 1)[1] for n, w in ((7, "[0, 410, 0]"),
                                                            (8, "[300, 90, 0]"))]
    code, out, err, path = _file(tmp_path, "two.phhs", f"[1]\nvariant{body[0]}\n"
                                   f"[2]\nvariant{body[1]}", "--jobs", "2")
    assert (code, err) == (0, f"warning: {path}:23: hand dispute-8: the table paid 390 of the "
                              "pot of 400: short by 10, and the hand records no rake (stored; "
                              "the audit reports it)\n")
    assert out == ("imported 1 hand(s) (25 events) from 1 file(s); 1 already in the ledger"
                   f"{STORED}")


def test_payouts_short_of_the_pot_with_no_rake_are_a_warning(tmp_path: Path) -> None:
    """Ann 300 and Bob 90: 390 of 400, 10 paid to nobody and no rake to explain it."""
    code, out, err, path = _file(tmp_path, "short.phh", _hand(8, "[300, 90, 0]"))
    assert (code, out) == (0, "imported 1 hand(s) (25 events) from 1 file(s); 0 already in "
                              f"the ledger{STORED}")
    assert err == (f"warning: {path}:1: hand dispute-8: the table paid 390 of the pot of 400: "
                   "short by 10, and the hand records no rake (stored; the audit reports it)\n")


def test_a_pot_paid_in_full_to_the_wrong_player_says_nothing_on_import(tmp_path: Path) -> None:
    """The dispute itself (all 400 to Bob) adds up: no warning (the audit names it)."""
    code, out, err, _ = _file(tmp_path, "push.phh", PUSH)
    assert (code, err) == (0, "")
    assert out.endswith("; 0 rejected\n")


def test_worker_processes_and_json_lines_warn_alike(tmp_path: Path) -> None:
    """A ``.phhs`` of the two hands through ``--jobs 2`` (its part goes to the one-process
    import, which words the warnings), then the ledger's JSON-lines export imported into
    new ledgers, in one process and with ``--jobs 2``: the same two warnings each time, at
    the hand's line of each file."""
    body = [_hand(n, w).split("variant", 1)[1] for n, w in ((7, "[0, 410, 0]"),
                                                            (8, "[300, 90, 0]"))]
    code, out, err, path = _file(tmp_path, "two.phhs", f"[1]\nvariant{body[0]}\n"
                                   f"[2]\nvariant{body[1]}", "--jobs", "2")
    over = ("hand dispute-7: the table paid 410 of the pot of 400: over by 10, chips the pot "
            "did not hold (stored; the audit reports it)\n")
    short = ("hand dispute-8: the table paid 390 of the pot of 400: short by 10, and the hand "
             "records no rake (stored; the audit reports it)\n")
    assert (code, err) == (0, f"warning: {path}:1: {over}warning: {path}:23: {short}")
    assert out.endswith("; 0 rejected; 2 warning(s) about hands stored\n")
    lines = tmp_path / "two.jsonl"
    assert one_shot(tmp_path / "t.duckdb", "export", "--format", "jsonl", "-o",
                    str(lines))[0] == 0
    for n, jobs in enumerate(("1", "2")):
        code, out, err = one_shot(tmp_path / f"j{n}.duckdb", "import", "--jobs", jobs,
                                  str(lines))
        assert (code, err) == (0, f"warning: {lines}:1: {over}warning: {lines}:25: {short}")
        assert out == ("imported 2 hand(s) (49 events) from 1 file(s); 0 already in the "
                       "ledger; 0 rejected; 2 warning(s) about hands stored\n")


def test_a_site_hand_with_a_rake_of_0_says_what_was_paid(tmp_path: Path) -> None:
    """The first hand of the PokerStars sit-and-go (blinds 10/20, all fold to the big blind:
    a pot of 20 and his uncalled 10, summary ``Rake 0``) with 30 collected instead of 20:
    40 paid of the 30 owed."""
    text = (SHARED / "text" / "Stars-tour-NLHE-USD-STT-20-201006.DONturbo.txt").read_text(
        encoding="utf-8-sig").split("\n\n\n")[0]
    assert "Player3 collected 20 from pot" in text
    code, out, err, path = _file(tmp_path, "ps.txt", text.replace(
        "Player3 collected 20 from pot", "Player3 collected 30 from pot") + "\n")
    assert (code, err) == (0, f"warning: {path}:1: hand PokerStars-62678213223: of the 30 "
                              "due (the pot 20 and the uncalled bet 10), the table paid 40: 10 "
                              "over, chips the pot did not hold (stored; the audit reports it)\n")


def test_the_workers_keep_a_warned_hand_and_word_it_as_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers take a file whose hands are stored with a warning (a part no longer goes
    to the one-process import for it): the same rows, the same warnings in file order, for
    a ``.phhs`` and for its JSON-lines export, each cut into parts between the hands."""
    body = [_hand(n, w).split("variant", 1)[1]
            for n, w in ((7, "[0, 410, 0]"), (8, "[300, 90, 0]"), (9, "[300, 100, 0]"))]
    phhs = tmp_path / "three.phhs"
    phhs.write_text("".join(f"[{n}]\nvariant{b}\n" for n, b in enumerate(body, 1)))
    monkeypatch.setattr(par, "PHHS_PART_BYTES", 300)
    monkeypatch.setattr(par, "PART_BYTES", 3_000)
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", [phhs], jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", [phhs], jobs=2)
    assert len(spy.results) == 1 and spy.results[0] is not None  # the workers did it
    assert two.warnings == one.warnings == [
        f"{phhs}:1: hand dispute-7: the table paid 410 of the pot of 400: over by 10, chips the "
        "pot did not hold (stored; the audit reports it)",
        f"{phhs}:23: hand dispute-8: the table paid 390 of the pot of 400: short by 10, and the "
        "hand records no rake (stored; the audit reports it)"]
    assert two.summary() == one.summary() and rows_two == rows_one
    lines = tmp_path / "three.jsonl"
    assert one_shot(tmp_path / "one.duckdb", "export", "--format", "jsonl", "-o",
                    str(lines))[0] == 0
    one, rows_one = _import(tmp_path / "j1.duckdb", [lines], jobs=1)
    two, rows_two = _import(tmp_path / "j2.duckdb", [lines], jobs=2)
    assert len(spy.results) == 2 and spy.results[1] is not None
    assert [w.split(": the table")[0] for w in two.warnings] == [
        f"{lines}:1: hand dispute-7", f"{lines}:25: hand dispute-8"]
    assert two.warnings == one.warnings and rows_two == rows_one


def test_a_hand_with_an_uncalled_bet_says_what_was_due_then_what_was_paid(
        tmp_path: Path) -> None:
    """The HandHQ 1000NL excerpt leaves the rake out: three hands whose winner is paid his
    uncalled bet back and the pot less the site's rake. Said as the pot and the bet due, then
    what was paid (it read "paid 33.75 of the pot of 25.00", as if paid beyond the pot):
    25.00 + 10.00 = 35.00, 1.25 short of it; 45.00 + 30.00 = 75.00, 2.25 short; 55.00 +
    25.00 = 80.00, 2.75 short."""
    path = SHARED / "phh" / "handhq" / "ps-1000nl-excerpt.phhs"
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", str(path))
    assert (code, out) == (0, "imported 21 hand(s) (396 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 3 warning(s) about hands stored\n")
    assert err.splitlines() == [
        f"warning: {path}:{line}: hand PokerStars-{hand}: of the {due} due (the pot {pot} and "
        f"the uncalled bet {bet}), the table paid {paid}: {short} short, and the hand records "
        "no rake (stored; the audit reports it)"
        for line, hand, due, pot, bet, paid, short in (
            (77, 59937825268, "35.00", "25.00", "10.00", "33.75", "1.25"),
            (105, 59937829334, "75.00", "45.00", "30.00", "72.75", "2.25"),
            (230, 59937863276, "80.00", "55.00", "25.00", "77.25", "2.75"))]
