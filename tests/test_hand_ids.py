"""A hand id is typed back to every command (``act HAND``, ``show HAND``) and printed in every
line about the hand: ``hand start --hand`` and an imported file refuse one that could not be
(a newline, which split the notes of ``balances`` and ``audit`` over two lines; a terminal
escape, printed raw; a leading space or ``-``, which the command line drops or reads as an
option), in one line, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.store.store import Ledger
from tests.test_books_refusals import refused, rows

START = ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100",
         "--button", "Ann")


def test_hand_start_refuses_an_id_that_cannot_be_typed_back(run, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    before = rows(Path(db))
    for hand, line in (
            ("h\n2", "hand id 'h\\n2' holds a control character (U+000A): an id is one line "
                     "of printable text"),
            ("h\x1b[31mred", "hand id 'h\\x1b[31mred' holds a control character (U+001B): an "
                             "id is one line of printable text"),
            ("h\u200b1", "hand id 'h\\u200b1' holds an invisible format character (U+200B): "
                         "an id is one line of printable text"),
            (" h3", "hand id ' h3' has leading or trailing whitespace: ids are kept as typed, "
                    "never repaired (write 'h3')"),
            ("-h4", "hand id '-h4' starts with '-': a command would read it as an option "
                    "(`handledger act HAND ...`); give another id")):
        assert refused(run(*START, "--hand", hand)) == f"error: {line}", hand
    assert rows(Path(db)) == before
    # an id with a space inside is typed back quoted: it goes in
    out = run(*START, "--hand", "table 2 #1")
    assert (out.exit_code, out.output) == (0, "table 2 #1\n")
    assert rows(Path(db)) == [("table 2 #1", 1, "hand_started"), ("table 2 #1", 2, "forced_bet"),
                              ("table 2 #1", 3, "forced_bet")]


def test_an_imported_hand_whose_id_cannot_be_typed_back_is_refused(run, db: str,  # noqa: ANN001
                                                                    tmp_path: Path) -> None:
    """A JSON-lines file of two hands, the first under an id holding an escape and a
    newline: it is refused naming file, line and hand; the second goes in."""
    assert run(*START, "--hand", "a1").exit_code == 0
    for action in ("d dh Bob AsAd", "d dh Ann ????", "Ann f", "end"):
        assert run("act", "a1", action).exit_code == 0, action
    export = tmp_path / "a1.jsonl"
    assert run("export", "--format", "jsonl", "a1", "-o", str(export)).exit_code == 0
    good = export.read_text(encoding="utf-8").splitlines()
    assert len(good) == 7
    bad = [json.dumps({**row, "hand": "x\x1b[31m\nz",
                       "event": {**row["event"], **({"hand": "x\x1b[31m\nz"}
                                                    if "hand" in row["event"] else {})}})
           for row in map(json.loads, good)]
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(bad + good) + "\n", encoding="utf-8")
    fresh = tmp_path / "fresh.duckdb"
    out = run("--db", str(fresh), "import", str(path))
    assert out.exit_code == 2, out.output
    assert out.output.splitlines() == [
        f"error: {path}:1, hand x z: hand id 'x\\x1b[31m\\nz' holds a control character "
        "(U+001B): an id is one line of printable text",
        "imported 1 hand(s) (7 events) from 1 file(s); 0 already in the ledger; 1 rejected"]
    assert {stream for stream, _, _ in rows(fresh)} == {"a1"}


def test_a_hand_named_in_another_case_says_which_hand_it_meant(run, db: str) -> None:  # noqa: ANN001
    """``act U1`` for hand u1 said only that the ledger holds no hand 'U1'."""
    assert run(*START, "--hand", "u1").exit_code == 0
    assert run(*START[:-3], "Cy:100,Dee:100", "--button", "Cy", "--hand", "U-1"
               ).exit_code == 0  # other players: Ann and Bob are in play in u1
    before = rows(Path(db))
    for args in (("act", "U1", "Ann f"), ("state", "U1"), ("show", "U1"), ("history", "U1"),
                 ("undo", "U1", "--by", "host")):
        assert refused(run(*args)) == (f"error: hand U1: ledger {db} holds no such hand: "
                                       "did you mean 'u1'?"), args
    assert refused(run("act", "u-1", "end")) == (
        f"error: hand u-1: ledger {db} holds no such hand: did you mean 'U-1'?")
    assert refused(run("state", "u2")) == f"error: hand u2: ledger {db} holds no such hand"
    for args in (("view", "u2"), ("replay", "--hand", "u2"), ("whatif", "u2", "--delete", "3"),
                 ("correct", "u2", "--delete", "3", "--reason", "r", "--by", "host"),
                 ("export", "--format", "jsonl", "u2")):  # one wording, naming the file
        assert refused(run(*args)) == f"error: hand u2: ledger {db} holds no such hand", args
    assert rows(Path(db)) == before


def test_a_game_code_in_lower_case_says_the_code_it_meant(run, db: str) -> None:  # noqa: ANN001
    """``--game nt`` listed every code and game without saying which one it meant."""
    Ledger(db).close()
    before = rows(Path(db))
    line = refused(run("hand", "start", "--game", "nt", *START[4:]))
    assert line.startswith("error: unknown variant 'nt': did you mean 'NT'? a code is N "
                           "(no-limit), P (pot-limit) or F (fixed-limit) and a game: T Texas "
                           "hold'em, "), line
    assert refused(run("hand", "start", "--game", "fo/8", *START[4:])).startswith(
        "error: unknown variant 'fo/8': did you mean 'FO/8'? a code is")
    # a code with no game in any case names none
    assert refused(run("hand", "start", "--game", "NLHE", *START[4:])).startswith(
        "error: unknown variant 'NLHE': a code is N (no-limit)")
    assert rows(Path(db)) == before
