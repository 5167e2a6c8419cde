"""PokerNow at the command line (FORMATS.md §2): every real log imports, replays and audits; the
platform's ledger statement is compared with the replayed session; cut, restarted, repeated and
longer exports behave.

The real logs are read in place. The ledger CSVs and the damaged logs are made at test time from
the real files: ledger CSVs in PokerNow's exact columns with the values our replay gives, logs by
cutting or duplicating rows of the real exports (never hand-written hands).
"""

from __future__ import annotations

import csv
import json
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from cli.main import cli
from ledger.formats.pokernow.log import read_pokernow_log
from tests.conftest import SHARED
from tests.copies import copy_ledger

DATA = SHARED / "pokernow"
LOGS = sorted(DATA.glob("*.csv"))
RIT = DATA / "pokernowpy_run-it-twice.csv"
VK = DATA / "valakuzhyk_07_21_2022_log1.csv"
FULL = [p for p in LOGS if p != RIT]  # whole games; the run-it-twice file is an excerpt

#: Audit findings that are truly in the data, per log (all others audit clean). The run-it-twice
#: file is an excerpt holding only hands #30, #31 and #48 of its game: nobody's buy-in is in it,
#: so every player of #30 starts with chips the books never saw bought (expected 0), and hands
#: #32–#47 are missing, so every stack of #48 differs from what #31 left. #30 → #31 follows.
#: (hand number, player, expected, actual), chips in cents.
RIT_FINDINGS = {
    (30, "r6R7wIH3qS", 0, 672), (30, "R2MwqIZu29", 0, 2493), (30, "6sDYZfyXI8", 0, 812),
    (30, "HXN7RGKNLI", 0, 297), (30, "5ZxauEKa4C", 0, 1536), (30, "3r4cXeU7Dp", 0, 706),
    (48, "HXN7RGKNLI", 191, 157), (48, "5ZxauEKa4C", 1493, 1467),
    (48, "3r4cXeU7Dp", 1561, 1413), (48, "r6R7wIH3qS", 599, 1071),
    (48, "R2MwqIZu29", 2445, 2408),
}
LEDGER_HEAD = ["player_nickname", "player_id", "session_start_at", "session_end_at", "buy_in",
               "buy_out", "stack", "net"]


# -- helpers ---------------------------------------------------------------------------------


def _rows(log: Path) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of a real export, oldest first (the file is newest first)."""
    with log.open(encoding="utf-8-sig", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    return header, rows[::-1]


def _write(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    """Write ``rows`` (oldest first) as PokerNow does: newest first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows[::-1])
    return path


def _find(rows: list[list[str]], prefix: str, after: int = 0) -> int:
    return next(i for i, r in enumerate(rows) if i >= after and r[0].startswith(prefix))


def _later(row: list[str], hours: int) -> list[str]:
    """The row ``hours`` later: its ``at`` and its ``order`` (epoch ms × 100 + sequence)."""
    entry, at, order = row
    moved = datetime.fromisoformat(at.replace("Z", "+00:00")) + timedelta(hours=hours)
    text = moved.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return [entry, text, str(int(order) + hours * 3_600_000 * 100)]


def _json(run, *args: str):  # noqa: ANN001, ANN202
    out = run(*args)
    return out.exit_code, json.loads(out.output)


def _events(db: str) -> list[tuple]:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT type, count(*) FROM events GROUP BY type ORDER BY type"
                           ).fetchall()


def _books(run, session: str) -> list[dict[str, int]]:  # noqa: ANN001
    """Each player's buy_in, cash_out and on_table in ``session``, by player."""
    code, books = _json(run, "sql", "--json", "SELECT player, buy_in, cash_out, on_table FROM "
                        f"player_session_results WHERE session = '{session}' ORDER BY player")
    assert code == 0 and books
    return books


def _statement(run, log: Path, session: str, path: Path, *, bump: str | None = None,  # noqa: ANN001
               dollars: bool = False, books: list[dict[str, int]] | None = None) -> Path:
    """The PokerNow ledger CSV our replay implies for ``session``, in PokerNow's columns: per
    player a closed seat session (buy_out = his cash-outs) or, when he still has chips at the
    table, an open one (empty session_end_at and buy_out, stack = the chips); both when he has
    both. ``net = buy_out + stack − buy_in`` on each row, as the platform writes it. ``bump``:
    that player's buy_in and buy_out (stack, on an open row) one more, his net as it was (the
    nets still sum to zero). ``dollars``: amounts as decimals (a cents game). ``books``:
    :func:`_books` of the session, read already (the hands and entries unchanged since)."""
    books = _books(run, session) if books is None else books
    names = read_pokernow_log(log).players
    start, end = "2022-07-21T21:05:56.772Z", "2022-07-21T21:46:33.157Z"
    rows = []
    for b in books:
        seat = [names[b["player"]], b["player"], start]
        closed = b["cash_out"] > 0 or b["on_table"] == 0
        if closed:
            rows.append([*seat, end, b["buy_in"], b["cash_out"], 0])
        if b["on_table"]:
            rows.append([*seat, "", 0 if closed else b["buy_in"], "", b["on_table"]])
        if b["player"] == bump:
            rows[-1][4] += 1
            if rows[-1][5] == "":
                rows[-1][6] += 1
            else:
                rows[-1][5] += 1
    for r in rows:
        r.append((r[5] or 0) + r[6] - r[4])
        if dollars:
            r[4:] = ["" if v == "" else f"{v / 100:.2f}" for v in r[4:]]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(LEDGER_HEAD)
        writer.writerows(rows)
    return path


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """``imported(log)`` → a ledger holding only the real log ``log`` imported, built once for
    the module (the first time a test asks for it); copy it, never change it."""
    built: dict[Path, Path] = {}

    def ledger(log: Path) -> Path:
        if log not in built:
            db = tmp_path_factory.mktemp(log.stem) / "t.duckdb"
            out = CliRunner().invoke(cli, ["--db", str(db), "import", str(log)],
                                     catch_exceptions=False)
            assert out.exit_code == 0, out.output
            built[log] = db
        return built[log]

    return ledger


@pytest.fixture(scope="module")
def cut21(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger holding the valakuzhyk log cut at hand #21's flop (an export that stops
    there), under the log's own file name, imported (exit 0); built once for the module: copy
    it, never change it."""
    header, rows = _rows(VK)
    cut = _find(rows, "Flop", after=_find(rows, "-- starting hand #21 "))
    folder = tmp_path_factory.mktemp("cut21")
    log = _write(folder / "cut" / VK.name, header, rows[:cut])
    out = CliRunner().invoke(cli, ["--db", str(folder / "t.duckdb"), "import", str(log)],
                             catch_exceptions=False)
    assert out.exit_code == 0 and "imported 21 hand(s)" in out.output, out.output
    return folder / "t.duckdb"


# -- every real log --------------------------------------------------------------------------


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_log_imports_replays_and_audits(run, db, log, imported) -> None:  # noqa: ANN001
    copy_ledger(imported(log), Path(db))  # the import asserted exit 0 there
    replay = run("replay", "--json")
    assert replay.exit_code == 0, replay.output
    hands = [json.loads(line) for line in replay.output.splitlines()]
    assert hands and all(h["discrepancies"] == [] for h in hands)
    for h in hands:
        assert sum(h["net"].values()) == 0, h["hand"]
    code, audit = _json(run, "audit", "--json")
    found = {(int(d["hand"].split("-")[-2]), d["player"], d["expected"], d["actual"])
             for d in audit["discrepancies"]}
    if log == RIT:
        assert code == 1 and {d["kind"] for d in audit["discrepancies"]} == {"stack_continuity"}
        assert found == RIT_FINDINGS and len(audit["discrepancies"]) == len(RIT_FINDINGS)
    else:
        assert (code, audit) == (0, {"discrepancies": []})
    _, standings = _json(run, "sql", "--json", "SELECT sum(net) AS net FROM standings")
    assert standings == [{"net": 0}]
    before = _events(db)
    again = run("import", str(log))
    assert f"imported 0 hand(s) (0 events) from 1 file(s); {len(hands)} already" in again.output
    assert _events(db) == before
    con = duckdb.connect(db)
    assert con.execute("SELECT count(DISTINCT hand_id) FROM results").fetchone()[0] == len(hands)


def test_run_it_twice_pays_to_the_cent(run, db, imported) -> None:  # noqa: ANN001
    """Hand #30: 15.61 run twice → 7.81 on run 1 and 7.80 on run 2 (odd cent to run 1)."""
    copy_ledger(imported(RIT), Path(db))
    hands = {json.loads(line)["hand"]: json.loads(line)
             for line in run("replay", "--json").output.splitlines()}
    (hand,) = [h for k, h in hands.items() if "-30-" in k]
    (pot,) = hand["pots"]
    assert pot["amount"] == 1561 and pot["awards"] == {"sappxxu": 1561}  # 3r4cXeU7Dp
    assert pot["explanation"][0].endswith("781 on run 1, 780 on run 2 (odd chip to run 1 first).")
    assert pot["explanation"][1].startswith("Run 1 (Js 4d 8d 3s 9s), 781: sappxxu wins 781")
    assert pot["explanation"][2].startswith("Run 2 (Js 4d 8d 3s 2h), 780: sappxxu wins 780")
    assert hand["recorded"] == {"sappxxu": 1561}


# -- the platform's ledger -------------------------------------------------------------------


@pytest.mark.parametrize("log", FULL, ids=lambda p: p.stem)
def test_platform_ledger_audits_clean_then_names_the_one_changed_player(
        run, db, tmp_path, log, imported) -> None:  # noqa: ANN001
    session = log.stem
    copy_ledger(imported(log), Path(db))
    books = _books(run, session)  # a statement adds no hand or entry: read once
    clean = _statement(run, log, session, tmp_path / f"ledger_{session}.csv", books=books)
    out = run("import", str(log), "--ledger", str(clean))
    assert out.exit_code == 0, out.output
    assert "imported 0 hand(s) (1 events)" in out.output
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    run("import", str(log), "--ledger", str(clean))  # the same statement again: kept once
    assert dict(_events(db))["platform_ledger"] == 1
    # one player's buy_in and buy_out one more than the replay gives (one that cashed out, if
    # any): another statement of the game, refused beside the one in force
    first = min(books, key=lambda b: (b["cash_out"] == 0, b["player"]))  # the log's one session
    player, buy_in = first["player"], first["buy_in"]
    bumped = _statement(run, log, session, tmp_path / "bumped.csv", bump=player, books=books)
    out = run("import", str(log), "--ledger", str(bumped))
    assert out.exit_code == 2 and (
        f"error: --ledger {bumped}: session {session} has a ledger statement in force already "
        f"(ledger_{session}.csv), and this one differs from it: ") in out.output
    assert dict(_events(db))["platform_ledger"] == 1
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    # the bumped statement alone, into the log's ledger: the audit names the player
    _fresh(imported(log), Path(db))
    assert run("import", str(log), "--ledger", str(bumped)).exit_code == 0
    code, audit = _json(run, "audit", "--json")
    assert code == 1
    (d,) = audit["discrepancies"]
    assert (d["kind"], d["session"], d["hand"], d["player"]) == (
        "ledger_mismatch", session, None, player)
    assert (d["expected"], d["actual"]) == (buy_in, buy_in + 1)
    nickname = read_pokernow_log(log).players[player]
    assert f"for {nickname} ({player})" in d["message"]
    assert "(buy-ins +1, buy-outs +1)" in d["message"]


def _fresh(source: Path, db: Path) -> None:
    """``db`` made a copy of the ledger ``source`` again (whatever files it had beside it)."""
    for suffix in ("", ".wal", ".checkpoints"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    copy_ledger(source, db)


def test_platform_ledger_in_cents(run, db, tmp_path) -> None:  # noqa: ANN001
    """The run-it-twice game is in cents: PokerNow's ledger then gives cents (or dollars with
    two decimals, read as cents). Hands #30 and #31 of the excerpt (#48's rows cut off), with
    the buy-ins the excerpt lacks recorded by the host first: the stacks #30 starts with."""
    header, rows = _rows(RIT)
    log = _write(tmp_path / "rit.csv", header, rows[: _find(rows, "-- starting hand #48")])
    start = next(i for i in read_pokernow_log(log).items if getattr(i, "number", 0) == 30)
    assert run("session", "open", "rit", "--chip-value", "0.01").exit_code == 0
    for seat in start.events[0].seats:
        assert run("buyin", "rit", seat.player, str(seat.stack)).exit_code == 0
    assert run("import", str(log), "--session", "rit").exit_code == 0
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    before = copy_ledger(Path(db), tmp_path / "before.duckdb")
    books = _books(run, "rit")  # a statement adds no hand or entry: read once
    cents = _statement(run, log, "rit", tmp_path / "cents.csv", books=books)
    assert "2493,,2445,-48" in cents.read_text()  # yfg: 24.93 in, 24.45 left at the table
    assert run("import", str(log), "--session", "rit", "--ledger", str(cents)).exit_code == 0
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    dollars = _statement(run, log, "rit", tmp_path / "dollars.csv", dollars=True, books=books)
    assert "24.93,,24.45,-0.48" in dollars.read_text()
    out = run("import", str(log), "--session", "rit", "--ledger", str(dollars))
    assert out.exit_code == 0 and "(0 events)" in out.output, out.output  # the same: in force
    assert dict(_events(db))["platform_ledger"] == 1
    bumped = _statement(run, log, "rit", tmp_path / "bumped.csv", bump="6sDYZfyXI8",
                        dollars=True, books=books)
    assert run("import", str(log), "--session", "rit", "--ledger", str(bumped)).exit_code == 2
    _fresh(before, Path(db))  # the bumped statement alone
    out = run("import", str(log), "--session", "rit", "--ledger", str(bumped))
    assert out.exit_code == 0, out.output
    code, audit = _json(run, "audit", "--json")
    (d,) = audit["discrepancies"]
    assert code == 1 and (d["kind"], d["player"]) == ("ledger_mismatch", "6sDYZfyXI8")
    assert d["actual"] - d["expected"] == 1  # one cent


def test_platform_ledger_without_a_player_who_played(run, db, tmp_path, imported) -> None:  # noqa: ANN001
    """Hand-made statements of the first charlestudor log, whose books leave TA (gE4aE_Yhc3)
    103 of his 100 (+3), Anvjfbmj2 101 (+1) and Qapurjsa9 96 (-4). One that leaves TA out
    (his +3 in Anvjfbmj2's row, the nets still summing to zero) is stored as given, and the
    audit names both players: TA's row missing in so many words. One whose nets do not sum to
    zero (TA's stack 86, net -14) is refused whole, naming the file, its last row's line and
    every player's net and line, nothing written (FORMATS.md §2: a game's nets sum to
    zero)."""
    log = DATA / "charlestudor_Input_Log_001.csv"
    copy_ledger(imported(log), Path(db))
    head = "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"
    at = "2022-07-21T21:05:56.772Z"
    ok = {"TA": f"TA,gE4aE_Yhc3,{at},,100,,103,3", "An": f"Anvjfbmj2,ydk9sgEWl2,{at},,100,,101,1",
          "Qa": f"Qapurjsa9,BfS83Cedu3,{at},,100,,96,-4"}
    bad = tmp_path / "led_bad.csv"
    bad.write_text("\n".join([head, ok["TA"].replace(",103,3", ",86,-14"), ok["An"],
                              ok["Qa"]]) + "\n")
    events = _events(db)
    out = run("import", str(log), "--ledger", str(bad))
    assert (out.exit_code, out.output) == (2, (
        "error: led_bad.csv:4: the nets sum to -17, not zero: TA (gE4aE_Yhc3) -14 (line 2), "
        "Anvjfbmj2 (ydk9sgEWl2) +1 (line 3), Qapurjsa9 (BfS83Cedu3) -4 (line 4); the nets of "
        "a game's ledger sum to zero (FORMATS.md §2), so a row of it is wrong or missing; "
        "nothing was imported\n"))
    assert _events(db) == events
    missing = tmp_path / "led_miss.csv"
    missing.write_text("\n".join([head, ok["An"].replace(",101,1", ",104,4"), ok["Qa"]]) + "\n")
    assert run("import", str(log), "--ledger", str(missing)).exit_code == 0
    code, audit = _json(run, "audit", "--json")
    session = log.stem
    assert code == 1 and [(d["kind"], d["player"], d["expected"], d["actual"], d["message"])
                          for d in audit["discrepancies"]] == [
        ("ledger_mismatch", "ydk9sgEWl2", 1, 4, f"session {session}: the pokernow ledger "
         "led_miss.csv says buy-outs 104, net 4 for Anvjfbmj2 (ydk9sgEWl2) but the replayed "
         "session gives buy-outs 101, net 1 (buy-outs +3, net +3)"),
        ("ledger_mismatch", "gE4aE_Yhc3", 3, 0, f"session {session}: the pokernow ledger "
         "led_miss.csv has no row for TA (gE4aE_Yhc3), whom the replayed session gives buy-ins "
         "100, buy-outs 103, net 3 (buy-ins -100, buy-outs -103, net -3)")]


def test_platform_ledger_errors_name_the_file_and_line(run, db, tmp_path, imported) -> None:  # noqa: ANN001
    log = DATA / "charlestudor_Input_Log_001.csv"
    copy_ledger(imported(log), Path(db))
    bad = _statement(run, log, log.stem, tmp_path / "ledger.csv")
    lines = bad.read_text().splitlines()
    lines[2] = lines[2].rsplit(",", 1)[0] + ",12345"  # a net that is not buy_out + stack − buy_in
    bad.write_text("\n".join(lines) + "\n")
    out = run("import", str(log), "--ledger", str(bad))
    assert out.exit_code == 2
    assert out.output == ("error: ledger.csv:3: the net of TA (gE4aE_Yhc3) is 12345, not "
                          "buy_out 0 + stack 103 − buy_in 100 = 3; nothing was imported\n")
    out = run("import", str(log), str(VK), "--ledger", str(bad))
    assert out.exit_code == 2 and "give exactly one PokerNow log with it (2 given)" in out.output


# -- cut, restarted, repeated and longer exports ---------------------------------------------


def test_log_cut_mid_hand_imports_the_hand_incomplete_and_flags_it(run, db, cut21) -> None:  # noqa: ANN001
    """The export stops at hand #21's flop. The hand is imported incomplete; replay settles it
    like a void (every chip put in goes back) and notes it; the audit counts it so — at net 0,
    no discrepancy — and names it, in text and JSON."""
    copy_ledger(cut21, Path(db))  # its import said "imported 21 hand(s)", exit 0
    last = json.loads(run("replay", "--json").output.splitlines()[-1])
    assert last["status"] == "incomplete" and "-21-" in last["hand"]
    assert "incomplete: the log stops before the end of the hand" in last["notes"]
    assert set(last["net"].values()) == {0}  # its pots as they stood, nobody paid from them
    assert sum(p["amount"] for p in last["pots"]) == 460
    assert all(p["awards"] == {} for p in last["pots"])
    assert sum(last["returned"].values()) == 460  # blinds, calls and raises before the flop
    code, audit = _json(run, "audit", "--json")
    assert (code, audit) == (0, {"discrepancies": [], "incomplete_hands": [last["hand"]]})
    text = run("audit")  # named, not a discrepancy: clean, exit 0 (docs/IMPORTING.md)
    assert (text.exit_code, text.output.splitlines()) == (0, [
        "1 incomplete hand(s), the log stopping before their end, counted with every chip "
        f"returned: {last['hand']}",
        "audit clean: 21 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)"])


def test_restarted_hand_is_voided_and_its_chips_returned(run, tmp_path) -> None:  # noqa: ANN001
    """Hand #2 restarted: its first attempt (start, stacks, cards, blinds, a fold and the first
    raise: 10 + 20 + 45 chips in) is logged, then the hand starts again an hour later and plays
    out as in the real log."""
    header, rows = _rows(VK)
    two = _find(rows, "-- starting hand #2 ")
    raise_ = next(i for i in range(two, len(rows)) if " raises to " in rows[i][0])
    attempt = rows[two : raise_ + 1]
    assert len(attempt) == 7 and all(r[0].startswith(("-", "Player", "Your", '"'))
                                     for r in attempt)  # the hand's own lines only
    log = _write(tmp_path / VK.name, header,
                 rows[:two] + attempt + [_later(r, 1) for r in rows[two:]])
    out = run("import", str(log))
    assert out.exit_code == 0 and "imported 53 hand(s)" in out.output
    hands = [json.loads(line) for line in run("replay", "--json").output.splitlines()]
    voided, again = hands[1], hands[2]
    assert voided["status"] == "voided" and again["status"] == "complete"
    assert "voided: every contribution returned" in voided["notes"]
    assert set(voided["net"].values()) == {0} and sum(voided["returned"].values()) == 75
    assert voided["final_stacks"] == {p: again["final_stacks"][p] - again["net"][p]
                                      for p in again["net"]}
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})


def test_longer_export_of_the_same_game_adds_only_the_new_hands(
        run, db, tmp_path, imported) -> None:  # noqa: ANN001
    """First an export cut after hand #4 and the quit that follows it, then the whole game:
    the second import adds hands #5–#52 and the session lines after the cut, nothing twice."""
    header, rows = _rows(VK)
    quit_ = _find(rows, "The player", after=_find(rows, "-- ending hand #4 "))
    assert "quits the game" in rows[quit_][0]
    short = _write(tmp_path / "short" / VK.name, header, rows[: quit_ + 1])
    assert "imported 4 hand(s)" in run("import", str(short)).output
    out = run("import", str(VK))
    assert out.exit_code == 0, out.output
    assert "imported 48 hand(s)" in out.output
    assert "4 already in the ledger; 0 rejected" in out.output
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    whole = tmp_path / "whole.duckdb"  # the same events as the whole game imported at once
    copy_ledger(imported(VK), whole)
    assert _events(db) == _events(str(whole))


def test_two_games_in_one_session_keep_all_their_session_lines(run, db, tmp_path) -> None:  # noqa: ANN001
    """Two games into ``--session night``: log 002 and the same table dealt again a day later
    (every row of the real log a day later). Their session lines are the same at the same
    places, yet each game's are written (their keys name the game); the session opens once."""
    header, rows = _rows(DATA / "charlestudor_Input_Log_002.csv")
    first = _write(tmp_path / "a" / "game.csv", header, rows)
    second = _write(tmp_path / "b" / "game.csv", header, [_later(r, 24) for r in rows])
    for log in (first, second):
        assert run("import", str(log), "--session", "night").exit_code == 0
    apart = tmp_path / "apart.duckdb"  # each game in a session of its own
    for log, name in ((first, "a"), (second, "b")):
        CliRunner().invoke(cli, ["--db", str(apart), "import", str(log), "--session", name],
                           catch_exceptions=False)
    expected = dict(_events(str(apart)))
    expected["session_opened"] -= 1
    assert dict(_events(db)) == expected and expected["buy_in"] == 8


def test_errors_name_the_csv_line(run, tmp_path) -> None:  # noqa: ANN001
    header, rows = _rows(VK)
    i = _find(rows, "Your hand is", after=_find(rows, "-- starting hand #3 "))
    rows[i] = ["Your hand is J♥, 1X", *rows[i][1:]]
    log = _write(tmp_path / VK.name, header, rows)
    line = next(n for n, text in enumerate(log.read_text().splitlines(), 1) if "1X" in text)
    out = run("import", str(log))
    assert out.exit_code == 2
    (three,) = [h.hand_id for h in read_pokernow_log(log).items if getattr(h, "number", 0) == 3]
    assert f"{VK.name}:{line}, hand {three}, action 'Your hand is J♥, 1X'" in out.output
    # hand #3 is refused whole (a line of it cannot be read), and #4-#52 follow it (FORMATS.md
    # §2: the stacks carry from hand to hand): they were written
    assert "imported 2 hand(s)" in out.output
    assert "0 already in the ledger; 50 rejected" in out.output
    assert "hands #4 to #52 (49 hands) follow the refused hand #3" in out.output
    assert run("history", three).exit_code == 2  # nothing of it written


# -- names -----------------------------------------------------------------------------------


def test_balances_show_the_latest_nickname_with_the_id(run, tmp_path) -> None:  # noqa: ANN001
    """Players are PokerNow ids; balances print ``nickname (id)`` with the id's latest name.
    Here HXN7RGKNLI renames himself from hand #48 on (his name changed in those rows)."""
    header, rows = _rows(RIT)
    h48 = _find(rows, "-- starting hand #48")
    renamed = [[r[0].replace('"Mdeyxwb @ HXN7RGKNLI"', '"Mdey 2 @ HXN7RGKNLI"'), *r[1:]]
               for r in rows[h48:]]
    log = _write(tmp_path / RIT.name, header, rows[:h48] + renamed)
    assert run("import", str(log)).exit_code == 0
    text = run("balances").output
    assert "Mdey 2 (HXN7RGKNLI)" in text and "sappxxu (3r4cXeU7Dp)" in text
    assert "Mdeyxwb" not in text
    players = {p["player"]: p for p in json.loads(run("balances", "--json").output)["players"]}
    assert players["HXN7RGKNLI"]["nickname"] == "Mdey 2"
    # a series name given by the host wins: no nickname then
    assert run("player", "alias", "Marty", "HXN7RGKNLI").exit_code == 0
    players = {p["player"]: p for p in json.loads(run("balances", "--json").output)["players"]}
    assert "HXN7RGKNLI" not in players and players["Marty"]["nickname"] is None
    assert "\nMarty " in run("balances").output


def test_balances_name_a_player_who_played_no_hand(run, tmp_path) -> None:  # noqa: ANN001
    """The first charlestudor log with a fourth player, Zed Q (zzZ9pQ1abc), approved and
    seated with 100 before hand #1 and quitting with his 100 after hand #4: he played no hand,
    yet balances and standings name him as the others, ``Zed Q (zzZ9pQ1abc)``, by the name
    his PokerNow lines give him, not by his bare id. Net 0 (100 cashed out of 100 bought),
    the others' as the log leaves them (TA +3, Anvjfbmj2 +1, Qapurjsa9 -4)."""
    log = DATA / "charlestudor_Input_Log_001.csv"
    header, rows = _rows(log)
    zed = '"Zed Q @ zzZ9pQ1abc"'
    approved = [f"The admin approved the player {zed} participation with a stack of 100.",
                "2022-01-13T19:49:21.000Z", "164210336100000"]
    joined = [f"The player {zed} joined the game with a stack of 100.",
              "2022-01-13T19:52:11.993Z", "164210353199304"]
    quits = [f"The player {zed} quits the game with a stack of 100.",
             "2022-01-13T19:53:20.000Z", "164210360000000"]
    rows = sorted([*rows, approved, joined, quits], key=lambda r: int(r[2]))
    assert run("import", str(_write(tmp_path / log.name, header, rows))).exit_code == 0
    assert run("balances").output.splitlines() == [
        "player                          net       buy-in     cash-out  hands sessions",
        "TA (gE4aE_Yhc3)                   3          100            0      4        1",
        "Anvjfbmj2 (ydk9sgEWl2)            1          100            0      4        1",
        "Zed Q (zzZ9pQ1abc)                0          100          100      0        1",
        "Qapurjsa9 (BfS83Cedu3)           -4          100            0      4        1"]
    assert [line.split() for line in run("standings").output.splitlines()
            if "zzZ9pQ1abc" in line] == [["Zed", "Q", "(zzZ9pQ1abc)", "0", "0"]]
    players = {p["player"]: p for p in json.loads(run("balances", "--json").output)["players"]}
    assert (players["zzZ9pQ1abc"]["name"], players["zzZ9pQ1abc"]["nickname"]) == (
        "Zed Q", "Zed Q")


def test_replay_json_names_the_players_as_the_text_does(run, tmp_path) -> None:  # noqa: ANN001
    """Hand #1 of the valakuzhyk log: the text table and the JSON name each player by the name
    he played under (Hznmh#9009 is 1RhUayZFQU), never by his PokerNow id; the numbers are the
    log's (Hznmh#9009 small blind 10, then raises to 180 of which 120 comes back uncalled:
    he takes the 160 pot, +100)."""
    header, rows = _rows(VK)
    log = _write(tmp_path / VK.name, header, rows[:_find(rows, "-- starting hand #2 ")])
    assert run("import", str(log)).exit_code == 0
    text = run("replay").output
    hand = json.loads(run("replay", "--json").output)
    assert hand["net"] == {"Hznmh#9009": 100, "Aab Ovwsi": -20, "IpusyM": 0,
                           "Efvoziamtgktl": -20, "Erhradnpmi3": 0, "gaxdqwmwksve": -60,
                           "Phzd Juwvifsvh": 0, "sjfid753": 0}
    assert hand["pots"] == [{
        "amount": 160, "eligible": ["Hznmh#9009"], "awards": {"Hznmh#9009": 160}, "carried": 0,
        "explanation": ["Main pot 160 (Hznmh#9009): Hznmh#9009 takes 160; nobody else is "
                        "eligible."]}]
    assert hand["returned"] == {"Hznmh#9009": 120} and hand["recorded"] == {"Hznmh#9009": 280}
    assert hand["final_stacks"]["Hznmh#9009"] == 1100 and len(hand["final_stacks"]) == 8
    for player, net in hand["net"].items():  # the text's row of the same player
        assert f"│ {player} " in text and f"{net:+d} │" in text
    assert "1RhUayZFQU" not in text and "1RhUayZFQU" not in json.dumps(hand)


def test_import_dir_takes_the_pokernow_logs_and_leaves_other_csv_files(run, tmp_path) -> None:  # noqa: ANN001
    """``import DIR`` finds PokerNow logs by their header; a ledger statement (it needs its
    log: ``--ledger``) and any other CSV are left alone, not reported as errors."""
    folder = tmp_path / "night"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / VK.name).write_bytes(b"\xef\xbb\xbf" + VK.read_bytes())  # with a BOM
    (folder / "ledger_x.csv").write_text(
        "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net\n",
        encoding="utf-8")
    (folder / "expenses.csv").write_text("what,amount\npizza,30\n", encoding="utf-8")
    hands = sum(1 for i in read_pokernow_log(VK).items if getattr(i, "number", None))
    out = run("import", str(folder))
    assert out.exit_code == 0, out.output
    assert f"imported {hands} hand(s)" in out.output and "from 1 file(s)" in out.output


def test_longer_export_completes_the_hand_a_shorter_one_cut(
        run, db, tmp_path, imported, cut21) -> None:  # noqa: ANN001
    """Hand #21 is cut at its flop by the first export; the whole game's export then carries
    it to the end. The stored events stay; one correction on #21 replaces its ``incomplete``
    ending with the rest of the hand, so every hand, net and audit equals the whole game
    imported at once, and importing the whole game again adds nothing."""
    copy_ledger(cut21, Path(db))  # the first export, imported
    out = run("import", str(VK))
    assert out.exit_code == 0, out.output
    assert ("imported 31 hand(s)" in out.output and "21 already in the ledger" not in out.output
            and "1 cut-off hand(s) completed from this longer export" in out.output)
    con = duckdb.connect(db)
    ((hand, n),) = con.execute(
        "SELECT hand_id, count(*) FROM events WHERE type = 'correction' GROUP BY hand_id"
    ).fetchall()
    con.close()
    assert "-21-" in hand and n == 1
    history = run("history", hand).output
    assert "completed from a longer export" in history and "by import" in history
    assert "True" not in history and " face up" in history  # the board's flags in words
    whole = copy_ledger(imported(VK), tmp_path / "whole.duckdb")  # the whole game at once
    ours = json.loads(run("replay", "--json", "--hand", hand).output)
    theirs = json.loads(CliRunner().invoke(
        cli, ["--db", str(whole), "replay", "--json", "--hand", hand]).output)
    assert ours["status"] == "complete" and ours["discrepancies"] == []
    _, flags = _json(run, "sql", "--json", f"SELECT status, corrected FROM hands "
                     f"WHERE hand_id = '{hand}'")
    assert flags == [{"status": "complete", "corrected": True}]
    assert (ours["net"], ours["final_stacks"]) == (theirs["net"], theirs["final_stacks"])
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    ledger_net = _json(run, "sql", "--json", "SELECT player, net FROM standings ORDER BY ALL")
    whole_net = CliRunner().invoke(cli, ["--db", str(whole), "sql", "--json",
                                         "SELECT player, net FROM standings ORDER BY ALL"])
    assert ledger_net[1] == json.loads(whole_net.output)
    again = run("import", str(VK))
    assert "imported 0 hand(s) (0 events)" in again.output and "completed" not in again.output


def test_the_same_game_under_another_file_name_is_the_same_session(run, tmp_path) -> None:  # noqa: ANN001
    """A game is known by its first hand, not its file name: a cut export saved as cut.csv
    and then the whole log make one session, the cut hand completed, no buy-in twice."""
    header, rows = _rows(VK)
    cut = _find(rows, "Flop", after=_find(rows, "-- starting hand #21 "))
    assert run("import", str(_write(tmp_path / "cut.csv", header, rows[:cut]))).exit_code == 0
    out = run("import", str(VK))
    assert out.exit_code == 0 and "1 cut-off hand(s) completed" in out.output
    _, sessions = _json(run, "sql", "--json", "SELECT DISTINCT session FROM events")
    assert sessions == [{"session": "cut"}]
    assert _json(run, "audit", "--json") == (0, {"discrepancies": []})
    again = run("import", str(_write(tmp_path / "copy" / "renamed.csv", header, rows)))
    assert "imported 0 hand(s) (0 events)" in again.output
