"""Sessions and the books through the CLI: a session built by hand with the commands, generated
series (clean and planted), balances, settle, sql, chart, export, aliases.

Runs every command with click's CliRunner on ledgers under tmp_path.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.copies import build_ledger, copy_ledger

Run = Callable[..., Result]

# Three players, blinds 1/2, 1 chip = 0.25 USD. Hand 1: Cy (50) is all-in, Ann calls, Bob
# folds his blind; Cy's aces win 102. Hand 2: Ann is all-in for 50, Cy calls, Cy's pair of
# aces beats queens (101): Ann is broke and rebuys 100. Hand 3: Bob raises to 6, Ann calls,
# Bob's flop bet of 10 is not called: he takes 13 and his 10 back (23).
# Nets: Ann -106, Bob +4, Cy +102; stacks at the end Ann 94, Bob 104, Cy 152.
HANDS = {
    "h1": ("Ann", "Bob", "Cy"), "h2": ("Bob", "Cy", "Ann"), "h3": ("Cy", "Ann", "Bob"),
}
PHH = {
    "h1": """variant = 'NT'
venue = 'friday'
hand = 1
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 50]
players = ['Ann', 'Bob', 'Cy']
actions = ['d dh p1 KsKd', 'd dh p2 7c2d', 'd dh p3 AsAh', 'p3 cbr 50', 'p1 cc', 'p2 f',
  'd db 2c3d8h', 'd db 9s', 'd db Tc', 'p1 sm KsKd', 'p3 sm AsAh']
winnings = [0, 0, 102]
""",
    "h2": """variant = 'NT'
venue = 'friday'
hand = 2
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [98, 102, 50]
players = ['Bob', 'Cy', 'Ann']
actions = ['d dh p1 7s2c', 'd dh p2 AdKd', 'd dh p3 QhQc', 'p3 cbr 50', 'p1 f', 'p2 cc',
  'd db Ac7c4h', 'd db 5c', 'd db 9d', 'p3 sm QhQc', 'p2 sm AdKd']
winnings = [0, 101, 0]
""",
    "h3": """variant = 'NT'
venue = 'friday'
hand = 3
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [153, 100, 97]
players = ['Cy', 'Ann', 'Bob']
actions = ['d dh p1 9c9d', 'd dh p2 JsTs', 'd dh p3 KhQh', 'p3 cbr 6', 'p1 f', 'p2 cc',
  'd db 2c3d8h', 'p2 cc', 'p3 cbr 10', 'p2 f']
winnings = [0, 0, 23]
""",
}


def runner_for(db: Path) -> Run:
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    return invoke


def _steps(tmp: Path) -> list[tuple[str, ...]]:
    """The commands that build the session of the module doc up to Bob's cash-out, its hand
    files written to ``tmp``; ``_last_steps`` are the rest."""
    files = {}
    for name, text in PHH.items():
        files[name] = tmp / f"{name}.phh"
        files[name].write_text(text, encoding="utf-8")
    return [
        ("session", "open", "friday", "--date", "2025-03-07", "--chip-value", "0.25",
         "--currency", "USD"),
        ("buyin", "friday", "Ann", "100"), ("buyin", "friday", "Bob", "100"),
        ("buyin", "friday", "Cy", "50"),
        ("import", "--session", "friday", str(files["h1"]), str(files["h2"])),
        ("buyin", "friday", "Ann", "100"),
        ("import", "--session", "friday", str(files["h3"])),
        ("cashout", "friday", "Ann", "94"), ("cashout", "friday", "Bob", "104"),
    ]


def _last_steps(cy_cash_out: int) -> list[tuple[str, ...]]:
    return [("cashout", "friday", "Cy", str(cy_cash_out)), ("session", "close", "friday")]


def _pay(run: Run) -> None:
    """Record every payment settle names."""
    transfers = json.loads(run("settle", "--session", "friday", "--json").output)
    for t in transfers["transfers"]:
        amount = f"{t['amount'] / 100:.2f}"
        assert run("pay", "friday", t["from"], t["to"], amount).exit_code == 0


def finish_session(cashed: Path, tmp: Path, *, cy_cash_out: int = 152, pay: bool = True
                   ) -> Run:
    """A copy of ``cashed`` in ``tmp`` with the session's last commands: Cy's cash-out, the
    close, and (``pay``) the payments settle names."""
    run = runner_for(copy_ledger(cashed, tmp / "friday.duckdb"))
    for step in _last_steps(cy_cash_out):
        out = run(*step)
        assert out.exit_code == 0, (step, out.output)
    if pay:
        _pay(run)
    return run


@pytest.fixture(scope="module")
def cashed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session of the module doc, built command by command in a new ledger up to Bob's
    cash-out (Cy's cash-out and the close not yet typed): built once for the module."""
    tmp = tmp_path_factory.mktemp("cashed")
    return build_ledger(tmp / "friday.duckdb", _steps(tmp))


@pytest.fixture(scope="module")
def unpaid(cashed: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session of the module doc, closed, no payment recorded (copy it to change it)."""
    tmp = tmp_path_factory.mktemp("unpaid")
    finish_session(cashed, tmp, pay=False)
    return tmp / "friday.duckdb"


@pytest.fixture(scope="module")
def paid(unpaid: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``unpaid`` with the payments settle names recorded (copy it to change it)."""
    db = copy_ledger(unpaid, tmp_path_factory.mktemp("paid") / "friday.duckdb")
    _pay(runner_for(db))
    return db


@pytest.fixture(scope="module")
def friday(paid: Path) -> Run:
    """``paid``, for the tests that only read it."""
    return runner_for(paid)


def test_hand_built_session_audits_clean(friday: Run) -> None:
    out = friday("audit")
    assert out.exit_code == 0, out.output
    assert "audit clean: 3 hand(s) in 1 session(s)" in out.output
    assert json.loads(friday("audit", "--json").output) == {"discrepancies": []}


def test_hand_built_session_rebuy_balances_and_settlement(friday: Run) -> None:
    players = {p["player"]: p for p in json.loads(friday("balances", "--json").output)["players"]}
    assert {p: (v["net"], v["buy_in"], v["cash_out"], v["hands"], v["sessions"])
            for p, v in players.items()} == {
        "Ann": (-106, 200, 94, 3, 1), "Bob": (4, 100, 104, 3, 1), "Cy": (102, 50, 152, 3, 1)}
    money = json.loads(friday("balances", "--money", "--json").output)["players"]
    assert {p["player"]: p["net"] for p in money} == {"Ann": -2650, "Bob": 100, "Cy": 2550}
    kinds = friday("sql", "--json", "SELECT payload->>'kind' AS kind FROM events "
                   "WHERE type = 'buy_in' ORDER BY position").output
    assert [r["kind"] for r in json.loads(kinds)] == ["buy_in", "buy_in", "buy_in", "rebuy"]
    settle = json.loads(friday("settle", "--session", "friday", "--json").output)
    assert settle["transfers"] == []  # Ann paid Bob 1.00 and Cy 25.50: nothing is owed
    assert "settled: nobody owes anybody (26.50 USD paid already)" in friday(
        "settle", "--session", "friday").output
    assert {(p["player"], p["paid_minor"], p["received_minor"]) for p in money} == {
        ("Ann", 2650, 0), ("Bob", 0, 100), ("Cy", 0, 2550)}
    text = friday("balances", "--money", "--session", "friday").output
    assert "-26.50" in text and "(USD)" in text


def test_one_chip_off_in_a_cash_out_names_the_player(cashed: Path, tmp_path: Path) -> None:
    run = finish_session(cashed, tmp_path, cy_cash_out=151)
    out = run("audit", "--json")
    assert out.exit_code == 1
    (finding,) = json.loads(out.output)["discrepancies"]
    assert finding == {
        "kind": "session_balance", "session": "friday", "hand": None, "player": "Cy",
        "name": "Cy", "expected": 152, "actual": 151,
        "message": "session friday: Cy cashed out 151 chips but the hands leave Cy 152 (-1)",
        "unit": "chips", "chip_value_minor": 25, "decimals": 2, "currency": "USD"}
    text = run("audit")
    assert text.exit_code == 1 and "Cy cashed out 151" in text.output
    # settle goes by the hands' nets and says the cash-outs do not match them (not in --json)
    assert run("settle").output == (
        "note: session friday: cash-outs differ from the chips its hands leave (Cy -1 chips); "
        "settle goes by the hands: `handledger audit --session friday` names each (a cash-out "
        "counted wrong: `handledger entry amend`; a hand not recorded: record it)\n"
        "settled: nobody owes anybody (26.50 USD paid already)\n")
    assert json.loads(run("settle", "--json").output) == {
        "transfers": [], "decimals": 2, "currency": "USD", "paid_already": 2650,
        "payments_recorded": 2650}
    money = json.loads(run("balances", "--money", "--json").output)
    assert (money["decimals"], money["currency"]) == (2, "USD")
    assert "currency" not in json.loads(run("balances", "--json").output)  # chips: no unit


def test_a_missing_settlement_payment_is_named(unpaid: Path, tmp_path: Path) -> None:
    run = runner_for(copy_ledger(unpaid, tmp_path / "friday.duckdb"))
    assert run("audit").exit_code == 0  # no payments recorded yet: nothing to check
    assert run("pay", "friday", "Ann", "Cy", "25.50").exit_code == 0
    out = run("audit", "--json")
    assert out.exit_code == 1
    (finding,) = json.loads(out.output)["discrepancies"]
    assert (finding["kind"], finding["player"], finding["expected"], finding["actual"]) == (
        "settlement", "Ann", -2650, -2550)
    assert "Ann must still pay Bob 1.00 USD" in finding["message"]


def test_jsonl_export_of_a_session_reimports_identically(friday: Run, tmp_path: Path) -> None:
    dump = friday("export", "--format", "jsonl").output
    assert '{"session":"friday","seq":1,"event":{"chip_value_minor":25,' in dump
    (tmp_path / "all.jsonl").write_text(dump, encoding="utf-8")
    other = runner_for(tmp_path / "other.duckdb")
    assert other("import", str(tmp_path / "all.jsonl")).exit_code == 0
    assert other("audit").exit_code == 0
    assert other("export", "--format", "jsonl").output == dump


def test_session_commands_refuse_bad_input(tmp_path: Path) -> None:
    run = runner_for(tmp_path / "x.duckdb")
    assert run("buyin", "nowhere", "Ann", "10").exit_code == 2
    assert run("session", "open", "s", "--chip-value", "0.255", "--currency", "USD"
               ).exit_code == 2
    assert run("session", "open", "s", "--date", "yesterday").exit_code == 2
    assert run("session", "open", "s", "--chip-value", "0.25", "--currency", "USD"
               ).exit_code == 0
    assert "already exists" in run("session", "open", "s").output
    assert run("pay", "s", "Ann", "Ann", "1").exit_code == 2
    assert run("pay", "s", "Ann", "Bob", "1.001").exit_code == 2
    assert run("session", "close", "s").exit_code == 0
    closed = run("buyin", "s", "Ann", "10")
    assert closed.exit_code == 2 and "closed" in closed.output
    assert run("audit", "--session", "nope").exit_code == 2


def test_a_currency_is_its_iso_code_in_capitals(tmp_path: Path) -> None:
    """``usd`` and ``USD`` would be two currencies to every comparison: refused, one line,
    nothing written, at open and at set."""
    run = runner_for(tmp_path / "x.duckdb")
    refusal = "a currency is its ISO 4217 code, three capital letters like USD or EUR"
    for given, hint in (("usd", ": did you mean USD?"), ("US Dollars", ""), ("€", ""),
                        ("US", "")):
        done = run("session", "open", "s", "--currency", given)
        assert (done.exit_code, done.output) == (2, f"error: --currency {given!r}: {refusal}"
                                                    f"{hint}\n")
    # nothing written: not even the ledger file the refused opens would have made
    assert "no ledger at" in run("session", "set", "s", "--chip-value", "1").output
    assert run("session", "open", "s", "--currency", "EUR").exit_code == 0
    done = run("session", "set", "s", "--chip-value", "0.5", "--currency", "eur")
    assert (done.exit_code, done.output) == (2, f"error: --currency 'eur': {refusal}: did "
                                                "you mean EUR?\n")
    assert "1.00 EUR" in run("session", "set", "s", "--chip-value", "1", "--currency", "EUR"
                             ).output


def test_a_currency_has_its_iso_4217_minor_units(tmp_path: Path) -> None:
    """KWD and BHD have 3 decimals, JPY none (ISO 4217's list); a code it does not list, or
    lists without minor units (gold), is refused in one line and nothing is written."""
    run = runner_for(tmp_path / "x.duckdb")
    done = run("session", "open", "k", "--chip-value", "0.125", "--currency", "KWD")
    assert done.exit_code == 0 and done.output.endswith(": 1 chip = 0.125 KWD\n")
    listed = json.loads(run("session", "list", "--json").output)["sessions"]
    assert [(s["session"], s["decimals"]) for s in listed] == [("k", 3)]
    done = run("session", "open", "b", "--chip-value", "1.5", "--currency", "BHD")
    assert done.exit_code == 0 and done.output.endswith(": 1 chip = 1.500 BHD\n")
    done = run("session", "open", "j", "--chip-value", "1.5", "--currency", "JPY")
    assert (done.exit_code, done.output) == (2, "error: --chip-value '1.5' is not a positive "
                                                "amount with at most 0 decimal place(s)\n")
    # 1 chip of k = 0.125 KWD = 125 fils: 8 chips are 1.000 KWD
    assert run("buyin", "k", "Ann", "8").exit_code == 0
    assert "1.000" in run("balances", "--session", "k", "--money").output
    done = run("session", "open", "x", "--currency", "XYZ")
    assert (done.exit_code, done.output) == (2, "error: --currency 'XYZ': not an ISO 4217 "
                                                "currency code\n")
    done = run("session", "open", "x", "--currency", "KWX")
    assert (done.exit_code, done.output) == (2, "error: --currency 'KWX': not an ISO 4217 "
                                                "currency code: did you mean KWD or KRW or "
                                                "KPW?\n")
    done = run("session", "open", "x", "--currency", "XAU")
    assert (done.exit_code, done.output) == (2, "error: --currency 'XAU': ISO 4217 gives Gold "
                                                "no minor unit (a metal, fund or test code), "
                                                "not money a session counts\n")
    done = run("session", "set", "k", "--chip-value", "1", "--currency", "XYZ")
    assert done.exit_code == 2 and "not an ISO 4217 currency code" in done.output
    listed = json.loads(run("session", "list", "--json").output)["sessions"]
    assert [s["session"] for s in listed] == ["k", "b"]


def test_a_rebuy_or_top_up_needs_a_buy_in_first(tmp_path: Path) -> None:
    run = runner_for(tmp_path / "x.duckdb")
    assert run("session", "open", "s").exit_code == 0
    for kind in ("rebuy", "top_up"):
        done = run("buyin", "s", "Ann", "100", "--kind", kind)
        word = kind.replace("_", "-")
        assert (done.exit_code, done.output) == (
            2, f"error: buyin s Ann --kind {kind}: Ann has no buy-in in s yet, and a {word} "
               "follows one (leave out --kind)\n")
    assert run("buyin", "s", "Ann", "100").output == "s: Ann buy-in 100 chips (entry 2)\n"
    assert run("buyin", "s", "Ann", "50", "--kind", "top_up").output == (
        "s: Ann top-up 50 chips (entry 3)\n")


def test_alias_maps_a_platform_id_to_the_player(paid: Path, tmp_path: Path) -> None:
    run = runner_for(copy_ledger(paid, tmp_path / "friday.duckdb"))
    assert run("player", "alias", "Cyrus", "Cy").exit_code == 0
    players = json.loads(run("balances", "--json").output)["players"]
    assert [p["player"] for p in players] == ["Cyrus", "Bob", "Ann"]
    assert run("audit").exit_code == 0
    rows = json.loads(run("sql", "--json", "SELECT DISTINCT player, seat_name FROM "
                          "player_hand_results WHERE seat_name = 'Cy'").output)
    assert rows == [{"player": "Cyrus", "seat_name": "Cy"}]


# ------------------------------------------------------------------------------ series


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Run:
    tmp = tmp_path_factory.mktemp("clean")
    run = runner_for(tmp / "clean.duckdb")
    out = run("demo-series", "--sessions", "4", "--hands", "40", "--seed", "3", str(tmp / "s"))
    assert out.exit_code == 0, out.output
    assert run("import", str(tmp / "s")).exit_code == 0
    return run


def test_clean_generated_series_audits_clean(clean: Run) -> None:
    out = clean("audit")
    assert out.exit_code == 0, out.output
    assert "160 hand(s) in 4 session(s)" in out.output


def test_standings_sum_to_zero_and_money_is_chips_times_chip_value(clean: Run) -> None:
    standings = json.loads(clean("sql", "--json", "SELECT * FROM standings").output)
    assert sum(r["net"] for r in standings) == 0
    assert sum(r["net_minor"] for r in standings) == 0
    assert all(r["net_minor"] == 25 * r["net"] for r in standings)
    chips = json.loads(clean("balances", "--json").output)["players"]
    money = json.loads(clean("balances", "--money", "--json").output)["players"]
    assert [p["player"] for p in chips] == [p["player"] for p in money]
    for c, m in zip(chips, money, strict=True):
        assert (m["net"], m["buy_in"], m["cash_out"]) == (25 * c["net"], 25 * c["buy_in"],
                                                           25 * c["cash_out"])
        assert (m["hands"], m["sessions"]) == (c["hands"], c["sessions"])
    assert {(r["player"], r["net"]) for r in standings} == {(p["player"], p["net"])
                                                            for p in chips}


def test_settle_transfers_reproduce_every_net(clean: Run) -> None:
    """What settle says to pay is each player's net less the payments already recorded."""
    for args in ((), ("--session", "s02")):
        nets = {p["player"]: p["net"] + p["paid_minor"] - p["received_minor"] for p in
                json.loads(clean("balances", "--money", "--json", *args).output)["players"]}
        transfers = json.loads(clean("settle", "--json", *args).output)["transfers"]
        got = dict.fromkeys(nets, 0)
        for t in transfers:
            assert t["amount"] > 0
            got[t["from"]] -= t["amount"]
            got[t["to"]] += t["amount"]
        assert got == nets
        assert len(transfers) <= max(0, len([n for n in nets.values() if n]) - 1)


def test_settle_before_any_payment_and_after_a_part_of_it(unpaid: Path, tmp_path: Path
                                                          ) -> None:
    """With no payment recorded settle pays every net; after Ann pays Cy, only her debt to
    Bob is left; `session list` says what is still owed, then that the session is settled."""
    run = runner_for(copy_ledger(unpaid, tmp_path / "friday.duckdb"))
    transfers = json.loads(run("settle", "--session", "friday", "--json").output)["transfers"]
    assert transfers == [
        {"session": "friday", "from": "Ann", "from_name": "Ann", "to": "Bob", "to_name": "Bob",
         "amount": 100},
        {"session": "friday", "from": "Ann", "from_name": "Ann", "to": "Cy", "to_name": "Cy",
         "amount": 2550}]
    assert "closed, 26.50 USD owed" in run("session", "list").output
    assert run("pay", "friday", "Ann", "Cy", "25.50").exit_code == 0
    assert run("settle", "--session", "friday").output.splitlines()[0] == \
        "Ann pays Bob 1.00 USD"
    assert "closed, 1.00 USD owed" in run("session", "list").output
    assert run("pay", "friday", "Ann", "Bob", "1").exit_code == 0
    assert "closed, settled" in run("session", "list").output


def test_sql_is_read_only_and_speaks_csv_and_json(clean: Run) -> None:
    for statement in ("DELETE FROM events", "CREATE TABLE x (a INT)",
                      "ATTACH 'other.duckdb' AS o", "SELECT 1; SELECT 2"):
        out = clean("sql", statement)
        assert out.exit_code == 2, statement
    leak = clean("sql", "SELECT * FROM read_csv('/etc/hostname')")
    assert leak.exit_code == 2
    csv_text = clean("sql", "--csv", "SELECT session, hands FROM sessions ORDER BY session")
    assert csv_text.output.splitlines() == ["session,hands", "s01,40", "s02,40", "s03,40",
                                            "s04,40"]
    table = clean("sql", "SELECT count(*) AS n FROM player_hand_results WHERE hand_id = "
                  "'s01-001'").output
    assert "(1 row)" in table
    pots = json.loads(clean("sql", "--json", "SELECT count(*) AS n FROM pots").output)
    assert pots[0]["n"] >= 160


def test_chart_and_export_include_the_views(clean: Run, tmp_path: Path) -> None:
    png = tmp_path / "net.png"
    assert clean("chart", str(png)).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = clean("export", "--format", "parquet", str(tmp_path / "pq"))
    assert out.exit_code == 0, out.output
    names = {p.stem for p in (tmp_path / "pq").iterdir()}
    assert {"events", "hands", "pots", "results", "sessions", "standings",
            "player_session_results", "player_hand_results", "audit_discrepancies"} <= names
    con = duckdb.connect()
    path = tmp_path / "pq" / "standings.parquet"
    assert con.execute(f"SELECT sum(net) FROM '{path}'").fetchone()[0] == 0


def test_planted_series_lists_exactly_the_planted_errors(tmp_path: Path) -> None:
    run = runner_for(tmp_path / "p.duckdb")
    out = run("demo-series", "--sessions", "4", "--hands", "40", "--seed", "3",
              "--plant-errors", str(tmp_path / "s"))
    planted = [line for line in out.output.splitlines() if line.startswith("planted ")]
    assert len(planted) == 4, out.output
    want = set()
    for line in planted:  # "planted KIND: hand H|session S, P1[, P2]: detail"
        kind, rest = line.removeprefix("planted ").split(": ", 1)
        where, *players = rest.split(": ", 1)[0].split(", ")
        want |= {(kind, where.split()[1], p) for p in players}
    assert run("import", str(tmp_path / "s")).exit_code == 0
    audit = run("audit", "--json")
    assert audit.exit_code == 1
    found = json.loads(audit.output)["discrepancies"]
    assert all(set(d) == {"kind", "session", "hand", "player", "name", "expected", "actual",
                          "message", "unit", "decimals", "currency"} | (
                              {"chip_value_minor"} if d["unit"] == "chips" else set())
               and d["name"] == d["player"] for d in found)
    got = [(d["kind"], d["hand"] or d["session"], d["player"]) for d in found]
    assert len(got) == 5 and set(got) == want
    assert sorted(d["kind"] for d in found) == ["payout", "payout", "session_balance",
                                                "settlement", "stack_continuity"]


def test_run_prints_the_audit_and_balances(tmp_path: Path) -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "series"
    out = runner_for(tmp_path / "r.duckdb")("run", str(data))
    assert out.exit_code == 0, out.output[-2000:]
    assert "audit clean: 90 hand(s) in 3 session(s)" in out.output
    assert "cash-out" in out.output.splitlines()[-9]


def test_every_new_command_has_help() -> None:
    runner = CliRunner()
    for args in (["session", "open"], ["session", "close"], ["session", "list"], ["buyin"],
                 ["cashout"], ["pay"], ["player", "alias"], ["audit"], ["balances"],
                 ["settle"], ["sql"], ["chart"], ["demo-series"]):
        out = runner.invoke(cli, [*args, "--help"])
        assert out.exit_code == 0 and "Usage:" in out.output, args


def test_settle_names_a_nonzero_total_in_money(run, tmp_path: Path) -> None:  # noqa: ANN001
    """The table paid 10 chips less than the pot (0.25 USD a chip): a hand read from a file
    (live, an end short of the pot is refused, and so is a correction that pays it short), Bob
    all-in for 150 against Ann's ace-king, who is paid 290 of the 300: the nets sum to -2.50
    USD and settle says so in money, not in minor units (found by a fresh-eyes test)."""
    short = tmp_path / "short.phh"
    short.write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [200, 150]\nplayers = ['Ann', 'Bob']\nactions = ['d dh p1 AsKs', "
        "'d dh p2 QhQd', 'p2 cbr 150', 'p1 cc', 'd db 2c7h9s', 'd db Kd', 'd db 3c', "
        "'p1 sm AsKs', 'p2 sm QhQd']\nwinnings = [290, 0]\n_hand_id = 'f1'\n",
        encoding="utf-8")
    run("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD")
    for player, chips in (("Ann", "200"), ("Bob", "150"), ("Cy", "300")):
        run("buyin", "fri", player, chips)
    assert run("import", "--session", "fri", str(short)).exit_code == 0
    out = run("settle", "--session", "fri")
    assert out.exit_code == 2
    assert ("cannot settle: the balances sum to -2.50 USD, not zero (see `handledger audit`)"
            in out.output)


def test_session_of_plain_chips_is_said_plain_chips(user) -> None:  # noqa: ANN001
    """``session open s`` without a chip value or currency said ``1 chip = 1``, a worth of
    nothing named; it says plain chips, while a chip
    value stays ``1 chip = …`` (``session set`` names the new one so too)."""
    assert user("session", "open", "s", "--date", "2026-12-07") == (
        0, "session s opened 2026-12-07: plain chips (no chip value or currency)\n", "")
    assert user("session", "set", "s", "--chip-value", "0.25", "--currency", "USD") == (
        0, "session s: 1 chip = 0.25 USD\n", "")
    assert user("session", "open", "t", "--date", "2026-12-07", "--chip-value", "0.01") == (
        0, "session t opened 2026-12-07: 1 chip = 0.01\n", "")


def test_help_names_what_json_gives_and_where_export_writes() -> None:
    """The --help of the commands a script reads names the --json fields (session list,
    balances' rules_net and payments, replay, history), export's folder and stdout, and
    demo-series' --sessions and --seed, which had no text."""
    runner = CliRunner()

    def helped(*args: str) -> str:
        out = runner.invoke(cli, [*args, "--help"])
        assert out.exit_code == 0, args
        return " ".join(out.output.split())

    assert ("without -o, to stdout; or the events and derived tables as parquet / csv files, "
            "one per table, into a directory: `export --format parquet DIR` or `-o DIR`"
            ) in helped("export")
    assert ('--json {"sessions": [{"session", "date", "opened", "closed", "settled", "hands", '
            '"hands_voided", "buy_ins", "buy_ins_retracted", "owed_minor", "decimals", '
            '"currency"}]} in ledger order') in helped("session", "list")
    demo = helped("demo-series")
    assert "--sessions INTEGER RANGE Sessions to deal, a JSON-lines file each." in demo
    assert ("--seed INTEGER Seed of the deal: the same seed deals the same series, another "
            "seed another one.") in demo
    assert ('"nickname", "rules_net", "paid_minor", "received_minor"}]'
            ) in helped("balances")
    assert ('One JSON object per hand: {"hand", "session", "game", "chip_value_minor", '
            '"currency", "decimals", "status", "verifiable", "pots": [{"amount",'
            ) in helped("replay")
    assert ('One JSON object: {"hand", "events": [{"seq", "position", "recorded_at", "type", '
            '"event"}], "amendments": [{"seq",') in helped("history")
