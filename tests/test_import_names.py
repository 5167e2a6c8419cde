"""A player name in an imported file is checked as a command checks one
(ledger/model/names.py ``check_name``): a control character (a bell, a terminal escape) is
refused naming the file, the line and the hand, and nothing of that hand is written; the
file's other hands go in (a hand is the unit of an import, README "Bad input"). A PokerNow
log's names are in its book (buy-ins, aliases), so there the file is refused whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_books_refusals import rows

DATA = Path(__file__).resolve().parent.parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def test_a_phh_hand_with_an_escape_in_a_name_is_refused(run, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    text = (DATA / "hands" / "plo-three-way.phh").read_text(encoding="utf-8")
    bad = tmp_path / "esc.phh"
    bad.write_text(text.replace("'Pia'", '"Pi\\u001b[31ma"') + "_hand_id = 'esc1'\n",
                   encoding="utf-8")
    good = tmp_path / "draw.phh"
    good.write_text((DATA / "hands" / "five-card-draw.phh").read_text(encoding="utf-8"),
                    encoding="utf-8")
    out = run("import", str(bad), str(good))
    assert out.exit_code == 2
    assert out.output.splitlines() == [
        f"error: {bad}:1, hand esc1: player name 'Pi\\x1b[31ma' holds a control character "
        "(U+001B): a name is one line of printable text",
        "imported 1 hand(s) (24 events) from 2 file(s); 0 already in the ledger; 1 rejected"]
    assert "esc1" not in {stream for stream, _, _ in rows(Path(db))}


def test_a_jsonl_hand_with_a_bell_in_a_name_is_refused(run, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    """Hands s01-001 and s01-002 of the series (lines 1-30 and 31-43 here): the second seats
    ``Er\\x07in``; only the first goes in, its 30 events."""
    lines = [line for line in (DATA / "series" / "s01.jsonl").read_text(
        encoding="utf-8").splitlines() if json.loads(line).get("hand") in ("s01-001", "s01-002")]
    assert len(lines) == 43
    path = tmp_path / "bell.jsonl"
    path.write_text("\n".join(line if json.loads(line)["hand"] == "s01-001"
                              else line.replace('"Erin"', '"Er\\u0007in"') for line in lines)
                    + "\n", encoding="utf-8")
    out = run("import", str(path))
    assert out.exit_code == 2
    assert out.output.splitlines() == [
        f"error: {path}:31, hand s01-002: player name 'Er\\x07in' holds a control character "
        "(U+0007): a name is one line of printable text",
        "imported 1 hand(s) (30 events) from 1 file(s); 0 already in the ledger; 1 rejected"]
    assert {stream for stream, _, _ in rows(Path(db))} == {"s01-001"}


def test_a_pokernow_log_with_a_bell_in_a_name_is_refused_whole(run, db: str,  # noqa: ANN001
                                                               tmp_path: Path) -> None:
    """The log lists its rows newest first: line 59 is TA's seat request, the first row that
    names him."""
    log = (SHARED / "pokernow" / "charlestudor_Input_Log_001.csv").read_text(encoding="utf-8")
    path = tmp_path / "bell.csv"
    path.write_text(log.replace("TA @", "T\x07A @"), encoding="utf-8")
    out = run("import", str(path))
    assert out.exit_code == 2
    assert out.output.splitlines()[0] == (
        f"error: {path}:59, session bell, action 'The player \"T\\x07A @ gE4aE_Yhc3\" requested "
        "a seat.': player name 'T\\x07A' holds a control character (U+0007): a name is one "
        "line of printable text; a line of the session's book is refused, so nothing of the "
        "file was written (correct the line and import the file again)")
    assert not Path(db).exists()


def test_every_control_character_is_refused_ascii_or_not() -> None:
    """check_name takes a printable ASCII name without looking at each character; every
    character of Unicode category C is still refused, ASCII (below U+0020, U+007F) or not."""
    import pytest

    from ledger.model.errors import MalformedInput
    from ledger.model.names import check_name

    assert check_name("Ann ~Bo_1!") == "Ann ~Bo_1!"
    assert check_name("Zoë") == "Zoë"
    for code in [*range(0x01, 0x20), 0x7F, 0x85]:
        with pytest.raises(MalformedInput, match=f"control character \\(U\\+{code:04X}\\)"):
            check_name(f"A{chr(code)}n")
    for code, kind in ((0x200B, "an invisible format character"),  # zero-width space
                       (0x200D, "an invisible format character"),  # zero-width joiner
                       (0xE000, "a private-use character"), (0x0378, "an unassigned code point")):
        with pytest.raises(MalformedInput, match=f"holds {kind} \\(U\\+{code:04X}\\)"):
            check_name(f"A{chr(code)}n")


ALIKE = ("(names are kept as typed: two names that differ only in case or in how their "
         "letters are encoded would print alike)")
NFD_HAND = "\n".join([
    'variant = "NT"', "antes = [0, 0]", "blinds_or_straddles = [1, 2]", "min_bet = 2",
    "starting_stacks = [100, 100]",
    'actions = ["d dh p1 AsKs", "d dh p2 QhQd", "p2 cbr 10", "p1 f"]',
    'players = ["Jose\\u0301", "Bob"]', "_hand_id = 'nfd1'", ""])


def test_a_phh_hand_seating_a_look_alike_of_a_player_is_refused(tmp_path: Path) -> None:
    """The books hold José with é as one code point (U+00E9); the file's José is e and a
    combining acute (U+0301): never a second player who prints alike, never merged."""
    from tests.console_run import handledger

    db, phh = tmp_path / "r.duckdb", tmp_path / "h.phh"
    phh.write_text(NFD_HAND, encoding="utf-8")
    for args in (("session", "open", "s"), ("buyin", "s", "Jos\u00e9", "100"),
                 ("buyin", "s", "Bob", "100")):
        assert handledger(db, *args)[0] == 0
    assert handledger(db, "import", "--session", "s", str(phh)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {phh}:1, hand nfd1: player name 'Jose\u0301' (J o s e U+0301) is new but "
        f"'Jos\u00e9' (J o s U+00E9) is a player of the ledger: did you mean Jos\u00e9? {ALIKE}\n")
    assert {stream for stream, _, _ in rows(db)} == {"session:s"}


def test_two_look_alikes_seated_in_one_imported_hand_are_refused(tmp_path: Path) -> None:
    from tests.console_run import handledger

    db, phh = tmp_path / "r.duckdb", tmp_path / "h.phh"
    phh.write_text(NFD_HAND.replace('"Bob"', '"Jos\\u00e9"'), encoding="utf-8")
    assert handledger(db, "import", str(phh)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {phh}:1, hand nfd1: 'Jose\u0301' (J o s e U+0301) and 'Jos\u00e9' (J o s "
        "U+00E9) are both seated: two players whose names differ only in case or in how their "
        "letters are encoded would print alike; nothing of the hand written\n")
    assert not db.exists()


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_a_jsonl_hand_after_another_spelling_of_its_player_is_refused(
        tmp_path: Path, jobs: list[str]) -> None:
    """Hands s01-001 and s01-002 of the series: the first seats Erin as ``Zoë`` (U+00EB),
    the second as ``Zoë`` written e and U+0308; the first goes in, the second is refused,
    with worker processes too."""
    from tests.console_run import handledger

    lines = [line for line in (DATA / "series" / "s01.jsonl").read_text(
        encoding="utf-8").splitlines() if json.loads(line).get("hand") in ("s01-001", "s01-002")]
    path, db = tmp_path / "zoe.jsonl", tmp_path / "z.duckdb"
    path.write_text("\n".join(line.replace('"Erin"', '"Zo\\u00eb"')
                              if json.loads(line)["hand"] == "s01-001"
                              else line.replace('"Erin"', '"Zoe\\u0308"') for line in lines)
                    + "\n", encoding="utf-8")
    assert handledger(db, "import", *jobs, str(path)) == (
        2, "imported 1 hand(s) (30 events) from 1 file(s); 0 already in the ledger; "
           "1 rejected\n",
        f"error: {path}:31, hand s01-002: player name 'Zoe\u0308' (Z o e U+0308) is new but "
        f"'Zo\u00eb' (Z o U+00EB) is a player of the ledger: did you mean Zo\u00eb? {ALIKE}\n")
    assert {stream for stream, _, _ in rows(db)} == {"s01-001"}


def test_pokerstars_hands_seating_a_name_of_the_books_in_other_case_are_imported(
        tmp_path: Path) -> None:
    """The books hold HERO; the file's 78 hands each seat Hero, which reads apart (case alone
    differs): every hand is imported as the site writes it, HERO keeping his buy-in alone."""
    from tests.console_run import handledger

    db = tmp_path / "ps.duckdb"
    stars = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
    for args in (("session", "open", "s"), ("buyin", "s", "HERO", "100")):
        assert handledger(db, *args)[0] == 0
    assert handledger(db, "import", str(stars)) == (
        0, "imported 78 hand(s) (1725 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    players = {line.split()[0] for line in handledger(db, "balances")[1].splitlines()[1:]}
    assert {"HERO", "Hero"} <= players


SEAT_NAMED_AS_LABEL = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']
players = ['Ann', 'p1']
winnings = [3, 0]
hand = 1
venue = 'Home'
"""

LABELS_SWAPPED = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 10', 'p2 cc',
  'd db 2s3d9c', 'p1 cc', 'p2 cc', 'd db Tc', 'p1 cc', 'p2 cc', 'd db 4h', 'p1 cc', 'p2 cc',
  'p1 sm AsAh', 'p2 sm KsKh']
players = ['p2', 'p1', 'Cy']
winnings = [20, 0, 0]
hand = 2
venue = 'Home'
"""


def test_a_phh_player_named_as_another_seats_label_is_that_seat(tmp_path: Path) -> None:
    """FORMATS.md §1: an action's ``pN`` is seat N; ``players`` only names the seats, so a
    seat may be named ``p1`` though it is seat 2. The import read ``p1`` as the player so
    named first: Home-1 (``players = ['Ann', 'p1']``) was refused at its second deal ("p1
    already has cards for this street"), and Home-2 (seat 1 named ``p2``, seat 2 ``p1``) out
    of turn. Checked by hand: heads-up seat 2, ``p1``, is the button and folds his small blind
    1 to Ann's big blind: Ann +1, p1 -1. In Home-2 Cy folds; seat 1 (``p2``, small blind)
    raises to 10 with AsAh and seat 2 (``p1``, big blind) calls with KsKh, checked down to
    2s3d9c Tc 4h: aces win the pot of 20, p2 +10, p1 -10, Cy 0. The export writes the same
    labels back. A PokerStars hand's seats are such labels too."""
    from tests.console_run import handledger

    db = tmp_path / "r.duckdb"
    one, two = tmp_path / "one.phh", tmp_path / "two.phh"
    one.write_text(SEAT_NAMED_AS_LABEL, encoding="utf-8")
    two.write_text(LABELS_SWAPPED, encoding="utf-8")
    assert handledger(db, "import", str(one), str(two)) == (
        0, "imported 2 hand(s) (30 events) from 2 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    for hand, net, recorded in (("Home-1", {"Ann": 1, "p1": -1}, {"Ann": 3}),
                                ("Home-2", {"p2": 10, "p1": -10, "Cy": 0}, {"p2": 20})):
        body = json.loads(handledger(db, "replay", "--hand", hand, "--json")[1])
        assert (body["net"], body["recorded"], body["discrepancies"]) == (net, recorded, [])
    shown = handledger(db, "show", "Home-2")[1].splitlines()
    assert [" ".join(line.split()[:5]) for line in shown[3:6]] == [
        "4 d dh p2 AsAh", "5 d dh p1 KsKh", "6 d dh Cy 7c2d"]
    text = handledger(db, "export", "--format", "phh", "Home-1")[1]
    assert ("actions = [\n  'd dh p1 ????',\n  'd dh p2 ????',\n  'p2 f',\n]\n"
            "players = ['Ann', 'p1']\n") in text
    # a PokerStars hand is read through the same labels: Player1, its big blind (seat 2 from
    # the button's left), renamed p1, folds his 0.10 (10 cents) to Hero's raise
    stars = tmp_path / "stars.txt"
    stars.write_text((SHARED / "text" / "Stars-cash-NLHE-FR-USD-0.05-0.10-201004."
                      "allinWithAmtReturned.txt").read_text(encoding="utf-8").replace(
        "Player1", "p1"), encoding="utf-8")
    assert handledger(db, "import", str(stars))[:2] == (
        0, "imported 1 hand(s) (23 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n")
    body = json.loads(handledger(db, "replay", "--hand", "PokerStars-42875758685", "--json")[1])
    assert body["net"]["p1"] == -10


LONG = "You need a very long name, friend, a name longer than sixty-four!"  # 65 characters
LONG_SAID = (f"player name {LONG[:64]!r}… is 65 characters long: a name is "
             "at most 64 characters, so that every table prints it whole (a PokerStars name is "
             "at most 15); give a shorter name")


def test_an_imported_name_longer_than_64_characters_is_refused(run, db: str,  # noqa: ANN001
                                                               tmp_path: Path) -> None:
    """A name of 100,000 characters was imported and printed whole in every table. A PHH hand
    seating a name of 65 characters is refused naming the file, the line and the hand, the
    file's other hand going in; a JSON-lines buy-in row or a PokerNow log naming one refuses
    the file (its book), naming the line; a name of 64 characters goes in."""
    long_hand = tmp_path / "long.phh"
    long_hand.write_text(SEAT_NAMED_AS_LABEL.replace("'p1'", f"'{LONG}'"), encoding="utf-8")
    fits = tmp_path / "fits.phh"
    fits.write_text(SEAT_NAMED_AS_LABEL.replace("'p1'", f"'{LONG[:64]}'").replace(
        "hand = 1", "hand = 3"), encoding="utf-8")
    out = run("import", str(long_hand), str(fits))
    assert (out.exit_code, out.output.splitlines()) == (2, [
        f"error: {long_hand}:1, hand Home-1: {LONG_SAID}",
        "imported 1 hand(s) (8 events) from 2 file(s); 0 already in the ledger; 1 rejected"])
    assert {stream for stream, _, _ in rows(Path(db))} == {"Home-3"}
    book = tmp_path / "s.jsonl"
    book.write_text(
        '{"session":"s","seq":1,"event":{"chip_value_minor":1,"currency":null,'
        '"date":"2026-11-27","decimals":0,"schema_version":1,"session":"s","source":{},'
        '"type":"session_opened"}}\n'
        f'{{"session":"s","seq":2,"event":{{"chips":10,"kind":"buy_in","player":"{LONG}",'
        '"schema_version":1,"type":"buy_in"}}\n', encoding="utf-8")
    out = run("import", str(book))
    assert (out.exit_code, out.output.splitlines()[0]) == (2, (
        f"error: {book}:2, session s: its buy_in at seq 2 ({LONG[:64]}…, 10 chips, buy_in): "
        f"{LONG_SAID}; nothing of the file was written"))
    log = (SHARED / "pokernow" / "charlestudor_Input_Log_001.csv").read_text(encoding="utf-8")
    path = tmp_path / "long.csv"
    path.write_text(log.replace("TA @", f"{LONG} @"), encoding="utf-8")
    out = run("import", str(path))
    assert (out.exit_code, out.output.splitlines()[0]) == (2, (
        f"error: {path}:59, session long, action 'The player \"{LONG} @ gE4aE_Yhc3\" requested "
        f"a seat.': {LONG_SAID}; a line of the session's book is refused, so nothing of the "
        "file was written (correct the line and import the file again)"))
    assert {stream for stream, _, _ in rows(Path(db))} == {"Home-3"}
