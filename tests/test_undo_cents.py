"""``undo`` of an action in a hand kept in cents (a JSON-lines export taken while it was
played, README "A hand kept in dollars and cents, played live") names the action in the
hand's unit, as ``show`` writes it (``Ann cbr 5.00``, never its 500 cents), and so do the
reason it records and ``history``'s words for its changes."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_cents import _exported


def test_undo_in_a_hand_kept_in_cents_names_the_action_in_dollars(  # noqa: ANN001
        run, db: str, tmp_path: Path) -> None:
    dealt = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy QsQh")
    path = _exported(tmp_path, "c2", "Ann:7300,Bob:10000,Cy:10000", "50/100", dealt)
    assert run("import", str(path)).exit_code == 0
    out = run("act", "c2", "Ann cbr 5.00")
    assert out.output == "7 bet_raise; Bob to act: to call 4.50, raise to 9.00..100.00\n"
    assert run("show", "c2").output.splitlines()[7].startswith("  7 Ann cbr 5.00 ")
    out = run("undo", "c2", "--by", "host")
    assert (out.exit_code, out.output) == (0, (
        "undid seq 7 (bet_raise Ann 5.00) in hand c2 (seq 8); change in net: Ann +500; by the "
        "rules: "
        "Ann +500\n  (nets in the hand's smallest unit, 100 = 1.00; actions as its notation "
        "writes them)\n"))
    out = run("correct", "c2", "--by", "host", "--reason", "the raise was 6",
              "--insert-after", "6", "Ann cbr 6.00")
    assert out.exit_code == 0, out.output
    # seq, position and time, then the words
    tail = [line.split(maxsplit=3)[-1] if line.startswith("    ") and line[4] != " "
            else line.strip() for line in run("history", "c2").output.splitlines()[-4:]]
    assert tail == [
        "correction by host: undo of seq 7 (bet_raise Ann 5.00)",
        "delete seq 7 (seq 7 was: bet_raise Ann 5.00)",
        "correction by host: the raise was 6",
        "insert_after seq 6 bet_raise Ann 6.00 (seq 6 after: cards_dealt Cy QsQh)"]

