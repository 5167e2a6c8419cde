"""Books a host can trust: the thirteen ways an ordinary evening broke the books, each run at
the command line as a new user ran it, now refused with one line or counted right."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from replay.live import LiveHand, build_started
from tests.conftest import ROOT, SHARED
from tests.copies import build_ledger, copy_ledger

NIGHT = [  # the README's night at the table
    ("session", "open", "friday", "--date", "2026-11-27", "--chip-value", "0.25",
     "--currency", "USD"),
    ("buyin", "friday", "Ann", "200"), ("buyin", "friday", "Bob", "150"),
    ("buyin", "friday", "Cy", "300"),
    ("hand", "start", "--session", "friday", "--hand", "f1", "--game", "NT", "--stakes", "1/2",
     "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy"),
    *[("act", "f1", a) for a in ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy f",
                                 "Ann cbr 8", "Bob cbr 150", "Ann cc", "d db 2c7h9s",
                                 "d db Kd", "d db 3c", "Ann sm AsKs", "Bob sm QhQd",
                                 "pay Ann 300", "end")],
    ("cashout", "friday", "Ann", "350"), ("cashout", "friday", "Bob", "0"),
    ("cashout", "friday", "Cy", "300"), ("session", "close", "friday"),
]


def night(run) -> None:  # noqa: ANN001
    for step in NIGHT:
        out = run(*step)
        assert out.exit_code == 0, (step, out.output)


@pytest.fixture(scope="module")
def night_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ledger of ``NIGHT``, built once for the module (every step exits 0)."""
    return build_ledger(tmp_path_factory.mktemp("night") / "t.duckdb", NIGHT)


@pytest.fixture
def at_night(night_ledger: Path, db: str) -> None:
    """The test's ledger ``db`` (the one ``run`` uses): a copy of ``night_ledger``, as
    ``night(run)`` on a new ledger leaves it."""
    copy_ledger(night_ledger, Path(db))


def refused(out, *words: str) -> None:  # noqa: ANN001
    assert out.exit_code == 2, out.output
    assert out.output.count("\n") == 1 and "Traceback" not in out.output, out.output
    for w in words:
        assert w in out.output, out.output


def _json(out) -> object:  # noqa: ANN001
    assert out.exit_code in (0, 1), out.output
    return json.loads(out.output)


@pytest.mark.usefixtures("at_night")
def test_1_a_hand_id_used_twice_is_refused_and_a_broken_stream_bricks_nothing(
        run, db: str) -> None:  # noqa: ANN001
    seats = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150", "--button", "Bob")
    assert run("hand", "start", "--hand", "h1", *seats).exit_code == 0
    refused(run("hand", "start", "--hand", "h1", *seats), "hand 'h1' is already in the ledger")
    # the night's f1: a completed hand of a closed session: its id is taken too
    refused(run("hand", "start", "--hand", "f1", *seats), "hand 'f1' is already")
    # a stream broken the old way (a second hand_started appended to h1) is a finding
    with Ledger(db) as ledger:
        started, forced = build_started(LiveHand(game="NT", seats="Ann:200,Bob:150",
                                                 stakes="1/2", button="Bob"),
                                        hand="h1", session=None)
        ledger.append("h1", [started, *forced])
    audit = run("audit", "--json")
    kinds = [d["kind"] for d in _json(audit)["discrepancies"]]
    assert audit.exit_code == 1 and kinds == ["unreplayable"]
    for command in (("balances",), ("replay",), ("sql", "SELECT count(*) FROM hands")):
        assert run(*command).exit_code in (0, 1), command
    assert run("void", "h1", "--reason", "started twice", "--by", "host").exit_code == 0
    assert run("audit").exit_code == 0


@pytest.mark.usefixtures("at_night")
def test_2_a_void_counts_for_nothing_in_the_books(run) -> None:  # noqa: ANN001
    # friday is closed: its books change only with --closed
    refused(run("void", "f1", "--reason", "misdeal", "--by", "host"),
            "session friday is closed and voiding hand f1 moves its players' nets (Ann -150, "
            "Bob +150)")
    assert run("void", "f1", "--reason", "misdeal", "--by", "host", "--closed").exit_code == 0
    nets = {p["player"]: p["net"] for p in _json(run("balances", "--json"))["players"]}
    assert nets == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert _json(run("settle", "--session", "friday", "--json"))["transfers"] == []
    assert [p["total"] for p in _json(run("standings", "--json"))["players"]] == [0, 0, 0]


@pytest.mark.usefixtures("at_night")
def test_3_no_live_payout_after_the_end_or_before_the_showdown(run) -> None:  # noqa: ANN001
    refused(run("act", "f1", "pay Cy 1"), "the hand is complete", "correct")
    run("session", "open", "sat")
    run("buyin", "sat", "Ann", "100")
    run("buyin", "sat", "Bob", "100")
    assert run("hand", "start", "--session", "sat", "--hand", "f2", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:100,Bob:100", "--button", "Bob").exit_code == 0
    refused(run("act", "f2", "pay Ann 4"), "a payout comes at the showdown")
    events = _json(run("history", "f2", "--json"))["events"]
    assert [e["type"] for e in events] == ["hand_started", "forced_bet", "forced_bet"]


@pytest.mark.usefixtures("at_night")
def test_4_our_jsonl_export_imports_as_nothing(run, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "out.jsonl"
    assert run("export", "-o", str(out)).exit_code == 0
    before = _json(run("sql", "--json", "SELECT count(*) AS n FROM events"))
    again = run("import", str(out))
    assert again.exit_code == 0 and "(0 events)" in again.output
    assert _json(run("sql", "--json", "SELECT count(*) AS n FROM events")) == before
    assert run("audit").exit_code == 0


@pytest.mark.usefixtures("at_night")
def test_5_a_phh_export_keeps_the_hand_id_and_session(run, tmp_path: Path) -> None:  # noqa: ANN001
    phh = tmp_path / "f1.phh"
    assert run("export", "--format", "phh", "f1", "-o", str(phh)).exit_code == 0
    text = phh.read_text()
    assert "_hand_id = 'f1'" in text and "_session = 'friday'" in text
    again = run("import", str(phh))
    assert again.exit_code == 0 and "1 already in the ledger" in again.output
    assert "Bob pays Ann 37.50 USD" in run("settle").output


@pytest.mark.usefixtures("at_night")
def test_6_hands_go_only_to_an_opened_session(run, tmp_path: Path) -> None:  # noqa: ANN001
    run("session", "open", "saturday")
    seats = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Bob")
    refused(run("hand", "start", "--session", "saturdy", *seats), "no session 'saturdy'",
            "did you mean 'saturday'?")
    refused(run("hand", "start", "--session", "friday", *seats), "session 'friday' is closed")
    hand = SHARED / "rules" / "ex01.phh"
    out = run("import", "--session", "nosuch", str(hand))
    assert out.exit_code == 2 and "no session 'nosuch'" in out.output.splitlines()[0]
    assert "0 hand(s)" in run("session", "list").output.splitlines()[1]


def test_7_balances_and_chart_count_the_same_net(run, db: str) -> None:  # noqa: ANN001
    from replay.books import chart_rows

    assert run("import", str(ROOT / "data")).exit_code == 0
    books = _json(run("balances", "--json"))
    # the 0.25 USD sessions and the plain-chip hands of no session: two units, never one sum
    assert [u["sessions"] for u in books["units"]] == [["declare-night", "s01", "s02", "s03"],
                                                       [""]]
    nets = {p["player"]: p["by_unit"][0]["net"] for p in books["players"] if p["by_unit"][0]}
    charted: dict[str, int] = {}
    for session in books["units"][0]["sessions"]:
        for _, player, net in chart_rows(db, money=False, session=session):
            charted[player] = charted.get(player, 0) + net
    assert charted == nets
    ann = next(p for p in books["players"] if p["player"] == "Ann")
    assert [u["net"] for u in ann["by_unit"]] == [76, -107]  # was one sum, -31
    assert nets["Alice"] == 689
    assert "what the table paid the player minus what the player put in" in " ".join(
        run("balances", "--help").output.split())


def test_8_a_read_never_creates_a_ledger(run, db: str) -> None:  # noqa: ANN001
    for command in (("verify",), ("replay",), ("balances",), ("show", "x"), ("audit",)):
        refused(run(*command), f"no ledger at {db}")
    assert not Path(db).exists()


def test_9_reads_work_while_another_process_has_the_ledger_open(run, db: str,
                                                                 tmp_path: Path) -> None:  # noqa: ANN001
    """Another process holds the ledger open read-only (as `verify` does) while the derived
    tables are behind (a live hand started since the import saved them): the reads compute
    them in memory and leave the file as it was."""
    assert run("import", str(ROOT / "data" / "dispute")).exit_code == 0
    assert run("hand", "start", "--hand", "live", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:200,Bob:150", "--button", "Bob").exit_code == 0  # tables now behind
    before = Path(db).read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1], "
         "read_only=True); print('open', flush=True); time.sleep(60)", db],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        out = run("balances")
        assert out.exit_code == 0 and out.stderr == "" and "Bob" in out.stdout
        assert run("sql", "SELECT count(*) FROM results").exit_code == 0
        assert run("audit").exit_code == 1  # the dispute's two payout findings
        assert run("replay", "--hand", "dispute-1").exit_code == 1
        assert run("export", "-o", str(tmp_path / "e.jsonl")).exit_code == 0
    finally:
        holder.kill()
        holder.wait()
    assert Path(db).read_bytes() == before


@pytest.mark.usefixtures("at_night")
def test_10_book_entries_are_checked_and_correctable(run) -> None:  # noqa: ANN001
    run("session", "open", "sat")
    refused(run("cashout", "sat", "Zed", "100"), "Zed has no buy-in in sat")
    refused(run("cashout", "friday", "Ann", "350", "--closed"), "Ann already cashed out 350")
    assert run("pay", "friday", "Bob", "Ann", "37.50").exit_code == 0
    refused(run("pay", "friday", "Bob", "Ann", "37.50"), "more than Bob still owes",
            "--more-than-owed")
    refused(run("pay", "friday", "Bob", "Ann", "37.50", "--more-than-owed"), "--again")
    assert run("pay", "friday", "Bob", "Ann", "37.50", "--again",
               "--more-than-owed").exit_code == 0
    # the second payment was a mistake after all: retracted; Cy's buy-in amended
    assert run("entry", "retract", "friday", "10", "--reason", "paid once", "--by",
               "host").exit_code == 0
    # friday is closed: its buy-ins and cash-outs change only with --closed (payments, the
    # settling up, need none)
    refused(run("entry", "amend", "friday", "4", "320", "--reason", "Cy had 320", "--by",
                "host"), "session friday is closed (its books were settled up at the close): "
            "amending its entry 4 (buy-in of Cy) changes them; nothing written; --closed "
            "records it anyway")
    assert run("entry", "amend", "friday", "4", "320", "--reason", "Cy had 320", "--by",
               "host", "--closed").exit_code == 0
    events = _json(run("history", "--session", "friday", "--json"))["events"]
    fixes = {e["seq"]: e["corrections"] for e in events if e["corrections"]}
    assert {s: [(c["by"], c["reason"]) for c in cs] for s, cs in fixes.items()} == {
        4: [("host", "Cy had 320")], 10: [("host", "paid once")]}
    books = {p["player"]: p for p in _json(run("balances", "--json"))["players"]}
    assert books["Cy"]["buy_in"] == 320
    assert books["Ann"]["received_minor"] == 3750  # one payment of 37.50 counts


@pytest.mark.usefixtures("at_night")
def test_11_settle_subtracts_the_payments_made(run) -> None:  # noqa: ANN001
    assert run("settle", "--session", "friday").output.splitlines()[0] == \
        "Bob pays Ann 37.50 USD"
    assert run("pay", "friday", "Bob", "Ann", "37.50").exit_code == 0
    assert "settled: nobody owes anybody (37.50 USD paid already)" in run(
        "settle", "--session", "friday").output
    assert "closed, settled" in run("session", "list").output


def test_12_a_session_has_one_unit(run, tmp_path: Path) -> None:  # noqa: ANN001
    """HandHQ hands written in dollars with cents go into a session of 1-cent chips exactly,
    and a session of quarter chips refuses the hands that do not convert; once they are
    held, they are known (in the ledger already), whatever the chip of the session named."""
    from ledger.formats.phh.read import read_phh
    from replay.build import events_from_phh
    from replay.fold import replay_events

    path = SHARED / "phh" / "handhq" / "ps-1000nl-excerpt.phhs"
    want: dict[str, int] = {}
    for hand in read_phh(path).hands:  # the truth, hand by hand, in cents
        r = replay_events(events_from_phh(hand))
        cents = 10 ** (2 - hand.started.unit.decimals)
        for p, n in r.paid_net.items():
            want[p] = want.get(p, 0) + n * cents
    assert run("session", "open", "hq", "--chip-value", "0.01", "--currency", "USD"
               ).exit_code == 0
    assert run("import", "--session", "hq", str(path)).exit_code == 0
    money = {p["player"]: p["net"] for p in
             _json(run("balances", "--money", "--session", "hq", "--json"))["players"]}
    assert money == want
    run("session", "open", "quarters", "--chip-value", "0.25", "--currency", "USD")
    out = run("import", "--session", "quarters", str(path))
    # held in session hq: known whatever the chip of the session named, nothing written
    assert out.exit_code == 0 and out.output.startswith(
        "imported 0 hand(s) (0 events) from 1 file(s); 21 already in the ledger (they stay"
        " outside session quarters); 0 rejected")
    from click.testing import CliRunner

    from cli.main import cli

    other = ["--db", str(tmp_path / "quarters.duckdb")]
    CliRunner().invoke(cli, [*other, "session", "open", "quarters", "--chip-value", "0.25",
                             "--currency", "USD"])
    out = CliRunner().invoke(cli, [*other, "import", "--session", "quarters", str(path)])
    assert out.exit_code == 2 and "never rounded" in out.output


def test_12b_a_file_in_a_smaller_unit_is_one_line(run) -> None:  # noqa: ANN001
    """No hand of the PartyPoker excerpt (cents) fits a session of quarter chips: one line
    for the file, not one a hand."""
    path = SHARED / "phh" / "handhq" / "pty-25nl-excerpt.phhs"
    run("session", "open", "quarters", "--chip-value", "0.25", "--currency", "USD")
    out = run("import", "--session", "quarters", str(path))
    assert out.exit_code == 2
    (line,) = [ln for ln in out.output.splitlines() if ln.startswith("error:")]
    assert line == (
        f"error: {path}: its amounts are in a smaller unit than the session's chip of 25 minor "
        "units (hand PartyPoker-16405514564: an amount of 1151): import it into a session "
        "whose chip divides them, or without --session; never rounded (all 18 hands of the "
        "file, from PartyPoker-16405514564 to PartyPoker-16406772784: nothing of them was "
        "imported)")


def test_13_the_command_line_says_one_line(run, db: str, night_ledger: Path,  # noqa: ANN001
                                           tmp_path: Path) -> None:
    refused(run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Ann:100", "--button", "Ann"), "Ann is seated twice")
    refused(run("hand", "start", "--game", "NT", "--stakes", "2/1", "--seats",
                "Ann:100,Bob:100", "--button", "Ann"), "--stakes '2/1'")
    copy_ledger(night_ledger, Path(db))  # the night, as on a ledger the refusals left empty
    run("session", "open", "sat")
    out = run("buyin", "sat", "Ann", "-50")
    assert (out.exit_code, out.output) == (2, "error: buyin sat Ann: '-50' is not a number of "
                                              "chips (amounts are whole chips, in ASCII "
                                              "digits)\n")
    refused(run("chart", "/nonexistent/x.png"), "/nonexistent/x.png")
    os.chdir(tmp_path)
    out = run("chart", "out")
    assert out.exit_code == 0 and out.output.strip() == "wrote out"
    assert (tmp_path / "out").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run("-h").exit_code == 0 and "Usage:" in run("balances", "-h").output


def test_ctrl_c_is_exit_130_with_aborted(tmp_path: Path) -> None:
    """A real process interrupted (SIGINT) mid-import: 'Aborted', exit 130, nothing half
    written (the import is one transaction a file; a new ledger with no file written is
    removed)."""
    import signal

    from replay.demo.series import generate_series, write_series

    folder = tmp_path / "series"
    # 600 hands: the import takes seconds of CPU, far more than the 0.3 s before the signal
    write_series(generate_series(sessions=4, hands=150, seed=3), folder)
    db = tmp_path / "c.duckdb"
    # As a terminal delivers it: a test runner's worker may start children with SIGINT
    # ignored, which Python then keeps ignoring; the child restores the usual handler.
    child = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "from cli.entry import main; main()")
    proc = subprocess.Popen([sys.executable, "-c", child,
                             "--db", str(db), "import", "--jobs", "1", str(folder)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 60
    while not db.exists() and time.monotonic() < deadline:  # the import has begun
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:  # it finished first: nothing to interrupt on this machine
        pytest.fail("the import finished before the interrupt; make the series bigger")
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "Aborted"
    if not db.exists():  # interrupted before its first file was written: the ledger it made
        assert err.split() == ["Aborted"]  # is gone, and no file is named as written
        return
    with Ledger(db, read_only=True) as ledger:
        assert ledger.verify().ok


def _agree(run, db: str) -> dict[str, int]:  # noqa: ANN001
    """Each player's net in money by balances, by standings, by the chart's rows and by what
    settle-up moves (with the payments made): all four the same."""
    from replay.books import chart_rows

    players = _json(run("balances", "--money", "--json"))["players"]
    nets = {p["player"]: p["net"] for p in players}
    grid = {p["player"]: p["total"] for p in _json(run("standings", "--money", "--json"))
            ["players"]}
    charted: dict[str, int] = {}
    for _, player, net in chart_rows(db, money=True):
        charted[player] = charted.get(player, 0) + net
    moved = {p["player"]: p["received_minor"] - p["paid_minor"] for p in players}
    for t in _json(run("settle", "--json"))["transfers"]:
        moved[t["from"]] -= t["amount"]
        moved[t["to"]] += t["amount"]
    assert nets == grid
    assert {p: n for p, n in charted.items()} == {p: n for p, n in nets.items() if p in charted}
    assert moved == nets
    return nets


@pytest.mark.usefixtures("at_night")
def test_balances_standings_chart_and_settle_agree_on_the_night(run, db: str) -> None:  # noqa: ANN001
    assert _agree(run, db) == {"Ann": 3750, "Bob": -3750, "Cy": 0}


def test_they_agree_on_the_bundled_series(run, db: str) -> None:  # noqa: ANN001
    assert run("import", str(ROOT / "data" / "series")).exit_code == 0
    nets = _agree(run, db)
    assert sum(nets.values()) == 0 and len(nets) == 8


def test_they_agree_on_a_generated_series_with_planted_errors(run, db: str,
                                                              tmp_path: Path) -> None:  # noqa: ANN001
    assert run("demo-series", "--sessions", "4", "--hands", "40", "--seed", "5",
               "--plant-errors", str(tmp_path / "s")).exit_code == 0
    assert run("import", str(tmp_path / "s")).exit_code == 0
    assert run("audit").exit_code == 1  # the planted errors are found
    nets = _agree(run, db)
    assert sum(nets.values()) == 0
