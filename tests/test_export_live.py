"""A JSON-lines export taken while a hand is in play round-trips: the hand comes back in play,
as far as it was played, and `act` goes on with it; the file's closing line proves it is such
an export (ledger.formats.jsonl.lines), so a file cut short is still refused."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import one_shot as cli

SEATS = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150", "--button", "Ann")


def played(db: Path, *actions: str) -> None:
    assert cli(db, "hand", "start", "--hand", "L1", *SEATS)[0] == 0
    for action in actions:
        assert cli(db, "act", "L1", action)[0] == 0, action


def test_a_hand_in_play_comes_back_in_play_and_goes_on(tmp_path: Path) -> None:
    first, second, file = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "L.jsonl"
    played(first, "d dh Ann AsKs")
    code, _, err = cli(first, "export", "--format", "jsonl", "-o", str(file))
    assert code == 0 and "1 hand(s) still in play" in err and "L1 (to seq 4)" in err
    text = file.read_text()
    assert text.splitlines()[-1] == '{"in_play":{"L1":4},"rows":4}'
    code, _, err = cli(first, "export", "--format", "phh")  # PHH cannot keep it in play: said
    assert code == 0 and "importing it ends them incomplete" in err and err.endswith(": L1\n")
    assert cli(second, "import", str(file))[:2] == (
        0,
        "imported 1 hand(s) (4 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
    )
    assert cli(second, "export", "--format", "jsonl")[1] == text  # the same events back
    assert cli(second, "import", str(file))[1].startswith("imported 0 hand(s) (0 events)")
    assert "next: d dh Bob CARDS" in cli(second, "state", "L1")[1]
    for action in ("d dh Bob QhQd", "Ann f", "end"):
        assert cli(second, "act", "L1", action)[0] == 0
    # Ann folds her small blind: Bob takes the 3 chips, 1 of them his own
    code, out, _ = cli(
        second,
        "sql",
        "--csv",
        "SELECT player, net FROM results WHERE hand_id = 'L1' ORDER BY player",
    )
    assert (code, out) == (0, "player,net\nAnn,-1\nBob,1\n")
    assert "in_play" not in cli(second, "export", "--format", "jsonl")[1]


def test_a_hand_in_play_with_an_undo_round_trips(tmp_path: Path) -> None:
    first, second, file = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "L.jsonl"
    played(first, "d dh Ann AsKs", "d dh Bob QhQd", "Ann cbr 6", "Bob f")
    assert cli(first, "undo", "L1", "--by", "Ann")[0] == 0  # the fold taken back: Bob to act
    assert cli(first, "export", "--format", "jsonl", "-o", str(file))[0] == 0
    text = file.read_text()
    assert text.splitlines()[-1] == '{"in_play":{"L1":8},"rows":8}'
    assert cli(second, "import", str(file))[0] == 0
    assert cli(second, "export", "--format", "jsonl")[1] == text
    state = cli(second, "state", "L1")[1]
    assert state == cli(first, "state", "L1")[1] and "Bob to act: to call 4" in state
    assert cli(second, "act", "L1", "Bob cc")[1].startswith("9 call; phase deal")


def test_a_cut_file_is_still_refused(tmp_path: Path) -> None:
    first, file = tmp_path / "a.duckdb", tmp_path / "L.jsonl"
    played(first, "d dh Ann AsKs", "d dh Bob QhQd", "Ann f", "end")
    assert cli(first, "export", "--format", "jsonl", "-o", str(file))[0] == 0
    whole = file.read_text().splitlines(keepends=True)
    assert len(whole) == 7 and "in_play" not in whole[-1]  # an ended hand: no closing line
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(whole[:4]))
    code, _, err = cli(tmp_path / "b.duckdb", "import", str(cut))
    assert (
        code == 2
        and (
            "cut.jsonl:4, hand L1, action 'cards_dealt by Ann': the hand stops before its "
            "end (no hand_ended): is the file cut?"
        )
        in err
    )
    # a closing line that does not count the lines before it, or that names the hand at
    # another seq than the file has, proves nothing: refused, nothing written
    for closing, says in (
        ('{"in_play":{"L1":4},"rows":5}', "counts 5 lines before it, the file has 4"),
        (
            '{"in_play":{"L1":5},"rows":4}',
            "names the hand in play at seq 5, but the file has it to seq 4",
        ),
    ):
        cut.write_text("".join(whole[:4]) + closing + "\n")
        code, _, err = cli(tmp_path / "c.duckdb", "import", str(cut))
        assert code == 2 and says in err, err
    assert (
        not (tmp_path / "c.duckdb").exists()
        or cli(tmp_path / "c.duckdb", "sql", "--csv", "SELECT count(*) AS n FROM events")[1]
        == "n\n0\n"
    )


def test_a_later_export_brings_the_rest_of_a_hand_stored_in_play(tmp_path: Path) -> None:
    first, early, late = tmp_path / "a.duckdb", tmp_path / "early.jsonl", tmp_path / "late.jsonl"
    played(first, "d dh Ann AsKs")
    assert cli(first, "export", "--format", "jsonl", "-o", str(early))[0] == 0
    for action in ("d dh Bob QhQd", "Ann f", "end"):
        assert cli(first, "act", "L1", action)[0] == 0
    assert cli(first, "export", "--format", "jsonl", "-o", str(late))[0] == 0
    second, third = tmp_path / "b.duckdb", tmp_path / "c.duckdb"
    assert cli(second, "import", str(early))[0] == 0
    assert cli(second, "import", str(late))[:2] == (
        0,
        "imported 1 hand(s) (3 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
    )  # seq 5 to 7, as `act` appended them
    assert cli(second, "export", "--format", "jsonl")[1] == late.read_text()
    assert cli(second, "verify")[0] == 0
    # the earlier export into a ledger where the hand went on: known, nothing written
    assert cli(third, "import", str(late))[0] == 0
    assert cli(third, "import", str(early))[:2] == (
        0,
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n",
    )


def test_an_export_that_cannot_be_written_says_only_why(tmp_path: Path) -> None:
    """The note naming the hands in play came before the refusal of a path that cannot be
    written: two lines for one refused command."""
    db = tmp_path / "a.duckdb"
    played(db, "d dh Ann AsKs")
    code, out, err = cli(db, "export", "--format", "jsonl", "-o", str(tmp_path / "no" / "x"))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("error: ")


def test_a_hand_named_twice_is_exported_once(tmp_path: Path) -> None:
    db, file = tmp_path / "a.duckdb", tmp_path / "L.jsonl"
    played(db, "d dh Ann AsKs")
    once = cli(db, "export", "--format", "jsonl", "L1")[1]
    assert cli(db, "export", "--format", "jsonl", "L1", "L1")[1] == once
    assert once.splitlines()[-1] == '{"in_play":{"L1":4},"rows":4}'  # 4 rows, not 8
    assert cli(db, "export", "--format", "phh", "L1", "L1")[1].count("_hand_id") == 1
    assert cli(db, "export", "--format", "jsonl", "-o", str(file), "L1", "L1")[0] == 0
    assert cli(tmp_path / "b.duckdb", "import", str(file))[1].startswith(
        "imported 1 hand(s) (4 events)")
