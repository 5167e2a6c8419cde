"""A JSON-lines file's buy-ins, cash-outs and payments are held to the checks of ``buyin``,
``cashout`` and ``pay`` (replay/ingest/book_rules.py), each at its place in the books; a row
they refuse refuses the file in one line naming file, line and session, nothing written. A
payment recorded with ``pay --more-than-owed`` says ``"more_than_owed": true``, which an export
writes and an import takes as the flag. A cash-out beyond the table is named at the row whose
chips are more than the hands left its player. Each row below went in (exit 0) before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.conftest import DATA
from tests.test_import_into_closed import _row
from tests.test_live_table import events, one_shot
from tests.workers import import_by_workers

S01 = (DATA / "series" / "s01.jsonl").read_text()
LINES = S01.splitlines(keepends=True)
REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
#: a refusal of the s01 file, whose 30 hands are not written with it (the summary adds up)
REFUSED_S01 = REFUSED.replace("\n", "; 30 other hand(s) not written, their file refused\n")
#: line 913 of s01.jsonl, seq 28: Erin pays Alice 179.00 USD, all she lost (17900 cents)
ERIN_PAYS = LINES[912]
OPENED = _row(1, {"type": "session_opened", "session": "zz", "date": "2026-01-01"})
ANN_IN = _row(2, {"type": "buy_in", "player": "Ann", "chips": 10})


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_payment_to_a_player_who_never_played_is_refused(tmp_path: Path) -> None:
    """Line 913 paid by Zed instead of Erin: refused as `pay s01 Zed Alice 1` is, naming the
    line, nothing written (no ledger made); settle then sent Erin's money to Zed."""
    path = _file(tmp_path, "z.jsonl", S01.replace(ERIN_PAYS, ERIN_PAYS.replace(
        '"payer":"Erin"', '"payer":"Zed"')))
    db = tmp_path / "z.duckdb"
    assert one_shot(db, "import", str(path)) == (2, REFUSED_S01, (
        f"error: {path}:913, session s01: its payment at seq 28 (Zed pays Alice 179.00 USD): "
        "Zed is not in the books of session s01 (no buy-in, cash-out or hand there; its "
        "players: Alice, Bob, Carol, Dave, Erin): a payment settles a session between its "
        "players (and 'rake' names the house, who keeps the rake; 'bank' the bank, who holds "
        "the buy-ins); nothing of the file was "
        "written\n"))
    assert not db.exists()


def test_a_payment_repeated_is_more_than_owed_unless_the_row_says_so(tmp_path: Path) -> None:
    """Erin lost 179.00 USD and paid it (seq 28); the same payment again as seq 29 is refused
    as `pay` refuses it (she owes 0.00). Marked more_than_owed it goes in, and settle has
    Alice pay the 179.00 back."""
    again = ERIN_PAYS.replace('"seq":28', '"seq":29')
    path = _file(tmp_path, "twice.jsonl", S01 + again)
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(path)) == (2, REFUSED_S01, (
        f"error: {path}:914, session s01: its payment at seq 29 (Erin pays Alice 179.00 USD): "
        "179.00 USD is more than Erin still owes in s01 (0.00 USD: Erin lost 179.00 USD, paid "
        "179.00 USD, received 0.00 USD); nothing of the file was written (`handledger settle "
        '--session s01` says who pays whom); a row with "more_than_owed": true records it '
        "anyway (as pay --more-than-owed)\n"))
    assert not db.exists()
    meant = _file(tmp_path, "meant.jsonl", S01 + again.replace(
        '"amount_minor":17900,', '"amount_minor":17900,"more_than_owed":true,'))
    assert one_shot(db, "import", str(meant))[0] == 0
    assert one_shot(db, "settle", "--session", "s01")[1] == (
        "Alice pays Erin 179.00 USD\n1 transfer(s) settle 5 player(s) (471.50 USD paid "
        "already)\n")


def test_payments_beyond_the_buy_ins_together_advise_the_row_s_flag(tmp_path: Path) -> None:
    """zz (no hand: settle cannot say) opened, Ann and Bob bought 10 chips each; Ann pays Bob
    8 twice: the second row, her payments together beyond her buy-ins, is refused with the
    file's way of recording it anyway (the row's ``"more_than_owed": true``), not ``pay``'s
    option alone; so marked, the file goes in."""
    bob_in = _row(3, {"type": "buy_in", "player": "Bob", "chips": 10})
    pays = [_row(seq, {"type": "payment", "payer": "Ann", "payee": "Bob", "amount_minor": 8})
            for seq in (4, 5)]
    path = _file(tmp_path, "p.jsonl", OPENED + ANN_IN + bob_in + "".join(pays))
    db = tmp_path / "p.duckdb"
    assert one_shot(db, "import", str(path)) == (2, REFUSED, (
        f"error: {path}:5, session zz: its payment at seq 5 (Ann pays Bob 8): 8, with the 8 Ann "
        "paid already, is more than Ann's buy-ins in zz (10 chips): nobody pays more than the "
        "chips put on the table; a buy-in missing from the books is recorded first; a row with "
        '"more_than_owed": true records it anyway (as pay --more-than-owed); nothing of the '
        "file was written\n"))
    assert not db.exists()
    marked = _row(5, {"type": "payment", "payer": "Ann", "payee": "Bob", "amount_minor": 8,
                      "more_than_owed": True})
    path.write_text(OPENED + ANN_IN + bob_in + pays[0] + marked)
    assert one_shot(db, "import", str(path))[:2] == (0, (
        "imported 0 hand(s) (5 events) from 1 file(s); 0 already in the ledger; 0 rejected\n"))


def test_more_than_owed_round_trips_through_an_export(tmp_path: Path) -> None:
    """`pay s01 Erin Alice 10` is refused (she owes nothing), `--more-than-owed` records it
    marked; the export writes the mark, and a fresh ledger takes the file with the same
    settle-up (Alice pays the 10.00 back); the ledger it came from holds it already."""
    db = tmp_path / "m.duckdb"
    assert one_shot(db, "import", str(DATA / "series" / "s01.jsonl"))[0] == 0
    assert one_shot(db, "pay", "s01", "Erin", "Alice", "10")[0] == 2
    assert one_shot(db, "pay", "s01", "Erin", "Alice", "10", "--more-than-owed")[0] == 0
    out = tmp_path / "m.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(out))[0] == 0
    last = json.loads(out.read_text().splitlines()[-1])
    assert last == {"session": "s01", "seq": 29, "event": {
        "amount_minor": 1000, "more_than_owed": True, "payee": "Alice", "payer": "Erin",
        "reason": None, "schema_version": 1, "type": "payment"}}
    fresh = tmp_path / "f.duckdb"
    assert one_shot(fresh, "import", str(out))[0] == 0
    settled = "Alice pays Erin 10.00 USD\n1 transfer(s) settle 5 player(s) (302.50 USD paid " \
              "already)\n"
    assert one_shot(db, "settle", "--session", "s01")[1] == settled
    assert one_shot(fresh, "settle", "--session", "s01")[1] == settled
    before = events(db)
    assert one_shot(db, "import", str(out))[0] == 0
    assert events(db) == before


def test_a_cash_out_counted_wrong_is_named_at_its_own_line(tmp_path: Path) -> None:
    """Alice's cash-out (line 906, seq 21) raised from 1160 to 1260 chips leaves the table
    100 chips short at Dave's 176 (line 907): the refusal names Alice's line, what the hands
    left her, and Dave's row where the chips ran out."""
    path = _file(tmp_path, "co.jsonl", S01.replace(LINES[905], LINES[905].replace(
        '"chips":1160', '"chips":1260')))
    assert one_shot(tmp_path / "c.duckdb", "import", str(path)) == (2, REFUSED_S01, (
        f"error: {path}:906, session s01: its cash_out at seq 21 cashes out Alice (1260 "
        "chips), but the hands left Alice 1160 (+100): the table runs short at seq 22 (line "
        "907), which cashes out Dave (176 chips) of the 100 chips not cashed out yet there "
        "(1580 bought in, 1480 cashed out), and no hand makes chips; nothing of the file was "
        "written (a cash-out counted wrong is corrected in the file)\n"))


@pytest.mark.parametrize(("row", "said"), [
    (_row(3, {"type": "cash_out", "player": "Bob", "chips": 0}),
     "its cash_out at seq 3 (Bob, 0 chips): Bob has no buy-in in zz: nothing to cash out "
     "(chips at the table: Ann; a buy-in not yet recorded goes first: `handledger buyin zz "
     "Bob CHIPS`)"),
    (_row(3, {"type": "buy_in", "player": "Bob", "chips": 5, "kind": "rebuy"}),
     "its buy_in at seq 3 (Bob, 5 chips, rebuy): Bob has no buy-in in zz yet, and a rebuy "
     "follows one (make its kind buy_in)"),
    (_row(3, {"type": "buy_in", "player": "ann", "chips": 5}),
     "its buy_in at seq 3 (ann, 5 chips, buy_in): ann is not in zz's books and Ann is: did "
     "you mean Ann? (names are kept as typed; two players whose names differ only in case "
     "would print alike)"),
    (_row(3, {"type": "payment", "payer": "Ann", "payee": "Ann", "amount_minor": 1}),
     "its payment at seq 3 (Ann pays Ann 1): a payment needs two different players"),
])
def test_book_rows_the_commands_refuse(tmp_path: Path, row: str, said: str) -> None:
    """zz opened, Ann bought 10 chips: a cash-out of Bob (no buy-in), a rebuy of Bob, a
    buy-in of `ann` beside Ann and Ann paying herself are refused as cashout, buyin and pay
    refuse them, at line 3; the ledger is not made."""
    path = _file(tmp_path, "b.jsonl", OPENED + ANN_IN + row)
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "import", str(path)) == (
        2, REFUSED, f"error: {path}:3, session zz: {said}; nothing of the file was written\n")
    assert not db.exists()


def test_workers_leave_a_refused_payment_to_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """s01 with Zed's payment read by two worker processes: they give it back to the
    one-process import, which refuses it in the same line, nothing written."""
    path = _file(tmp_path, "z.jsonl", S01.replace(ERIN_PAYS, ERIN_PAYS.replace(
        '"payer":"Erin"', '"payer":"Zed"')))
    report, results = import_by_workers(monkeypatch, path, tmp_path / "w.duckdb", 20_000)
    with Ledger(tmp_path / "w.duckdb", read_only=True) as ledger:
        assert ledger.query("SELECT count(*) FROM events") == [(0,)]
    assert results == [None]
    assert len(report.errors) == 1
    assert report.errors[0].startswith(f"{path}:913, session s01: its payment at seq 28 (Zed ")


def test_a_file_s_rows_count_a_buy_in_made_before_a_hand_there(tmp_path: Path) -> None:
    """Session s exported: Ann buys 100, h1 seats her with 150 and she folds (149 left), she
    cashes out 149 (seq 4), then her rebuy of 50 made before h1 (seq 5, `buyin --before h1`).
    A cash-out of Ann's 50 more (seq 6) after it is refused as `cashout` refuses it: the
    rebuy counts before h1, so she cashed out since her last buy-in; nothing written. The
    export alone goes in."""
    built = tmp_path / "b.duckdb"
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100"),
                 ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                  "Ann:150,Bob:100", "--button", "Ann", "--session", "s", "--hand", "h1"),
                 *(("act", "h1", a) for a in ("d dh p1 ????", "d dh p2 ????", "Ann f", "end")),
                 ("cashout", "s", "Ann", "149"), ("buyin", "s", "Ann", "50", "--before", "h1")):
        assert one_shot(built, *args)[0] == 0, args
    cmd = one_shot(built, "cashout", "s", "Ann", "50")
    assert cmd == (2, "", "error: Ann already cashed out 149 chips in s (entry 4, no buy-in "
                          "since); a wrong count is amended: `handledger entry amend s 4 CHIPS "
                          "--reason … --by …`\n")
    code, export, _ = one_shot(built, "export", "--format", "jsonl")
    assert code == 0
    row = ('{"session":"s","seq":6,"event":{"chips":50,"player":"Ann","schema_version":1,'
           '"type":"cash_out"}}\n')
    path = _file(tmp_path, "s.jsonl", export + row)
    db = tmp_path / "n.duckdb"
    assert one_shot(db, "import", str(path)) == (2, REFUSED.replace(
        "\n", "; 1 other hand(s) not written, their file refused\n"), (
        f"error: {path}:13, session s: its cash_out at seq 6 (Ann, 50 chips): Ann already "
        "cashed out 149 chips in s (entry 4, no buy-in since); a wrong count is amended: "
        "`handledger entry amend s 4 CHIPS --reason … --by …`; nothing of the file was "
        "written\n"))
    assert not db.exists()
    assert one_shot(db, "import", str(_file(tmp_path, "e.jsonl", export)))[0] == 0


def test_a_buy_in_made_before_a_hand_names_a_hand_of_its_session(tmp_path: Path) -> None:
    """s01 and s02 in one file, then a row of s01 (seq 29, after its closing): Bob's 10-chip
    rebuy made before a hand (``"before"``, what `buyin --before` records). Before s02-001, a
    hand of s02, it is refused as `buyin` refuses it, naming the line, nothing written; before
    s01-003, a hand of s01, the file goes in, the row as written, where a closing of the
    file's own takes it as it takes a cash-out."""
    s02 = (DATA / "series" / "s02.jsonl").read_text()
    rebuy = '{"session":"s01","seq":29,"event":{"before":"%s","chips":10,"kind":"rebuy",' \
            '"player":"Bob","schema_version":1,"type":"buy_in"}}\n'
    line = len(LINES) + len(s02.splitlines()) + 1
    path = _file(tmp_path, "other.jsonl", S01 + s02 + rebuy % "s02-001")
    db = tmp_path / "o.duckdb"
    code, _, err = one_shot(db, "import", str(path))
    assert (code, err) == (2, (
        f"error: {path}:{line}, session s01: its buy_in at seq 29 (Bob, 10 chips, rebuy): hand "
        "s02-001 is of session s02, not of session s01: a buy-in counts before a hand of its "
        "own session; nothing of the file was written\n"))
    assert not db.exists()
    path = _file(tmp_path, "own.jsonl", S01 + s02 + rebuy % "s01-003")
    assert one_shot(db, "import", str(path))[0] == 0
    with Ledger(db, read_only=True) as ledger:
        assert ledger.query("SELECT payload FROM events WHERE stream = 'session:s01' AND seq"
                            " = 29") == [(json.dumps(json.loads(rebuy % "s01-003")["event"],
                                                     separators=(",", ":")),)]
