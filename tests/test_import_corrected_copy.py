"""An edited copy of a corrected hand is refused naming its difference from the hand as its
corrections make it (docs/FORMATS-IMPORT.md, "Formats": "as its corrections make it, the table paid
otherwise: …"), never a row a correction or an undo replaced; the copy equal to the corrected
hand (its PHH export) is already in the ledger."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import events, one_shot

KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
REJECTED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
HINT = "a change to a stored hand is a correction (`handledger correct {} ...`)"
CHECKS = ("Bob cc", "Ann cc")


def _play(db: Path, hand: str, start: tuple[str, ...], actions: tuple[str, ...]) -> None:
    assert one_shot(db, "hand", "start", "--hand", hand, "--stakes", "1/2", "--seats",
                    "Ann:100,Bob:100", "--button", "Ann", *start)[0] == 0
    for action in actions:
        assert one_shot(db, "act", hand, action)[0] == 0, action


def _holdem(db: Path, hand: str, flop: str) -> None:
    """Ann's aces and Bob's kings checked down on ``flop``, 9c, Jd (a pot of 4): the table
    pays Bob 4."""
    _play(db, hand, ("--game", "NT"), (
        "d dh Ann AsAd", "d dh Bob KsKh", "Ann cc", "Bob cc", f"d db {flop}", *CHECKS,
        "d db 9c", *CHECKS, "d db Jd", *CHECKS, "Ann sm AsAd", "Bob sm KsKh", "pay Bob 4",
        "end"))


def _refused(db: Path, path: Path, text: str) -> str:
    before = events(db)
    path.write_text(text, encoding="utf-8")
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (2, REJECTED)
    assert events(db) == before
    assert err.count("\n") == 1
    return err


def _phh(db: Path, hand: str, path: Path) -> str:
    assert one_shot(db, "export", "--format", "phh", "-o", str(path), hand)[0] == 0
    assert one_shot(db, "import", str(path)) == (0, KNOWN, "")  # the hand as corrected
    return path.read_text(encoding="utf-8")


def test_a_copy_of_a_payout_corrected_hand_names_the_chips_as_corrected(tmp_path: Path) -> None:
    """Ann's aces win the pot of 4 that the table pushed to Bob; corrected to Ann 4, Bob 0.
    A copy paying Bob 3 and Ann 1 differs from that, not from the 4 paid Bob at first."""
    db = tmp_path / "p.duckdb"
    _holdem(db, "p1", "2c3d4h")
    assert one_shot(db, "correct", "p1", "--replace", "19", "pay Ann 4", "--reason",
                    "pushed to Bob", "--by", "host")[0] == 0
    text = _phh(db, "p1", tmp_path / "p1.phh")
    assert "winnings = [0, 4]\n" in text  # Bob, Ann: PHH's seat order
    err = _refused(db, tmp_path / "p1b.phh", text.replace("[0, 4]", "[3, 1]"))
    assert err == (f"error: {tmp_path / 'p1b.phh'}:1, hand p1: a different hand p1 is already "
                   "in the ledger: as its corrections make it, the table paid otherwise: Bob 3 "
                   f"here, 0 in the ledger, Ann 1 here, 4 in the ledger; {HINT.format('p1')}\n")
    # a JSON-lines copy of the original events, Bob's payout edited: the line of that payout
    code, jsonl, _ = one_shot(db, "export", "--format", "jsonl", "p1")
    assert code == 0
    lines = [line for line in jsonl.splitlines() if '"correction"' not in line]
    assert '"amount":4,"player":"Bob"' in lines[18]
    lines[18] = lines[18].replace('"amount":4,"player":"Bob"', '"amount":3,"player":"Bob"')
    err = _refused(db, tmp_path / "p1c.jsonl", "\n".join(lines) + "\n")
    assert err == (f"error: {tmp_path / 'p1c.jsonl'}:19, hand p1: a different hand p1 is "
                   "already in the ledger: as its corrections make it, the table paid "
                   "otherwise: Bob 3 here, 0 in the ledger, Ann 0 here, 4 in the ledger; "
                   f"{HINT.format('p1')}\n")


def test_a_copy_of_a_card_corrected_hand_names_its_payouts_not_the_card(tmp_path: Path) -> None:
    """The flop's Kd corrected to Kc (Bob's kings make trips either way: Bob 4). A copy that
    differs in its winnings only names them; one with another flop card names that card
    against Kc, by its seq."""
    db = tmp_path / "c.duckdb"
    _holdem(db, "c1", "2c3dKd")
    assert one_shot(db, "correct", "c1", "--replace", "8", "d db 2c3dKc", "--reason",
                    "flop misread", "--by", "host")[0] == 0
    text = _phh(db, "c1", tmp_path / "c1.phh")
    assert "'d db 2c3dKc'" in text and "winnings = [4, 0]\n" in text
    err = _refused(db, tmp_path / "c1b.phh", text.replace("[4, 0]", "[3, 1]"))
    assert err == (f"error: {tmp_path / 'c1b.phh'}:1, hand c1: a different hand c1 is already "
                   "in the ledger: as its corrections make it, the table paid otherwise: Bob 3 "
                   f"here, 4 in the ledger, Ann 1 here, 0 in the ledger; {HINT.format('c1')}\n")
    err = _refused(db, tmp_path / "c1c.phh", text.replace("2c3dKc", "2c3dQc"))
    assert err == (f"error: {tmp_path / 'c1c.phh'}:1, hand c1: a different hand c1 is already "
                   "in the ledger: as its corrections make it, its event 8 is cards_dealt "
                   '{"cards":["2c","3d","Qc"],"face_up":[],"player":null,"run":… here, '
                   'cards_dealt {"cards":["2c","3d","Kc"],"face_up":[],"player":null,"run":… '
                   f"in the ledger; {HINT.format('c1')}\n")


def test_a_copy_of_a_hand_whose_declaration_was_undone_names_its_payouts(tmp_path: Path
                                                                          ) -> None:
    """Ann declares high, that is undone, she declares low and Bob high; the table splits
    the pot of 4, 2 each. A copy paying Bob 3 and Ann 1 names the chips, not the undone
    declaration."""
    db = tmp_path / "u.duckdb"
    _play(db, "u1", ("--game", "FO/8", "--small-bet", "2", "--big-bet", "4",
                     "--declare-options", "method=simultaneous"), (
        "d dh Bob KsKhQsQh", "d dh Ann 2c3d4h5s", "Ann cc", "Bob cc", "d db 6c7d9h",
        *CHECKS, "d db Tc", *CHECKS, "d db Jd", *CHECKS, "Ann dcl high"))
    assert one_shot(db, "undo", "u1", "--by", "host")[0] == 0
    for action in ("Ann dcl low", "Bob dcl high", "pay Bob 2", "pay Ann 2", "end"):
        assert one_shot(db, "act", "u1", action)[0] == 0, action
    text = _phh(db, "u1", tmp_path / "u1.phh")
    assert "'p2 dcl low'" in text and "winnings = [2, 2]\n" in text
    err = _refused(db, tmp_path / "u1b.phh", text.replace("[2, 2]", "[3, 1]"))
    assert err == (f"error: {tmp_path / 'u1b.phh'}:1, hand u1: a different hand u1 is already "
                   "in the ledger: as its corrections make it, the table paid otherwise: Bob 3 "
                   f"here, 2 in the ledger, Ann 1 here, 2 in the ledger; {HINT.format('u1')}\n")


def test_an_edited_copy_of_an_uncorrected_hand_names_the_chips_too(tmp_path: Path) -> None:
    """No correction: the table's 4 to Bob stands. A PHH copy paying Bob 3 and Ann 1, and a
    JSON-lines copy whose payout to Bob says 3, are refused naming the chips each player was
    paid, in the words of a corrected hand's copy (not the raw payout row); one with another
    river card names that card by its seq."""
    db = tmp_path / "n.duckdb"
    _holdem(db, "n1", "2c3d4h")
    text = _phh(db, "n1", tmp_path / "n1.phh")
    assert "winnings = [4, 0]\n" in text  # Bob, Ann: PHH's seat order
    err = _refused(db, tmp_path / "n1b.phh", text.replace("[4, 0]", "[3, 1]"))
    assert err == (f"error: {tmp_path / 'n1b.phh'}:1, hand n1: a different hand n1 is already "
                   "in the ledger: the table paid otherwise: Bob 3 here, 4 in the ledger, Ann 1 "
                   f"here, 0 in the ledger; {HINT.format('n1')}\n")
    err = _refused(db, tmp_path / "n1c.phh", text.replace("'d db Jd'", "'d db Jh'"))
    assert err == (f"error: {tmp_path / 'n1c.phh'}:1, hand n1: a different hand n1 is already "
                   "in the ledger: its event 14 is cards_dealt "
                   '{"cards":["Jh"],"face_up":[],"player":null,"run":1} here, cards_dealt '
                   '{"cards":["Jd"],"face_up":[],"player":null,"run":1} in the ledger; '
                   f"{HINT.format('n1')}\n")
    code, jsonl, _ = one_shot(db, "export", "--format", "jsonl", "n1")
    assert code == 0
    lines = jsonl.splitlines()
    assert '"amount":4,"player":"Bob"' in lines[18]
    lines[18] = lines[18].replace('"amount":4,"player":"Bob"', '"amount":3,"player":"Bob"')
    err = _refused(db, tmp_path / "n1d.jsonl", "\n".join(lines) + "\n")
    assert err == (f"error: {tmp_path / 'n1d.jsonl'}:19, hand n1: a different hand n1 is "
                   "already in the ledger: the table paid otherwise: Bob 3 here, 4 in the "
                   f"ledger; {HINT.format('n1')}\n")
