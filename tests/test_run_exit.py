"""``run`` is a report: it exits 0 even when hands were paid differently from the rules (the
README's first command runs it on data holding a dispute), where ``replay`` exits 1; its
``--help`` and the command line in docs/COMMANDS.md say so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA, ROOT
from tests.test_live_table import one_shot


def test_run_reports_a_dispute_with_exit_0_where_replay_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    code, out, _ = one_shot(db, "run", str(DATA / "dispute"))
    assert code == 0
    assert "1 hand(s) replayed: 1 paid differently from the rules" in out
    code, out, _ = one_shot(db, "replay")
    assert code == 1 and "1 paid differently from the rules" in out


def test_run_help_and_the_readme_say_it() -> None:
    code, out, _ = one_shot(Path("unused.duckdb"), "run", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert ("Exit 0: a report, even of hands paid differently from the rules (`replay` exits 1 "
            "on a difference, `audit` on a discrepancy)") in text
    assert ("Exit 2 when a file or hand was rejected, or the folder holds no file a format "
            "reads") in text
    readme = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(readme) if line.startswith("run DIR [--all]"))
    entry = [readme[at]]  # run's entry: its line and the indented lines under it
    entry += readme[at + 1:][:next(
        i for i, line in enumerate(readme[at + 1:]) if not line.startswith(" "))]
    assert ("(exit 0: a report; exit 2 when a file or hand was rejected, after the report; "
            "replay exits 1 on a difference)") in " ".join(x.strip() for x in entry)


def test_run_needs_its_folder(tmp_path: Path) -> None:
    """No folder named: refused in one line naming the argument, exit 2, no ledger made (it
    never reads a folder the user did not name); ``--help`` and docs/COMMANDS.md name it DIR."""
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "run")
    assert (code, out) == (2, "")
    assert err == "error: Missing argument 'DIR'. (`handledger run -h` shows the usage)\n"
    assert not db.exists()
    assert one_shot(db, "run", "--help")[1].splitlines()[0] == (
        "Usage: handledger run [OPTIONS] DIR")


def test_run_reports_then_exits_2_on_a_rejected_file(tmp_path: Path) -> None:
    """One good PHH file (the five-card draw: Cy takes 34, Ann puts in 6, Bob 14) and one
    missing its stacks: the good hand is imported and reported, the balances printed, the
    bad file named on its line, exit 2 (the rule of docs/COMMANDS.md and --help)."""
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "good.phh").write_bytes((DATA / "hands" / "five-card-draw.phh").read_bytes())
    (folder / "bad.phh").write_text("variant = 'NT'\nplayers = ['A']\nactions = ['x']\n")
    code, out, err = one_shot(tmp_path / "a.duckdb", "run", str(folder))
    assert code == 2
    assert err == f"error: {folder / 'bad.phh'}:1: missing required key 'starting_stacks'\n"
    assert out.splitlines() == [
        "imported 1 hand(s) (24 events) from 2 file(s); 0 already in the ledger; 1 rejected",
        "1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not verifiable",
        "audit clean: 1 hand(s) in 0 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)",
        "player                  net       buy-in     cash-out  hands sessions",
        "Cy                       20            0            0      1        0",
        "Ann                      -6            0            0      1        0",
        "Bob                     -14            0            0      1        0"]


def test_run_lists_no_hand_corrected_to_the_rules(tmp_path: Path) -> None:
    """The dispute's main pot pushed to Bob, corrected to Ann 300 and Bob 100 (the rules'
    awards): ``run`` again prints no hand (it is no problem: paid as the rules give, its one
    note that it was corrected), and counts none paid differently."""
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "run", str(DATA / "dispute"))[0] == 0
    assert one_shot(db, "correct", "dispute-1", "--replace", "23", "pay Ann 300",
                    "--insert-after", "23", "pay Bob 100", "--reason", "x", "--by", "Host")[0] == 0
    code, out, _ = one_shot(db, "run", str(DATA / "dispute"))
    assert code == 0 and "dispute-1" not in out and "DISCREPANCY" not in out
    assert out.splitlines()[:3] == [
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected",
        "1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not verifiable",
        "audit clean: 1 hand(s) in 0 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)"]


def test_run_lists_no_site_hand_paid_its_pots_less_the_rake(tmp_path: Path) -> None:
    """Pot 225.32, rake 2.15, Hero paid 223.17: the pot less the rake, as the rules give."""
    from tests.conftest import SHARED

    folder = tmp_path / "text"
    folder.mkdir()
    name = "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"
    (folder / name).write_bytes((SHARED / "text" / name).read_bytes())
    code, out, _ = one_shot(tmp_path / "a.duckdb", "run", str(folder))
    assert code == 0 and "DISCREPANCY" not in out and "PokerStars-90721705235" not in out
    assert out.splitlines()[1] == (
        "1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not verifiable")


def test_run_lists_no_voided_hand_nor_one_of_no_recorded_payouts(tmp_path: Path) -> None:
    """v1 voided after its blinds (Bob 2 and Ann 1 back: net 0 each), v2 folded by Ann to
    Bob's big blind, ended with no payout recorded (Bob +1, Ann -1), both in one JSON-lines
    file: ``run`` prints neither (every chip of v1 went back, as the host meant; v2's
    payouts were not recorded, the rules' awards count: nothing is disputed), its summary
    counts none, as ``replay --problems`` (and its JSON) does; ``--all`` prints both."""
    live = tmp_path / "live.duckdb"
    seats = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann")
    for args in (("hand", "start", "--hand", "v1", *seats),
                 ("void", "v1", "--reason", "misdeal", "--by", "host"),
                 ("hand", "start", "--hand", "v2", *seats), ("act", "v2", "d dh Ann ????"),
                 ("act", "v2", "d dh Bob ????"), ("act", "v2", "Ann f"), ("act", "v2", "end")):
        assert one_shot(live, *args)[0] == 0, args
    folder = tmp_path / "night"
    folder.mkdir()
    code, out, _ = one_shot(live, "export", "--format", "jsonl", "-o", str(folder / "h.jsonl"))
    assert code == 0, out
    db = tmp_path / "a.duckdb"
    code, out, _ = one_shot(db, "run", str(folder))
    assert code == 0
    assert out.splitlines()[:2] == [
        "imported 2 hand(s) (11 events) from 1 file(s); 0 already in the ledger; 0 rejected",
        "2 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not verifiable"]
    assert [line for line in out.splitlines() if line.startswith(("hand ", "  note"))] == []
    code, out, _ = one_shot(db, "replay", "--problems")
    assert (code, out) == (0, "2 hand(s) replayed: 0 paid differently from the rules, "
                              "0 showdown(s) not verifiable\n")
    assert one_shot(db, "replay", "--problems", "--json")[:2] == (0, "")
    code, out, _ = one_shot(tmp_path / "b.duckdb", "run", "--all", str(folder))
    assert code == 0
    assert [line.split()[1] for line in out.splitlines() if line.startswith("hand ")] == [
        "v1", "v2"]
    assert "  note: voided: every contribution returned" in out.splitlines()
    assert "  note: no recorded payouts" in out.splitlines()
