"""A PokerNow log imported with ``--session`` into a session the ledger holds already (README:
a session has one unit; FORMATS.md §2): the session keeps its one ``session_opened``, and the
log's amounts are its chips exactly, or the log is refused in one line naming file and hand.

The real logs are read in place: the run-it-twice excerpt is a cents log (``8.55``),
charlestudor's first log counts whole chips (three players buy in for 100; after its four hands
TA has won 3, Anvjfbmj2 1, Qapurjsa9 lost 4). Its copy in cents (every amount N written N.00,
as PokerNow writes it once the host turns cents on) is made at test time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb

from tests.conftest import SHARED
from tests.test_pokernow_cli import _rows, _write

DATA = SHARED / "pokernow"
RIT = DATA / "pokernowpy_run-it-twice.csv"
CT = DATA / "charlestudor_Input_Log_001.csv"
RIT30 = "pn-fri-30-163028603289300"
CT_NETS = {"gE4aE_Yhc3": 3, "ydk9sgEWl2": 1, "BfS83Cedu3": -4}  # TA, Anvjfbmj2, Qapurjsa9


def _in_cents(tmp_path: Path) -> Path:
    """Charlestudor's log with every amount written with cents: ``calls 2`` → ``calls 2.00``,
    ``(104)`` → ``(104.00)``, ``a stack of 100.`` → ``a stack of 100.00.``."""
    header, rows = _rows(CT)
    for row in rows:
        row[0] = re.sub(r"\b(of|calls|bets|to|collected|from) (\d+)\b", r"\1 \2.00", row[0])
        row[0] = re.sub(r"\((\d+)\)", r"(\1.00)", row[0])
    return _write(tmp_path / "cents" / CT.name, header, rows)


def _openings(db: str) -> list[tuple]:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT stream, seq, payload->>'chip_value_minor', "
                           "payload->>'currency' FROM events WHERE type = 'session_opened' "
                           "ORDER BY position").fetchall()


def _count(db: str) -> int:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]


def _balances(run, *args: str) -> dict[str, tuple[int, int]]:  # noqa: ANN001
    out = run("balances", "--json", *args)
    assert out.exit_code == 0, out.output
    return {p["player"]: (p["net"], p["buy_in"]) for p in json.loads(out.output)["players"]}


def test_cents_that_are_no_whole_chips_refuse_the_log_in_one_line(run, db) -> None:  # noqa: ANN001
    """The run-it-twice log into a session of 0.05 USD chips: its stacks (6.72 …) are no
    whole number of 5 cents. One line names the file and the first hand, nothing is written
    (it was: a second session_opened, and 8.55 stored as 855 chips of 0.05: 42.75 USD)."""
    assert run("session", "open", "fri", "--chip-value", "0.05", "--currency", "USD"
               ).exit_code == 0
    out = run("import", "--session", "fri", str(RIT))
    assert out.exit_code == 2
    assert out.output == (
        f"error: {RIT}: its amounts are cents that are not all whole chips of the session's "
        f"chip of 5 minor units (hand {RIT30}: an amount of 672 minor units): import it into "
        "a session whose chip divides them, or without --session; never rounded (all 3 hands "
        f"of the file, from {RIT30} to pn-fri-48-16302875682920: nothing of them was "
        "imported)\nimported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 3 "
        "rejected\n")
    assert _count(db) == 1 and _openings(db) == [("session:fri", 1, "5", "USD")]


def test_a_cents_log_in_a_session_of_cents_keeps_one_opening_and_round_trips(
        run, db, tmp_path) -> None:  # noqa: ANN001
    """The same log into a session of 0.01 USD chips: a cent is a chip, 8.55 is 855 chips
    (8.55 USD); the stream keeps the session's one opening, and its export imports again
    (it was refused: "a session must start with session_opened and have it only once")."""
    assert run("session", "open", "fri", "--chip-value", "0.01", "--currency", "USD"
               ).exit_code == 0
    out = run("import", "--session", "fri", str(RIT))
    assert out.exit_code == 0, out.output
    # an excerpt: each stack the audit finds nobody bought (#30) or not left by #31 (#48) is
    # a warning (tests/test_pokernow_cli.py RIT_FINDINGS: 6 + 5)
    *warned, last = out.output.splitlines()
    assert last == ("imported 3 hand(s) (96 events) from 1 file(s); 0 already in the "
                    "ledger; 0 rejected; 11 warning(s) about hands stored")
    assert [w.split(": hand ")[1].split(":")[0] for w in warned] == [
        "pn-fri-48-16302875682920"] * 5 + ["pn-fri-30-163028603289300"] * 6
    assert _openings(db) == [("session:fri", 1, "1", "USD")]
    nets = {p: net for p, (net, _) in _balances(run).items()}
    assert nets == {"3r4cXeU7Dp": 855, "R2MwqIZu29": 129, "5ZxauEKa4C": -53,
                    "r6R7wIH3qS": -83, "HXN7RGKNLI": -263, "6sDYZfyXI8": -585}
    assert _balances(run, "--money")["3r4cXeU7Dp"] == (855, 0)  # minor units: 8.55 USD
    assert run("import", "--session", "fri", str(RIT)).output.startswith(  # nothing twice
        "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger")
    export = tmp_path / "fri.jsonl"
    assert run("export", "--format", "jsonl", "-o", str(export)).exit_code == 0
    again = str(tmp_path / "again.duckdb")
    from click.testing import CliRunner

    from cli.main import cli

    out = CliRunner().invoke(cli, ["--db", again, "import", str(export)],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert _openings(again) == [("session:fri", 1, "1", "USD")] and _count(again) == 97


def test_cents_are_converted_to_the_sessions_chips_exactly(run, db, tmp_path) -> None:  # noqa: ANN001
    """Charlestudor's log in cents into a session of 0.25 USD chips: every amount, its
    buy-ins too, is 4 chips a dollar (100.00 → 400 chips); the nets are 4 × 3, 4 × 1 and
    4 × −4 chips, 3.00, 1.00 and −4.00 USD, as the whole-chip log gives in a 1 USD session."""
    log = _in_cents(tmp_path)
    assert "calls 2.00" in log.read_text() and "(104.00)" in log.read_text()
    assert run("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"
               ).exit_code == 0
    out = run("import", "--session", "fri", str(log))
    assert out.exit_code == 0, out.output
    assert _openings(db) == [("session:fri", 1, "25", "USD")]
    assert _balances(run) == {p: (4 * n, 400) for p, n in CT_NETS.items()}
    assert _balances(run, "--money") == {p: (100 * n, 10000) for p, n in CT_NETS.items()}
    assert run("audit").output.startswith("audit clean: 4 hand(s) in 1 session(s)")
    replay = run("replay", "--json", "--hand", "pn-fri-4-164210359269400")
    (hand,) = [json.loads(line) for line in replay.output.splitlines()]
    assert hand["returned"] == {"Anvjfbmj2": 4} and hand["pots"][0]["amount"] == 8


def test_a_whole_chip_log_counts_the_sessions_chips(run, db) -> None:  # noqa: ANN001
    """Charlestudor's log as it is into a session of 1 USD chips: its chips are the
    session's, 100 a buy-in, one opening (it had two)."""
    assert run("session", "open", "fri", "--chip-value", "1", "--currency", "USD"
               ).exit_code == 0
    assert run("import", "--session", "fri", str(CT)).exit_code == 0
    assert _openings(db) == [("session:fri", 1, "100", "USD")]
    assert _balances(run) == {p: (n, 100) for p, n in CT_NETS.items()}
    assert _balances(run, "--money") == {p: (100 * n, 10000) for p, n in CT_NETS.items()}


def test_a_log_in_another_unit_than_the_session_is_refused_whole(run, db, tmp_path) -> None:  # noqa: ANN001
    """Cents into a session of plain chips (no chip value), or into one a whole-chip
    PokerNow log (charlestudor's second) opened; whole chips into one a cents log opened: one
    line each, nothing written (each was stored as it is: cents as chips, chips as cents)."""
    assert run("session", "open", "plain").exit_code == 0
    out = run("import", "--session", "plain", str(RIT))
    assert (out.exit_code, out.output.splitlines()[0]) == (2, (
        f"error: {RIT}: this log counts cents (an amount has a decimal point), but session "
        "plain counts plain chips: say what its chip is worth first (`handledger session set "
        "plain --chip-value … --currency …`), or import the log without --session; nothing "
        "of the file was written"))
    night = DATA / "charlestudor_Input_Log_002.csv"  # whole chips: a PokerNow session
    assert run("import", "--session", "night", str(night)).exit_code == 0
    before = _count(db)
    out = run("import", "--session", "night", str(_in_cents(tmp_path)))
    assert (out.exit_code, out.output.splitlines()[0]) == (2, (
        f"error: {tmp_path / 'cents' / CT.name}: this log counts cents (an amount has a "
        "decimal point), but session night counts whole chips (a PokerNow log opened it): its "
        "amounts would be read in another unit; nothing of the file was written (another "
        "game's log? give it a session of its own: --session NAME)"))
    assert run("import", "--session", "rit", str(RIT)).exit_code == 0
    out = run("import", "--session", "rit", str(CT))
    assert (out.exit_code, out.output.splitlines()[0]) == (2, (
        f"error: {CT}: this log counts whole chips, but session rit counts cents (an amount "
        "has a decimal point) (a PokerNow log opened it): its amounts would be read in another "
        "unit; nothing of the file was written (another game's log? give it a session of "
        "its own: --session NAME)"))
    assert _count(db) == before + 97 and [o[:2] for o in _openings(db)] == [
        ("session:plain", 1), ("session:night", 1), ("session:rit", 1)]


def test_the_statement_is_counted_as_its_log(run, db, tmp_path) -> None:  # noqa: ANN001
    """PokerNow's ledger statement of the cents log, in dollars, with the log into the 0.25
    USD session: its figures are the session's chips too (the audit compares them with the
    books: clean); a figure that is no whole number of them refuses the statement."""
    log = _in_cents(tmp_path)
    assert run("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"
               ).exit_code == 0
    head = "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"
    rows = [("TA", "gE4aE_Yhc3", "103.00", "3.00"), ("Anvjfbmj2", "ydk9sgEWl2", "101.00",
            "1.00"), ("Qapurjsa9", "BfS83Cedu3", "96.00", "-4.00")]
    statement = tmp_path / "ledger.csv"
    statement.write_text("\n".join([head, *(f"{n},{i},2022-01-13T19:00:00.000Z,,100.00,,{s},"
                                            f"{net}" for n, i, s, net in rows)]) + "\n")
    out = run("import", "--session", "fri", str(log), "--ledger", str(statement))
    assert out.exit_code == 0, out.output
    assert run("audit").output.startswith("audit clean: 4 hand(s) in 1 session(s)")
    with duckdb.connect(db, read_only=True) as con:
        (payload,) = con.execute("SELECT payload FROM events WHERE type = 'platform_ledger'"
                                 ).fetchone()
    assert [(r["player"], r["buy_in"], r["stack"], r["net"]) for r in json.loads(payload)[
        "rows"]] == [("gE4aE_Yhc3", 400, 412, 12), ("ydk9sgEWl2", 400, 404, 4),
                     ("BfS83Cedu3", 400, 384, -16)]
    statement.write_text(statement.read_text().replace("103.00,3.00", "103.10,3.10").replace(
        "96.00,-4.00", "95.90,-4.10"))  # the nets still sum to zero
    out = run("import", "--session", "fri", str(log), "--ledger", str(statement))
    assert out.exit_code == 2 and (
        f"error: {statement}: gE4aE_Yhc3's stack of 10310 cents is not a whole number of the "
        "session fri's chips of 25 minor units: nothing of the statement was stored (never "
        "rounded)") in out.output
