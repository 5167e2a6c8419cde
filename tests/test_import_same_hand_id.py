"""Another hand under the id of a stored hand is refused whatever event differs (a bet, a
recorded payout), not only its start, naming the first event that differs: a second scorer's
conflicting record never vanishes as "already in the ledger", and a change to a stored hand
is a correction. The same hand again stays a silent no-op."""

from __future__ import annotations

from pathlib import Path

from tests.fri_night import F1_PHH, NIGHT_JSONL, hand_lines, night
from tests.test_live_table import events, one_shot

HINT = "a change to a stored hand is a correction (`handledger correct f1 ...`)"
REJECTED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def _refused(tmp_path: Path, name: str, text: str, *args: str) -> str:
    db = night(tmp_path)
    before = events(db)
    path = tmp_path / name
    path.write_text(text)
    code, out, err = one_shot(db, "import", *args, str(path))
    assert (code, out) == (2, REJECTED)
    assert events(db) == before
    return err.replace(str(path), name)


def test_a_changed_bet_is_refused_naming_the_event(tmp_path: Path) -> None:
    err = _refused(tmp_path, "mod.jsonl", NIGHT_JSONL.replace('"to":8,', '"to":10,'))
    assert err == ("error: mod.jsonl:12, hand f1: a different hand f1 is already in the ledger: "
                   'its event 8 is bet_raise {"player":"Ann","to":10} here, bet_raise '
                   f'{{"player":"Ann","to":8}} in the ledger; {HINT}\n')


def test_a_changed_recorded_payout_is_refused(tmp_path: Path) -> None:
    text = NIGHT_JSONL.replace('"amount":300,"player":"Ann"', '"amount":290,"player":"Ann"')
    err = _refused(tmp_path, "pay.jsonl", text)
    # one line: 290 of the pot of 300 would be a warning of a hand stored, and this one is not
    assert err == ("error: pay.jsonl:20, hand f1: a different hand f1 is already in the ledger: "
                   f"the table paid otherwise: Ann 290 here, 300 in the ledger; {HINT}\n")


def test_a_changed_phh_action_is_refused_and_strict_says_so(tmp_path: Path) -> None:
    err = _refused(tmp_path, "mod.phh", F1_PHH.replace("'p1 cbr 8'", "'p1 cbr 10'"),
                   "--strict")
    assert err == ("error: mod.phh:1, hand f1: a different hand f1 is already in the ledger: "
                   'its event 8 is bet_raise {"player":"Ann","to":10} here, bet_raise '
                   f'{{"player":"Ann","to":8}} in the ledger; {HINT}; --strict: nothing of '
                   "this file was written\n")


def test_the_same_hand_again_is_already_in_the_ledger(tmp_path: Path) -> None:
    db = night(tmp_path)
    before = events(db)
    for name, text in (("same.jsonl", NIGHT_JSONL), ("same.phh", F1_PHH)):
        path = tmp_path / name
        path.write_text(text)
        code, out, err = one_shot(db, "import", str(path))
        assert (code, out, err) == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 "
                                       "already in the ledger; 0 rejected\n", "")
    assert events(db) == before


def test_a_corrected_hand_exported_as_phh_is_already_in_the_ledger(tmp_path: Path) -> None:
    db = night(tmp_path)
    code, out, _ = one_shot(db, "correct", "f1", "--replace", "8", "Ann cbr 10", "--reason",
                            "second scorer", "--by", "lead")
    assert (code, out) == (0, "corrected hand f1 (seq 18); change in net: none; by the rules: "
                              "unchanged\n")
    before = events(db)
    path = tmp_path / "f1.phh"
    assert one_shot(db, "export", "--format", "phh", "f1", "-o", str(path))[0] == 0
    # the export applies the correction, in the session's money (a chip 0.25 USD: 10 chips)
    assert "'p1 cbr 2.50'" in path.read_text() and "_chip = { minor_per_chip = 25 }" in \
        path.read_text()
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out, err) == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already "
                                   "in the ledger; 0 rejected\n", "")
    other = tmp_path / "other.phh"
    other.write_text(path.read_text().replace("'p1 cbr 2.50'", "'p1 cbr 3.00'"))
    code, out, err = one_shot(db, "import", str(other))
    assert (code, out) == (2, REJECTED)
    # named against the hand as corrected (a raise to 10), not the raise to 8 it replaced
    assert err == (f"error: {other}:1, hand f1: a different hand f1 is already in the ledger: "
                   'as its corrections make it, its event 8 is bet_raise {"player":"Ann",'
                   f'"to":12}} here, bet_raise {{"player":"Ann","to":10}} in the ledger; {HINT}\n')
    assert events(db) == before


_PHHS_HAND = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
players = ['Ann', 'Bob']
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'p2 cbr {to}', 'p1 f']
winnings = [0, {won}]
hand = {n}
"""


def test_an_edited_hand_of_a_phhs_names_the_line_it_starts_on(tmp_path: Path) -> None:
    """The second hand of a ``.phhs`` (its ``[2]`` header on line 12) edited, Bob's raise to 8
    and not 6, is refused naming the file, line 12 and the hand; its first hand is known."""
    path = tmp_path / "night.phhs"
    db = tmp_path / "t.duckdb"

    def write(to: int) -> None:
        path.write_text(f"[1]\n{_PHHS_HAND.format(to=10, won=12, n=1)}\n"
                        f"[2]\n{_PHHS_HAND.format(to=to, won=to + 2, n=2)}")

    write(6)
    assert path.read_text().splitlines()[11] == "[2]"
    assert one_shot(db, "import", str(path))[:2] == (
        0, "imported 2 hand(s) (18 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n")
    before = events(db)
    write(8)
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in "
                              "the ledger; 1 rejected\n")
    assert err == (f"error: {path}:12, hand night-2: a different hand night-2 is already in "
                   'the ledger: its event 6 is bet_raise {"player":"Bob","to":8} here, '
                   'bet_raise {"player":"Bob","to":6} in the ledger; a change to a stored hand '
                   "is a correction (`handledger correct night-2 ...`)\n")
    assert events(db) == before


def _raked_night(tmp_path: Path) -> Path:
    """A ledger holding hand f1 of the night (no session) as recorded live with a rake: the
    pot is 300 (Ann's and Bob's 150 each, Cy folded), the table takes 10 (``rake 10``, a
    ``recorded_rake`` event at seq 16) and pays Ann 290."""
    lines = hand_lines(NIGHT_JSONL, "f1").replace('"session":"fri"', '"session":null')
    lines = lines.replace('{"hand":"f1","seq":17,', '{"hand":"f1","seq":18,').replace(
        '{"hand":"f1","seq":16,"event":{"amount":300,',
        '{"hand":"f1","seq":16,"event":{"amount":10,"schema_version":1,"type":"recorded_rake"'
        '}}\n{"hand":"f1","seq":17,"event":{"amount":290,')
    path = tmp_path / "raked.jsonl"
    path.write_text(lines)
    db = tmp_path / "raked.duckdb"
    assert one_shot(db, "import", str(path)) == (
        0, "imported 1 hand(s) (18 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")
    return db


def test_the_phh_export_of_a_live_rake_is_already_in_the_ledger(tmp_path: Path) -> None:
    """The export writes the ``recorded_rake`` of 10 as PHH's ``rake`` field (FORMATS.md §1):
    imported into the ledger it came from, it is that hand, the same 10 chips; a rake of 11
    (Ann paid 289), or none, in the file is a different hand, named by its rake."""
    db = _raked_night(tmp_path)
    before = events(db)
    path = tmp_path / "f1.phh"
    assert one_shot(db, "export", "--format", "phh", "f1", "-o", str(path))[0] == 0
    text = path.read_text()
    assert "\nwinnings = [290, 0, 0]\nrake = 10\n" in text
    assert one_shot(db, "import", str(path)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 "
           "rejected\n", "")
    for name, edited, here in (("r11.phh", text.replace("rake = 10", "rake = 11").replace(
            "[290, 0, 0]", "[289, 0, 0]"), "11"),
                               ("none.phh", text.replace("rake = 10\n", ""), "none")):
        other = tmp_path / name
        other.write_text(edited)
        code, out, err = one_shot(db, "import", str(other))
        assert (code, out) == (2, REJECTED)
        # without its rake, 290 of the 300 pot would be a warning of a hand stored: this one
        # is refused, in one line
        assert err == (f"error: {other}:1, hand f1: a different hand f1 is already in "
                       f"the ledger: its rake is {here} here, 10 in the ledger; {HINT}\n")
    # the payout, compared as before: Ann's 290 paid as 300 with the rake of 10, 10 more
    # than the pot (a warning of a hand stored, not said of a hand refused)
    other = tmp_path / "paid.phh"
    other.write_text(text.replace("[290, 0, 0]", "[300, 0, 0]"))
    code, out, err = one_shot(db, "import", str(other))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {other}:1, hand f1: a different hand f1 is already in the "
                   f"ledger: the table paid otherwise: Ann 300 here, 290 in the ledger; {HINT}\n")
    assert events(db) == before


def test_a_changed_live_rake_in_json_lines_is_refused_as_before(tmp_path: Path) -> None:
    """Both hold the rake as a ``recorded_rake`` event: compared as any other event."""
    db = _raked_night(tmp_path)
    lines = hand_lines(NIGHT_JSONL, "f1").replace('"session":"fri"', '"session":null')
    path = tmp_path / "rake.jsonl"
    path.write_text(lines.replace('{"hand":"f1","seq":17,', '{"hand":"f1","seq":18,').replace(
        '{"hand":"f1","seq":16,"event":{"amount":300,',
        '{"hand":"f1","seq":16,"event":{"amount":11,"schema_version":1,"type":"recorded_rake"'
        '}}\n{"hand":"f1","seq":17,"event":{"amount":289,'))
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {path}:16, hand f1: a different hand f1 is already in the ledger: "
                   'its event 16 is recorded_rake {"amount":11} here, recorded_rake '
                   f'{{"amount":10}} in the ledger; {HINT}\n')


def test_a_changed_file_rake_or_rake_rule_is_refused(tmp_path: Path) -> None:
    """Hand f1 as PHH with the table's rake of 10 (Ann paid 290 of the 300 pot), no session:
    the same file again is already in the ledger; the same hand with a rake of 11 (Ann paid
    289), or with a rake rule added, changes what the books count (replay/rake.py reads
    both), and is refused naming it."""
    db = tmp_path / "r.duckdb"
    text = F1_PHH.replace("_session = 'fri'\n", "").replace(
        "winnings = [300, 0, 0]\n", "winnings = [290, 0, 0]\nrake = 10\n")
    path = tmp_path / "f1.phh"
    path.write_text(text)
    assert one_shot(db, "import", str(path)) == (
        0, "imported 1 hand(s) (17 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")
    before = events(db)
    assert one_shot(db, "import", str(path)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 "
           "rejected\n", "")
    for name, edited, differ in (
            ("r11.phh", text.replace("rake = 10", "rake = 11").replace("[290, 0, 0]",
                                                                       "[289, 0, 0]"),
             "its rake is 11 here, 10"),
            ("rule.phh", text + "_rake = { percent = 5, cap = 3 }\n",
             'its rake rule is {"cap":3,"percent":5} here, none')):
        other = tmp_path / name
        other.write_text(edited)
        code, out, err = one_shot(db, "import", str(other))
        assert (code, out) == (2, REJECTED)
        assert err == (f"error: {other}:1, hand f1: a different hand f1 is already in the "
                       f"ledger: {differ} in the ledger; {HINT}\n")
    assert events(db) == before


def test_a_corrected_hands_json_lines_export_is_its_phh_export(tmp_path: Path) -> None:
    """Ann's raise to 8 corrected to 10: the PHH export (the hand as corrected) imported into
    a fresh ledger, the JSON-lines export (the raise to 8 and the correction) is the hand it
    holds, as its correction makes it; a correction to 12 is another hand, named as it
    results."""
    db = night(tmp_path)
    code, _, _ = one_shot(db, "correct", "f1", "--replace", "8", "Ann cbr 10", "--reason",
                          "second scorer", "--by", "lead")
    assert code == 0
    phh, lines = tmp_path / "f1.phh", tmp_path / "f1.jsonl"
    assert one_shot(db, "export", "--format", "phh", "f1", "-o", str(phh))[0] == 0
    assert one_shot(db, "export", "--format", "jsonl", "f1", "-o", str(lines))[0] == 0
    fresh = tmp_path / "fresh.duckdb"
    assert one_shot(fresh, "import", str(phh))[:2] == (
        0, "imported 1 hand(s) (17 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n")
    before = events(fresh)
    assert one_shot(fresh, "import", str(lines)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 "
           "rejected\n", "")
    other = tmp_path / "other.jsonl"
    text = lines.read_text()
    assert text.count('"to":10') == 1
    other.write_text(text.replace('"to":10', '"to":12'))
    assert one_shot(fresh, "import", str(other)) == (2, REJECTED, (
        f"error: {other}:1, hand f1: a different hand f1 is already in the ledger: as its "
        'corrections make it, its event 8 is bet_raise {"player":"Ann","to":12} here, '
        f'bet_raise {{"player":"Ann","to":10}} in the ledger; {HINT}\n'))
    assert events(fresh) == before
