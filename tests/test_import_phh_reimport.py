"""A PHH export imported back into the ledger it came from is already there: a hand still in
play stays in play (PHH cannot say a hand goes on, so the end its reading gives it is never
appended to the live hand), and a hand whose payouts the table recorded out of seat order is
the same hand when each player was paid the same chips (README: "each player was paid the
same chips"). A copy that goes on past the live hand, or that differs, is refused in one
line, nothing written."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import events, one_shot

KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
REJECTED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
DEAL = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy 7c2d")
TO_SHOWDOWN = ("Cy cbr 100", "Ann cc", "Bob cc", "d db 2s3s9d", "d db Tc", "d db 4h",
               "Ann sm AsAh", "Bob sm KsKh", "Cy sm 7c2d")


def _start(db: Path, hand: str, seats: str, button: str, *options: str) -> None:
    assert one_shot(db, "hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2",
                    "--seats", seats, "--button", button, *options)[0] == 0


def _act(db: Path, hand: str, *actions: str) -> None:
    for action in actions:
        assert one_shot(db, "act", hand, action)[0] == 0, action


def _export(db: Path, hand: str, path: Path, fmt: str = "phh") -> Path:
    assert one_shot(db, "export", "--format", fmt, hand, "-o", str(path))[0] == 0
    return path


def _status(db: Path, hand: str) -> str:
    return one_shot(db, "state", hand)[1].splitlines()[0]


def test_the_phh_export_of_a_hand_just_started_leaves_it_in_play(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    _start(db, "p2", "Ann:50,Bob:100", "Bob")
    before = events(db)
    for path in (_export(db, "p2", tmp_path / "p2.phh"),
                 _export(db, "p2", tmp_path / "p2.jsonl", "jsonl")):
        assert one_shot(db, "import", str(path)) == (0, KNOWN, "")
    assert events(db) == before
    assert _status(db, "p2") == "hand p2: NT, phase deal, status open"
    _act(db, "p2", "d dh Ann AsAh")  # `act` goes on with it


def test_earlier_phh_exports_of_a_hand_in_play_are_already_in_the_ledger(
        tmp_path: Path) -> None:
    """Exports taken after the deal, at the showdown (which PHH reads as a hand ended with
    nobody paid) and once Bob then Ann were paid (PHH pays Ann first, in seat order), each
    imported while the hand is at its payouts: nothing written, the hand still in play."""
    db = tmp_path / "a.duckdb"
    _start(db, "L", "Ann:50,Bob:100,Cy:100", "Cy")
    _act(db, "L", *DEAL)
    dealt = _export(db, "L", tmp_path / "dealt.phh")
    _act(db, "L", *TO_SHOWDOWN)
    shown = _export(db, "L", tmp_path / "shown.phh")
    _act(db, "L", "pay Bob 100", "pay Ann 150")
    paid = _export(db, "L", tmp_path / "paid.phh")
    assert "winnings = [150, 100, 0]" in paid.read_text()
    before = events(db)
    for path in (dealt, shown, paid):
        assert one_shot(db, "import", str(path)) == (0, KNOWN, ""), path.name
    assert events(db) == before
    assert _status(db, "L") == "hand L: NT, phase showdown, status open"
    assert one_shot(db, "undo", "L", "--by", "Ann")[0] == 0  # Ann's payout taken back
    undone = _export(db, "L", tmp_path / "undone.phh")
    assert one_shot(db, "import", str(undone)) == (0, KNOWN, "")
    code, out, err = one_shot(db, "import", str(paid))  # it pays Ann, whom the ledger has not
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {paid}:1, hand L: hand L is in play in the ledger and this PHH "
                   "copy goes on past it: it pays Ann 150 here, 0 in the ledger; PHH cannot "
                   "say whether a hand goes on, so nothing of it was written (play it on with "
                   "`handledger act L ...`, or import a JSON-lines export of it, `export "
                   "--format jsonl`, which can)\n")
    _act(db, "L", "pay Ann 150", "end")
    assert _status(db, "L") == "hand L: NT, phase showdown, status complete"


def test_a_phh_copy_that_goes_on_past_or_differs_from_a_hand_in_play_is_refused(
        tmp_path: Path) -> None:
    """The ledger holds the hand as far as the deal (a JSON-lines export taken then); a PHH
    export of the hand played on elsewhere is refused naming the first event it lacks, and
    one with another card naming that card; the hand stays in play, nothing written."""
    first, second = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    _start(first, "L", "Ann:50,Bob:100,Cy:100", "Cy")
    _act(first, "L", *DEAL)
    early = _export(first, "L", tmp_path / "early.jsonl", "jsonl")
    _act(first, "L", *TO_SHOWDOWN)
    shown = _export(first, "L", tmp_path / "shown.phh")
    assert one_shot(second, "import", str(early))[0] == 0
    before = events(second)
    code, out, err = one_shot(second, "import", str(shown))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {shown}:1, hand L: hand L is in play in the ledger and this PHH "
                   'copy goes on past it: its event 7 is all_in {"player":"Cy","to":100} '
                   "here, none in the ledger; PHH cannot say whether a hand goes on, so "
                   "nothing of it was written (play it on with `handledger act L ...`, or "
                   "import a JSON-lines export of it, `export --format jsonl`, which can)\n")
    other = tmp_path / "other.phh"
    other.write_text(shown.read_text().replace("d dh p2 KsKh", "d dh p2 QsQh").replace(
        "p2 sm KsKh", "p2 sm QsQh"))
    code, out, err = one_shot(second, "import", str(other))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {other}:1, hand L: a different hand L is already in the ledger "
                   '(in play there): its event 5 is cards_dealt {"cards":["Qs","Qh"],'
                   '"face_up":[],"player":"Bob","run":1} here, cards_dealt {"cards":["Ks",'
                   '"Kh"],"face_up":[],"player":"Bob","run":1} in the ledger; a change to a '
                   "stored hand is a correction (`handledger correct L ...`)\n")
    assert events(second) == before
    assert _status(second, "L") == "hand L: NT, phase bet, status open"


def test_payouts_recorded_out_of_seat_order_are_the_same_hand(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    _start(db, "p1", "Ann:50,Bob:100,Cy:100", "Cy")
    _act(db, "p1", *DEAL, *TO_SHOWDOWN, "pay Bob 100", "pay Ann 150", "end")
    path = _export(db, "p1", tmp_path / "p.phh")
    before = events(db)
    assert one_shot(db, "import", str(path)) == (0, KNOWN, "")
    # who got what differs (Ann 140, Bob 110): refused, naming the chips each was paid
    other = tmp_path / "q.phh"
    other.write_text(path.read_text().replace("[150, 100, 0]", "[140, 110, 0]"))
    code, out, err = one_shot(db, "import", str(other))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {other}:1, hand p1: a different hand p1 is already in the ledger: "
                   "the table paid otherwise: Ann 140 here, 150 in the ledger, Bob 110 here, "
                   "100 in the ledger; a change to a stored hand is a correction "
                   "(`handledger correct p1 ...`)\n")
    assert events(db) == before


def test_declare_hands_paid_high_first_and_corrected_are_the_same_hand(tmp_path: Path) -> None:
    """Bob's aces take the high half (50) and Ann's 7-5-4-3-2 the low (50); the table paid
    Bob first. d2 was paid 60 and 40 and corrected to 50 each: its export applies that."""
    db = tmp_path / "d.duckdb"
    play = ("d dh Ann 2c3d", "d dh Bob AsAh", "Bob cbr 50", "Ann cc", "d db 4h5s7d", "d db Kc",
            "d db Qh", "Ann dcl low", "Bob dcl high", "Ann sm 2c3d", "Bob sm AsAh")
    for hand, paid in (("d1", ("pay Bob 50", "pay Ann 50")), ("d2", ("pay Bob 60", "pay Ann 40"))):
        _start(db, hand, "Ann:50,Bob:50", "Bob", "--declare-options", "method=simultaneous")
        _act(db, hand, *play, *paid, "end")
    assert one_shot(db, "correct", "d2", "--replace", "15", "pay Bob 50", "--replace", "16",
                    "pay Ann 50", "--reason", "miscounted", "--by", "lead")[0] == 0
    before = events(db)
    for hand in ("d1", "d2"):
        path = _export(db, hand, tmp_path / f"{hand}.phh")
        assert "winnings = [50, 50]" in path.read_text()
        assert one_shot(db, "import", str(path)) == (0, KNOWN, ""), hand
    assert events(db) == before


def test_a_live_rake_in_play_is_compared_as_the_payouts_are(tmp_path: Path) -> None:
    """The table took 10 of the pot of 250 and paid Bob 100, Ann 140, the hand not ended yet:
    its PHH export (`rake = 10`) is already in the ledger it came from; into a ledger that
    holds the hand at its showdown, before the rake, it goes on past it (the payouts and the
    rake named); a rake of 12 (Ann 138) differs."""
    first, second = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    for db in (first, second):
        _start(db, "k1", "Ann:50,Bob:100,Cy:100", "Cy")
        _act(db, "k1", *DEAL, *TO_SHOWDOWN)
    _act(first, "k1", "rake 10", "pay Bob 100", "pay Ann 140")
    path = _export(first, "k1", tmp_path / "k1.phh")
    assert "winnings = [140, 100, 0]\nrake = 10\n" in path.read_text()
    before = events(first), events(second)
    assert one_shot(first, "import", str(path)) == (0, KNOWN, "")
    code, out, err = one_shot(second, "import", str(path))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {path}:1, hand k1: hand k1 is in play in the ledger and this PHH "
                   "copy goes on past it: it pays Ann 140 here, 0 in the ledger, Bob 100 here, "
                   "0 in the ledger and its rake is 10 here, none in the ledger; PHH cannot say "
                   "whether a hand goes on, so nothing of it was written (play it on with "
                   "`handledger act k1 ...`, or import a JSON-lines export of it, `export "
                   "--format jsonl`, which can)\n")
    other = tmp_path / "k12.phh"
    other.write_text(path.read_text().replace("rake = 10", "rake = 12").replace(
        "[140, 100, 0]", "[138, 100, 0]"))
    code, out, err = one_shot(first, "import", str(other))
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {other}:1, hand k1: a different hand k1 is already in the ledger "
                   "(in play there): its rake is 12 here, 10 in the ledger; a change to a "
                   "stored hand is a correction (`handledger correct k1 ...`)\n")
    assert (events(first), events(second)) == before
    assert _status(first, "k1") == "hand k1: NT, phase showdown, status open"
