"""Refusals that now say the whole truth: a file whose hands the ledger holds already, imported
into a session of another chip, is known, not refused for its unit; a PokerStars file cut in a
hand's header or seat lines says it ends there (docs/IMPORTING.md "A file cut short");
``cashout``'s "chips at the table" names the players the session's hands leave chips without a
buy-in; ``hand start`` names every seated player who has no buy-in."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED

NLHE = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
CUT = ("; the file ends in the middle of hand PokerStars-35824134431, line {} cut off (no "
       "newline at its end): a file cut short? import the whole file\n")
SUMMARY = "imported 2 hand(s) (37 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


def test_held_hands_into_a_session_of_another_chip_are_known(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert run(db, "session", "open", "v", "--chip-value", "0.01", "--currency", "USD"
               ).exit_code == 0
    assert run(db, "import", "--session", "v", str(NLHE)).exit_code == 0
    assert run(db, "session", "open", "u", "--chip-value", "0.25", "--currency", "USD"
               ).exit_code == 0
    before = db.read_bytes()
    result = run(db, "import", "--session", "u", str(NLHE))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == ("imported 0 hand(s) (0 events) from 1 file(s); 78 already in the "
                             "ledger (they stay outside session u); 0 rejected\n")
    assert db.read_bytes() == before


def test_new_hands_into_a_session_of_another_chip_are_still_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    run(db, "session", "open", "u", "--chip-value", "0.25", "--currency", "USD")
    result = run(db, "import", "--session", "u", str(NLHE))
    assert result.exit_code == 2
    assert result.stdout == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                             "ledger; 78 rejected\n")
    assert result.stderr.startswith(f"error: {NLHE}: its amounts are in a smaller unit than the "
                                    "session's chip of 25 minor units")


def _cut(size: int, to: Path) -> Path:
    to.write_bytes(NLHE.read_bytes()[:size])
    return to


def test_stars_text_cut_in_the_table_line(tmp_path: Path) -> None:
    cut = _cut(1990, tmp_path / "cut.txt")  # line 65: "Table 'May IV' 6-max Seat "
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert (result.exit_code, result.stdout) == (2, SUMMARY)
    assert result.stderr == (f"error: {cut}:65, hand PokerStars-35824134431: fewer than two "
                             "seated players" + CUT.format(65))


def test_stars_text_cut_in_the_header(tmp_path: Path) -> None:
    cut = _cut(1960, tmp_path / "cut.txt")  # line 64, the hand's first, cut
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert (result.exit_code, result.stdout) == (2, SUMMARY)
    assert result.stderr == (f"error: {cut}:64, hand PokerStars-35824134431: no table line "
                             "after the header" + CUT.format(64))


def test_stars_text_cut_in_a_seat_line(tmp_path: Path) -> None:
    cut = _cut(2100, tmp_path / "cut.txt")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert (result.exit_code, result.stdout) == (2, SUMMARY)
    assert result.stderr == (f"error: {cut}:68, hand PokerStars-35824134431: bad seat line "
                             "'Seat 3: Pho3nix.two ($6'" + CUT.format(68))


def test_stars_text_cut_later_is_said_once(tmp_path: Path) -> None:
    cut = _cut(2300, tmp_path / "cut.txt")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == (f"error: {cut}:75, hand PokerStars-35824134431: unknown line "
                             "'Pho3nix.tw'" + CUT.format(75))


def test_a_seat_line_ended_by_a_newline_says_nothing_of_a_cut(tmp_path: Path) -> None:
    cut = _cut(2100, tmp_path / "cut.txt")
    cut.write_bytes(cut.read_bytes() + b"\n")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == (f"error: {cut}:68, hand PokerStars-35824134431: bad seat line "
                             "'Seat 3: Pho3nix.two ($6'\n")


def test_cashout_names_the_players_the_hands_leave_chips(tmp_path: Path) -> None:
    """The books fold the 78 hands: 13 of the 15 players end with chips (Pho3nix.two lost his
    660, shaunsaville his 265), none bought in."""
    db = tmp_path / "t.duckdb"
    run(db, "session", "open", "club", "--chip-value", "0.01", "--currency", "USD")
    assert run(db, "import", "--session", "club", str(NLHE)).exit_code == 0
    result = run(db, "cashout", "club", "Hero", "145")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: Hero has no buy-in in club: nothing to cash out (chips at the table: 13 "
        "player(s) its hands seated without a buy-in (Andrey_UKRNA, ChrVo, DSOR65, Dashornman, "
        "Dragsta03, Gles65, Hero, Patman01, Sr Radío, StifflerPL, Swiss777, espanol63, "
        "k1tt9nM1nd); a buy-in not yet recorded goes first: `handledger buyin club Hero "
        "CHIPS`)\n")


def test_cashout_with_buy_ins_alone_names_them(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    run(db, "session", "open", "s")
    run(db, "buyin", "s", "Ann", "100")
    result = run(db, "cashout", "s", "Zed", "5")
    assert result.stderr == ("error: Zed has no buy-in in s: nothing to cash out (chips at "
                             "the table: Ann; a buy-in not yet recorded goes first: "
                             "`handledger buyin s Zed CHIPS`)\n")


def _start(db: Path, seats: str) -> Result:
    return run(db, "hand", "start", "--session", "S", "--game", "NT", "--stakes", "1/2",
               "--seats", seats, "--button", seats.split(",")[-1].split(":")[0])


def test_hand_start_names_every_player_without_a_buy_in(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    run(db, "session", "open", "S")
    before = db.read_bytes()
    result = _start(db, "Ann:200,Bob:200,Cy:200")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: Ann, Bob and Cy have no buy-in in session S (its players: nobody yet): record "
        "them first with `handledger buyin S Ann CHIPS`, `handledger buyin S Bob CHIPS` and "
        "`handledger buyin S Cy CHIPS`; nothing was written\n")
    assert db.read_bytes() == before
    run(db, "buyin", "S", "Bob", "200")
    assert _start(db, "Ann:200,Bob:200,Cy:200").stderr == (
        "error: Ann and Cy have no buy-in in session S (its players: Bob): record them first "
        "with `handledger buyin S Ann CHIPS` and `handledger buyin S Cy CHIPS`; nothing was "
        "written\n")
    assert _start(db, "Ann:200,Bobb:200,Cy:200").stderr == (
        "error: Ann, Bobb and Cy have no buy-in in session S (its players: Bob): Ann: record "
        "it first with `handledger buyin S Ann CHIPS`; Bobb: did you mean Bob? record it first "
        "with `handledger buyin S Bobb CHIPS`; Cy: record it first with `handledger buyin S "
        "Cy CHIPS`; nothing was written\n")
    assert _start(db, "Bob:200,Cy:200").stderr == (
        "error: Cy has no buy-in in session S (its players: Bob): record it first with "
        "`handledger buyin S Cy CHIPS`; nothing was written\n")
