"""The reads of one hand on a ledger edited by SQL behind handledger's back: the PokerNow log
``valakuzhyk_07_21_2022_log1.csv`` imported, then hand 21's payout of 330 (seq 26, position
689) given to hoL3fbolcH (gaxdqwmwksve) instead of 1RhUayZFQU, its hash left as it was.

``state`` and ``show`` hash the rows they show (a few dozen: no walk of the chain) and refuse
the hand, naming the row as ``verify`` does; a hand whose rows are intact is still shown.
``view`` proves the chain as ``report`` does, refused in report's words unless
``--broken-ok``.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.copies import copy_ledger

VAL = Path(__file__).resolve().parents[2] / "shared/data/pokernow/valakuzhyk_07_21_2022_log1.csv"
H21 = "pn-valakuzhyk_07_21_2022_log1-21-165843907408700"
EDITED = (f"broken at position 689: edited: row 689 ({H21} seq 26): its content does not "
          "hash to its stored hash")
PAYOUT = ('{"amount":330,"player":"hoL3fbolcH","pot":null,"returned":false,"run":null,'
          '"schema_version":1,"type":"recorded_payout"}')


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from click.testing import CliRunner

    from cli.main import cli

    db = tmp_path_factory.mktemp("val") / "v.duckdb"
    done = CliRunner().invoke(cli, ["--db", str(db), "import", str(VAL)])
    assert done.exit_code == 0, done.output
    return db


@pytest.fixture
def tampered(db: str, imported: Path) -> str:
    copy_ledger(imported, Path(db))
    with duckdb.connect(db) as con:
        assert con.execute("SELECT position, payload FROM events WHERE hand_id = ? AND seq = 26",
                           [H21]).fetchone() == (689, PAYOUT.replace("hoL3fbolcH", "1RhUayZFQU"))
        con.execute("UPDATE events SET payload = ? WHERE position = 689", [PAYOUT])
    return db


def _files(db: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in Path(db).parent.iterdir() if p.is_file()}


@pytest.mark.parametrize("command", ["state", "show"])
def test_state_and_show_refuse_a_hand_whose_row_was_edited(run, tampered: str,
                                                           command: str) -> None:
    before = _files(tampered)
    result = run(command, H21)
    assert (result.exit_code, result.output) == (2, (
        f"error: ledger {tampered}: {EDITED}: hand {H21} not shown (it would show rows "
        "changed outside handledger as the books); run `handledger verify`\n"))
    assert _files(tampered) == before


@pytest.mark.parametrize("command", ["state", "show"])
def test_an_intact_hand_of_the_edited_ledger_is_shown(run, tampered: str, command: str
                                                      ) -> None:
    """Hand 20 (positions before 689): its rows hash right; the edit is verify's to find."""
    with duckdb.connect(tampered, read_only=True) as con:
        (h20,) = con.execute("SELECT DISTINCT hand_id FROM events WHERE hand_id LIKE"
                             " 'pn-valakuzhyk_07_21_2022_log1-20-%'").fetchone()
    result = run(command, h20)
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "stacks after the hand: gaxdqwmwksve 85 (folded), Phzd Juwvifsvh 990 (folded), "
        "Hznmh#9009 1839, Aab Ovwsi 3731, IpusyM 1285 (folded), Efvoziamtgktl 70 (folded)"
        if command == "state" else
        "    Main pot 2522 (Hznmh#9009, Aab Ovwsi): Aab Ovwsi wins 2522 with three of a kind, "
        "kings, A-Q kickers.")


def test_view_refuses_as_report_does(run, tampered: str) -> None:
    folder = Path(tampered).parent
    before = _files(tampered)
    result = run("view", H21, "-o", str(folder / "h.html"))
    assert (result.exit_code, result.output) == (2, (
        f"error: ledger {tampered}: {EDITED}: no page written (it would show rows changed "
        "outside handledger as the books); run `handledger verify`, or view with --broken-ok "
        "for a page of the rows as they are\n"))
    result = run("report", str(folder / "site"))
    assert (result.exit_code, result.output) == (2, (
        f"error: ledger {tampered}: {EDITED}: no report written (its pages would show rows "
        "changed outside handledger as the books); run `handledger verify`, or report with "
        "--broken-ok for a site of the rows as they are\n"))
    assert _files(tampered) == before
    assert sorted(p.name for p in folder.iterdir()) == ["t.duckdb"]


def test_view_broken_ok_writes_the_page_of_the_rows_as_they_are(run, tampered: str) -> None:
    page = Path(tampered).parent / "h.html"
    result = run("view", H21, "-o", str(page), "--broken-ok")
    assert (result.exit_code, result.output) == (0, (
        f"warning: ledger {tampered}: {EDITED}: written anyway (--broken-ok): the page shows "
        f"the rows as they are\nwrote {page}\n"))
    assert page.exists()


def test_view_of_the_intact_ledger_says_nothing_of_the_chain(run, db: str, imported: Path
                                                              ) -> None:
    copy_ledger(imported, Path(db))
    page = Path(db).parent / "h.html"
    result = run("view", H21, "-o", str(page))
    assert (result.exit_code, result.output) == (0, f"wrote {page}\n")
