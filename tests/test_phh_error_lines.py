"""Every PHH reader error names the file and the line (and the hand and action where there is
one), as a user sees it at ``handledger import``: a file cut short (tomllib says "at end of
document", no line) is at its last line; a negative amount in an action at the action's line."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA

HAND = (DATA / "dispute" / "wrong-push.phh").read_text(encoding="utf-8")
SUMMARY = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def test_a_phh_file_cut_short_is_at_its_last_line(user, tmp_path: Path) -> None:  # noqa: ANN001
    cut = HAND[: HAND.index("'d db Td'") + len("'d d")]  # mid-string, in the actions
    path = tmp_path / "cut.phh"
    path.write_text(cut, encoding="utf-8")
    assert cut.count("\n") + 1 == 19  # the line of 'd db Td'
    assert user("import", str(path)) == (
        2, SUMMARY, f"error: {path}:19: bad TOML: Expected \"'\" (at end of document); the "
        "file ends there, line 19 cut off (no newline at its end): a file cut short? import "
        "the whole file\n")


def test_a_phhs_section_cut_short_is_at_its_last_line(user, tmp_path: Path) -> None:  # noqa: ANN001
    body = "".join(line + "\n" for line in HAND.splitlines() if not line.startswith("#"))
    second = body.replace("hand = 1", "hand = 2")
    second = second[: second.index("players")] + "players = ['Ann', "
    path = tmp_path / "cut.phhs"
    path.write_text(f"[1]\n{body}\n[2]\n{second}", encoding="utf-8")
    code, out, err = user("import", str(path))
    # [1] and its 20 lines, a blank line, [2] at line 23, its players line (cut) at line 31
    assert (code, err) == (2, f"error: {path}:31: [2] bad TOML: Invalid value (at end of "
                              "document); the file ends there, line 31 cut off (no newline at "
                              "its end): a file cut short? import the whole file\n")
    assert out == "imported 1 hand(s) (24 events) from 1 file(s); 0 already in the ledger; " \
                  "1 rejected\n"


def test_a_negative_amount_in_an_action_names_file_line_hand_action(user,  # noqa: ANN001
                                                                     tmp_path: Path) -> None:
    path = tmp_path / "neg.phh"
    path.write_text(HAND.replace("'p2 cbr 50'", "'p2 cbr -50'"), encoding="utf-8")
    assert user("import", str(path)) == (
        2, SUMMARY, f"error: {path}:18, hand dispute-1, action 'p2 cbr -50': '-50' is not a "
        "valid amount in this hand's units\n")


def test_a_negative_bet_in_a_hand_without_an_id_names_line_and_action(user,  # noqa: ANN001
                                                                       tmp_path: Path) -> None:
    """A hand with no ``hand`` key is named by a digest of its actions: a negative bet there
    was refused while making it, with neither line nor action."""
    body = "".join(line + "\n" for line in HAND.splitlines()
                   if not line.startswith(("hand ", "#")))
    assert "hand = " not in body
    path = tmp_path / "neg.phh"
    path.write_text(body.replace("'p2 cbr 50'", "'p2 cbr -50'"), encoding="utf-8")
    # without its 5 comment lines and its hand line, 'p2 cbr 50' is on line 18 - 6 = 12; the
    # hand is named by the digest of its start and actions as written ('p2 cbr -50')
    assert user("import", str(path)) == (
        2, SUMMARY, f"error: {path}:12, hand phh-0c75aedffb6f, action 'p2 cbr -50': '-50' is "
        "not a valid amount in this hand's units\n")


def test_two_hands_in_one_phh_file_are_said_to_be_two(user, tmp_path: Path) -> None:  # noqa: ANN001
    """``cat a.phh b.phh``: tomllib refuses the second hand's ``variant`` (line 31, the first
    hand's 25 lines and the second's 5 comment lines before it) as a value set twice; the
    line says what the file likely is. A key of one's own set twice is said as tomllib says
    it."""
    path = tmp_path / "two.phh"
    path.write_text(HAND + HAND, encoding="utf-8")
    assert user("import", str(path)) == (
        2, SUMMARY, f"error: {path}:31: bad TOML: Cannot overwrite a value (at line 31, column "
        "15) (two hands in one .phh? a file of several hands is a .phhs, each hand under its "
        "own [N] header)\n")
    path.write_text(HAND + "_note = 'a'\n_note = 'b'\n", encoding="utf-8")
    assert user("import", str(path)) == (
        2, SUMMARY, f"error: {path}:27: bad TOML: Cannot overwrite a value (at line 27, column "
        "12)\n")
