"""A PokerNow log imported with ``--session`` into a session ``session open`` made shows its
players by the names they played under, as the same log imported on its own does (it opens
its session): ``balances``, ``show``, ``replay``, ``settle``, ``act``, the derived tables and
their catch-up (ledger/model/platform.py: a session whose opening or any hand was read from a
PokerNow log).

The run-it-twice excerpt (FORMATS.md §2) is a cents log of 3 hands and 6 players; into a
session of 0.01 USD chips a cent is a chip, so the nets are the log's cents: sappxxu won 8.55.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
from click.testing import CliRunner

from ledger.audit.catchup import moved
from ledger.store.store import Ledger
from ledger.store.streams import platform_names
from tests.conftest import SHARED

RIT = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
NAMES = {"3r4cXeU7Dp": "sappxxu", "R2MwqIZu29": "yfg", "5ZxauEKa4C": "Ntunn",
         "r6R7wIH3qS": "OjtkunxseAbye", "HXN7RGKNLI": "Mdeyxwb", "6sDYZfyXI8": "ihgq0hrmf"}
NETS = {"3r4cXeU7Dp": 855, "R2MwqIZu29": 129, "5ZxauEKa4C": -53, "r6R7wIH3qS": -83,
        "HXN7RGKNLI": -263, "6sDYZfyXI8": -585}
OWN = "pokernowpy_run-it-twice"  # the session the log opens on its own


def _runner(db: Path) -> Any:
    from cli.main import cli

    runner = CliRunner()

    def invoke(*args: str) -> Any:
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    return invoke


def _opened_then_imported(run: Any) -> None:
    assert run("session", "open", "fri", "--date", "2021-08-30", "--chip-value", "0.01",
               "--currency", "USD").exit_code == 0
    out = run("import", "--session", "fri", str(RIT))
    assert out.exit_code == 0, out.output


def _nicknames(run: Any) -> dict[str, tuple[str | None, int]]:
    out = run("balances", "--json")
    assert out.exit_code == 0, out.output
    return {p["player"]: (p["nickname"], p["net"]) for p in json.loads(out.output)["players"]}


def _derived(db: Path | str) -> dict[str, str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return dict(con.execute("SELECT player, nickname FROM player_nicknames").fetchall())


def test_the_books_name_them_as_when_the_log_opened_the_session(run, db, tmp_path) -> None:  # noqa: ANN001
    """``balances`` (``nickname (id)``), ``settle``, ``standings`` and the derived table of
    nicknames: the same names as the log imported on its own (they were ids)."""
    _opened_then_imported(run)
    own = _runner(tmp_path / "own.duckdb")
    assert own("import", str(RIT)).exit_code == 0

    want = {pid: (NAMES[pid], net) for pid, net in NETS.items()}
    assert _nicknames(run) == want == _nicknames(own)
    books = run("balances")
    lines = books.stdout.splitlines()  # the table; the log's stacks off its books: a note
    assert lines[1].split() == ["sappxxu", "(3r4cXeU7Dp)", "855", "0", "0", "3", "1"]
    assert lines[-1].split() == ["ihgq0hrmf", "(6sDYZfyXI8)", "-585", "0", "0", "2", "1"]
    alone = own("balances").stdout.splitlines()  # a cents log alone: its unit named first
    assert alone[0] == "chips of 0.01 (pokernowpy_run-it-twice):"
    assert books.stdout.splitlines() == alone[1:]
    noted = books.stderr.splitlines()  # settle's note, in its words
    assert noted and set(noted) <= set(run("settle").stderr.splitlines())
    settle = [line for line in run("settle").output.splitlines() if " pays " in line]
    assert settle == ["Ntunn pays sappxxu 0.07 USD", "Ntunn pays yfg 0.46 USD",
                      "ihgq0hrmf pays sappxxu 5.85 USD", "Mdeyxwb pays sappxxu 2.63 USD",
                      "OjtkunxseAbye pays yfg 0.83 USD"]
    mine = [line for line in own("settle").output.splitlines() if " pays " in line]
    assert settle == [f"{line} USD" for line in mine]  # the log alone counts no currency
    standings = json.loads(run("standings", "--json").output)
    assert {p["player"]: p["nickname"] for p in standings["players"]} == NAMES
    assert _derived(db) == NAMES == _derived(tmp_path / "own.duckdb")
    with Ledger(db, read_only=True) as ledger:
        assert platform_names(ledger) == NAMES


def test_show_and_replay_name_them_as_when_the_log_opened_the_session(run, tmp_path) -> None:  # noqa: ANN001
    _opened_then_imported(run)
    own = _runner(tmp_path / "own.duckdb")
    assert own("import", str(RIT)).exit_code == 0

    shown = run("show", "pn-fri-30-163028603289300").output
    assert shown.startswith("hand pn-fri-30-163028603289300: NT, button sappxxu; seats "
                            "OjtkunxseAbye 672, yfg 2493, ihgq0hrmf 812, ")
    assert "3r4cXeU7Dp" not in shown and "r6R7wIH3qS" not in shown
    theirs = own("show", f"pn-{OWN}-30-163028603289300").output  # wrapped elsewhere: longer id
    assert shown.split() == theirs.replace(f"pn-{OWN}-", "pn-fri-").split()
    replayed = json.loads(run("replay", "--json", "--hand", "pn-fri-31-163028618136200").output)
    theirs = json.loads(own("replay", "--json", "--hand",
                            f"pn-{OWN}-31-163028618136200").output)
    assert replayed["net"] == theirs["net"]
    assert replayed["net"]["ihgq0hrmf"] == 121 and replayed["net"]["Mdeyxwb"] == -106
    assert replayed["pots"] == theirs["pots"]


def test_act_names_a_player_of_a_live_hand_of_that_session(run) -> None:  # noqa: ANN001
    """A hand played live in the session, its seats the PokerNow ids: ``act`` takes the name
    the reads show (it was refused: no such player), ``state`` shows it."""
    _opened_then_imported(run)
    assert run("hand", "start", "--session", "fri", "--hand", "live1", "--game", "NT",
               "--stakes", "5/10", "--seats", "3r4cXeU7Dp:1000,R2MwqIZu29:1000,5ZxauEKa4C:1000",
               "--button", "3r4cXeU7Dp").exit_code == 0
    for who in ("yfg", "Ntunn", "sappxxu"):
        assert run("act", "live1", f"d dh {who} ????").exit_code == 0
    out = run("act", "live1", "sappxxu f")
    assert out.exit_code == 0, out.output
    assert out.output == "7 fold; yfg to act: to call 5, raise to 20..1000\n"
    state = run("state", "live1").output
    assert "stacks: yfg 995 bet 5, Ntunn 990 bet 10, sappxxu 1000 (folded)" in state


def test_the_catch_up_keeps_the_names(run, db) -> None:  # noqa: ANN001
    """Derived tables built, then a live hand in the session (no alias: only the session is
    caught up, not rebuilt): the nicknames the catch-up writes are still the names (it took
    the session for one of plain names and wrote none)."""
    _opened_then_imported(run)
    assert run("replay").exit_code == 0
    assert _derived(db) == NAMES
    assert run("hand", "start", "--session", "fri", "--hand", "live1", "--game", "NT",
               "--stakes", "5/10", "--seats", "3r4cXeU7Dp:1000,R2MwqIZu29:1000",
               "--button", "3r4cXeU7Dp").exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        behind = moved(ledger.connection)
    assert behind.full is None and behind.sessions == ("fri",)
    assert run("replay").exit_code == 0
    assert _derived(db) == NAMES
    assert {p: n for p, (n, _) in _nicknames(run).items()} == NAMES


def test_a_json_lines_copy_of_the_session_names_them_too(run, tmp_path) -> None:  # noqa: ANN001
    """The rule reads the stored payloads (the hands' source), which an export keeps: the
    session's JSON-lines export imported into another ledger shows the same names."""
    _opened_then_imported(run)
    copy = tmp_path / "fri.jsonl"
    assert run("export", "--format", "jsonl", "-o", str(copy)).exit_code == 0
    other = _runner(tmp_path / "copy.duckdb")
    assert other("import", str(copy)).exit_code == 0
    assert _nicknames(other) == _nicknames(run)
    assert {p: n for p, (n, _) in _nicknames(other).items()} == NAMES
