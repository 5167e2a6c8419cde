"""Hands of no session count chips of their own unit (the ``unit`` of each one's
``hand_started``): a PHH hand in plain chips, one in cents of USD and a JSON-lines hand of
0.25 USD chips are never added up as one unit (docs/BOOKS.md "Chips of different values"), in
balances, standings, chart, settle or the SQL view ``standings``.

Each hand is three-handed, p1 Ann small blind, p2 Bob big blind, p3 Cy raises and both fold:
Cy wins the blinds. In plain chips (blinds 1/2) Cy +3, Ann -1, Bob -2; in cents of USD
(blinds 0.50/1.00) Cy +150, Ann -50, Bob -100 chips of 0.01 USD; the same hand in chips of
0.25 USD is Cy +150, Ann -50, Bob -100 chips of 0.25 USD (37.50, -12.50, -25.00 USD)."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.audit.books import HandFacts, SeriesFold, build_series
from replay.merge import merge_loose
from replay.partition import PartResult
from tests.test_standings_units import build, run

_HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [{sb}, {bb}, 0]
min_bet = {bb}
starting_stacks = [{stack}, {stack}, {stack}]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 cbr {raise_to}', 'p1 f', 'p2 f']
players = ['Ann', 'Bob', 'Cy']
hand = {number}
"""


def _plain(tmp: Path) -> Path:
    path = tmp / "plain.phh"
    path.write_text(_HAND.format(sb=1, bb=2, stack=200, raise_to=6, number=1),
                    encoding="utf-8")
    return path


def _cents(tmp: Path) -> Path:
    path = tmp / "usd.phh"
    path.write_text(_HAND.format(sb="0.50", bb="1.00", stack="100.00", raise_to="3.00",
                                 number=2) + "currency = 'USD'\n", encoding="utf-8")
    return path


def _quarters(tmp: Path, db: Path) -> Path:
    """The cents hand as JSON lines (``export``), renamed, its chips worth 0.25 USD."""
    out = tmp / "cents.jsonl"
    assert run(db, "export", "--format", "jsonl", "usd-2", "-o", str(out)).exit_code == 0
    lines = []
    for line in out.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        row["hand"] = "q-3"
        row.pop("source_key", None)  # another hand: not the PHH file's hand the key names
        if "hand" in row["event"]:
            row["event"]["hand"] = "q-3"
        if row["event"]["type"] == "hand_started":
            row["event"]["unit"]["minor_per_chip"] = 25
            row["event"]["source"] = {}
        lines.append(json.dumps(row))
    path = tmp / "quarters.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_plain_chips_and_cents_of_no_session_are_a_table_each(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    build(db, ("import", str(_plain(tmp_path)), str(_cents(tmp_path))))
    out = run(db, "balances")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [  # not Cy +153, Ann -51, Bob -102 of one unit
        "plain chips (no session):",
        "player                  net       buy-in     cash-out  hands sessions",
        "Cy                        3            0            0      1        0",
        "Ann                      -1            0            0      1        0",
        "Bob                      -2            0            0      1        0",
        "chips of 0.01 USD (no session):",
        "player                  net       buy-in     cash-out  hands sessions",
        "Cy                      150            0            0      1        0",
        "Ann                     -50            0            0      1        0",
        "Bob                    -100            0            0      1        0",
        "note: the hands read count chips of different values ((no session): plain chips; "
        "(no session): 1 chip = 0.01 USD): they do not add up, so each value has its own "
        "table; and plain chips have no money value, so money does not add up either"]
    body = json.loads(run(db, "balances", "--json").output)
    assert body["units"] == [
        {"chip_value_minor": 1, "decimals": 0, "currency": None, "sessions": [""]},
        {"chip_value_minor": 1, "decimals": 2, "currency": "USD", "sessions": [""]}]
    assert [(p["player"], p["net"], [u["net"] for u in p["by_unit"]], p["hands"])
            for p in body["players"]] == [
        ("Cy", None, [3, 150], 2), ("Ann", None, [-1, -50], 2), ("Bob", None, [-2, -100], 2)]
    grid = run(db, "standings")
    assert grid.output.splitlines()[:5] == [
        "player     (no session, chips) (no session, 0.01 USD)  total chips total 0.01 USD",
        "Cy                           3                    150            3            150",
        "Ann                         -1                    -50           -1            -50",
        "Bob                         -2                   -100           -2           -100",
        "(sum)                        0                      0            0              0"]
    as_json = json.loads(run(db, "standings", "--json").output)
    assert [s.get("unit") for s in as_json["sessions"]] == [
        {"chip_value_minor": 1, "decimals": 0, "currency": None},
        {"chip_value_minor": 1, "decimals": 2, "currency": "USD"}]
    # each column joins the nets: its "key" (the "" of hands of no session, whose "session"
    # is null) and its place in the list under it (it said null beside "" before)
    assert [(s["session"], s["key"], s["unit_index"]) for s in as_json["sessions"]] == [
        (None, "", 0), (None, "", 1)]
    assert [[p["nets"][s["key"]][s["unit_index"]] for s in as_json["sessions"]]
            for p in as_json["players"]] == [[3, 150], [-1, -50], [-2, -100]]
    assert [(p["player"], p["nets"], p["total"], p["totals"]) for p in as_json["players"]] == [
        ("Cy", {"": [3, 150]}, None, [3, 150]), ("Ann", {"": [-1, -50]}, None, [-1, -50]),
        ("Bob", {"": [-2, -100]}, None, [-2, -100])]
    sql = run(db, "sql", "SELECT player, net, net_minor, chip_value_minor, currency, decimals"
              " FROM standings ORDER BY decimals, player", "--json")
    assert json.loads(sql.output) == [
        {"player": "Ann", "net": -1, "net_minor": -1, "chip_value_minor": 1, "currency": None,
         "decimals": 0},
        {"player": "Bob", "net": -2, "net_minor": -2, "chip_value_minor": 1, "currency": None,
         "decimals": 0},
        {"player": "Cy", "net": 3, "net_minor": 3, "chip_value_minor": 1, "currency": None,
         "decimals": 0},
        {"player": "Ann", "net": -50, "net_minor": -50, "chip_value_minor": 1,
         "currency": "USD", "decimals": 2},
        {"player": "Bob", "net": -100, "net_minor": -100, "chip_value_minor": 1,
         "currency": "USD", "decimals": 2},
        {"player": "Cy", "net": 150, "net_minor": 150, "chip_value_minor": 1,
         "currency": "USD", "decimals": 2}]
    books = json.loads(run(db, "sql", "SELECT session, chip_value_minor, currency, decimals,"
                           " hands, players, discrepancies FROM sessions", "--json").output)
    assert books == [
        {"session": None, "chip_value_minor": 1, "currency": None, "decimals": 0, "hands": 1,
         "players": 3, "discrepancies": 0},
        {"session": None, "chip_value_minor": 1, "currency": "USD", "decimals": 2, "hands": 1,
         "players": 3, "discrepancies": 0}]
    hands = json.loads(run(db, "sql", "SELECT hand_id, player, net, net_minor, currency FROM"
                           " player_hand_results WHERE player = 'Cy' ORDER BY ord",
                           "--json").output)
    assert [(h["hand_id"], h["net"], h["net_minor"], h["currency"]) for h in hands] == [
        ("plain-1", 3, 3, None), ("usd-2", 150, 150, "USD")]
    # plain chips have no money value: no sum in money, no chart of one running net
    # no --session reads hands of no session apart: the refusal names the units and says
    # what can be read
    mixed = ("error: the hands read use different currencies or decimals ((no session): plain "
             "chips, no currency; (no session): USD, 2 decimals): hands of no session have no "
             "session to name with --session; ")
    by_unit = "`handledger balances` without --money gives a table per unit\n"
    for command, advice in ((("balances", "--money"), by_unit),
                            (("standings", "--money"),
                             "show the standings in chips (without --money)\n"),
                            (("chart", str(tmp_path / "c.png"), "--money"), by_unit)):
        refused = run(db, *command)
        assert (refused.exit_code, refused.output) == (2, mixed + advice), command
    # settle has no session to settle them in: it says so, as README "settle" does (it gave
    # the refusal above, naming --money, which settle has not)
    settled = run(db, "settle")
    assert (settled.exit_code, settled.output) == (0, (
        "hands of no session (2 hand(s)): not settled: no `pay` records them, and no "
        "session's books hold them (`handledger balances` without --money gives their "
        "table)\n"))
    chart = run(db, "chart", str(tmp_path / "c.png"))
    assert chart.exit_code == 2 and not (tmp_path / "c.png").exists()
    assert chart.output.startswith(
        "error: the hands read count chips of different values ((no session): plain chips; "
        "(no session): 1 chip = 0.01 USD), which do not add up into one running net")


def test_cents_and_quarters_of_no_session_add_up_in_money(tmp_path: Path) -> None:
    """Cy +150 cents and +150 quarters: 1.50 + 37.50 = 39.00 USD; Ann -0.50 - 12.50 =
    -13.00 USD; Bob -1.00 - 25.00 = -26.00 USD."""
    db = tmp_path / "t.duckdb"
    build(db, ("import", str(_cents(tmp_path))))
    build(db, ("import", str(_quarters(tmp_path, db))))
    body = json.loads(run(db, "balances", "--json").output)
    assert [(u["chip_value_minor"], u["currency"]) for u in body["units"]] == [
        (1, "USD"), (25, "USD")]
    assert [(p["player"], [u["net"] for u in p["by_unit"]]) for p in body["players"]] == [
        ("Cy", [150, 150]), ("Ann", [-50, -50]), ("Bob", [-100, -100])]
    money = json.loads(run(db, "balances", "--money", "--json").output)
    assert [(p["player"], p["net"]) for p in money["players"]] == [
        ("Cy", 3900), ("Ann", -1300), ("Bob", -2600)]
    assert "unbalanced" not in money
    grid = json.loads(run(db, "standings", "--money", "--json").output)
    # money adds up: one column, its key in the nets ""
    assert grid["sessions"] == [{"session": None, "date": None, "key": ""}]
    assert [(p["player"], p["nets"], p["total"]) for p in grid["players"]] == [
        ("Cy", {"": 3900}, 3900), ("Ann", {"": -1300}, -1300), ("Bob", {"": -2600}, -2600)]
    settle = json.loads(run(db, "settle", "--json").output)
    assert [(t["from"], t["to"], t["amount"]) for t in settle["transfers"]] == [
        ("Ann", "Cy", 1300), ("Bob", "Cy", 2600)]
    assert run(db, "chart", str(tmp_path / "c.png")).exit_code == 2
    charted = run(db, "chart", "--money", str(tmp_path / "m.png"))
    assert charted.exit_code == 0, charted.output
    assert (tmp_path / "m.png").stat().st_size > 0
    # the site: a standings column per unit, each net with its money; one page of no session
    assert run(db, "report", str(tmp_path / "site")).exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert index.count('class="name">(no session)</a> <span class="unit">(0.25 USD)</span>') == 1
    assert ('<td data-session=""><span class="chips">+150</span> <span class="money">'
            '(+37.50 USD)</span></td>') in index
    assert ('<td data-session=""><span class="chips">+150</span> <span class="money">'
            '(+1.50 USD)</span></td>') in index
    assert '<span class="money">(+39.00 USD)</span>' in index  # Cy's total in money
    page = (tmp_path / "site" / "sessions" / "~no-session.html").read_text(encoding="utf-8")
    assert "2 hand(s), 3 player(s)" in page
    assert ('<span class="name">Ann</span> <span class="unit">(0.25 USD)</span></th>'
            ) in page


def test_one_unit_of_no_session_keeps_one_book(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    other = tmp_path / "more"
    other.mkdir()
    build(db, ("import", str(_cents(tmp_path))))
    (other / "usd.phh").write_text(_cents(tmp_path).read_text(encoding="utf-8").replace(
        "hand = 2", "hand = 4"), encoding="utf-8")
    build(db, ("import", str(other / "usd.phh")))
    body = json.loads(run(db, "balances", "--json").output)
    assert list(body) == ["players"]
    assert [(p["player"], p["net"], p["hands"]) for p in body["players"]] == [
        ("Cy", 300, 2), ("Ann", -100, 2), ("Bob", -200, 2)]
    rows = run(db, "sql", "SELECT session, chip_value_minor, currency, decimals FROM"
               " session_book", "--json").output
    assert json.loads(rows) == [{"session": None, "chip_value_minor": 1, "currency": "USD",
                                 "decimals": 2}]


def _facts(hand: str, position: int, unit: tuple[int, str | None, int],
           net: dict[str, int]) -> HandFacts:
    return HandFacts(hand=hand, session=None, ord=position, position=position, game="NT",
                     status="complete", starting={p: 100 for p in net},
                     contributions={p: max(0, -n) for p, n in net.items()},
                     paid={p: max(0, n) for p, n in net.items()}, net=net, pot_out=None,
                     unit=unit)


_HANDS = [_facts("a", 1, (1, None, 0), {"Ann": 5, "Bob": -5}),
          _facts("b", 2, (1, "USD", 2), {"Ann": -40, "Bob": 40}),
          _facts("c", 3, (1, None, 0), {"Ann": 7, "Bob": -7}),
          _facts("d", 4, (1, "USD", 2), {"Ann": -1, "Cy": 1})]


def test_the_fold_keeps_a_book_per_unit_and_partitions_merge_to_it() -> None:
    """Plain chips: Ann +5 +7 = +12, Bob -12; cents: Ann -40 -1 = -41, Bob +40, Cy +1."""
    book = build_series([], _HANDS).sessions[None]
    assert book.hand_count == 4 and len(book.hands) == 4
    assert {unit: (sub.hand_count, sub.first, {p: b.net for p, b in sub.players.items()})
            for unit, sub in book.by_unit.items()} == {
        (1, None, 0): (2, 1, {"Ann": 12, "Bob": -12}),
        (1, "USD", 2): (2, 2, {"Ann": -41, "Bob": 40, "Cy": 1})}
    # two partitions of a distributed replay, each a share of the hands of no session
    parts = []
    for share in (_HANDS[:1] + _HANDS[2:3], _HANDS[1:2] + _HANDS[3:]):
        fold = SeriesFold([])
        result = PartResult({}, [], {})
        for h in share:
            fold.add(h)
            for p in h.starting:
                result.last_seen[p] = result.last_by_unit.setdefault(h.unit, {})[p] = (
                    h.position)
        result.books = fold.finish().sessions
        assert not result.books[None].by_unit  # one unit each
        parts.append(result)
    merged = merge_loose(parts)
    assert merged is not None
    assert {unit: (sub.hand_count, sub.first, {p: b.net for p, b in sub.players.items()})
            for unit, sub in merged.by_unit.items()} == {
        unit: (sub.hand_count, sub.first, {p: b.net for p, b in sub.players.items()})
        for unit, sub in book.by_unit.items()}
    assert list(merged.by_unit) == list(book.by_unit)


def test_the_sessions_view_counts_each_units_hands_and_findings(tmp_path: Path) -> None:
    """A plain-chip PHH hand of 1100 chips paid 1090 (a payout finding) beside the plain and
    the cents hands: the plain book has 2 hands and the finding, the cents book none."""
    db = tmp_path / "t.duckdb"
    short = tmp_path / "short.phh"
    text = (Path(__file__).resolve().parent.parent / "data" / "hands" / "plo-three-way.phh"
            ).read_text(encoding="utf-8")
    short.write_text(text.replace("winnings = [0, 0, 1100]", "winnings = [0, 0, 1090]"),
                     encoding="utf-8")
    build(db, ("import", str(_plain(tmp_path)), str(_cents(tmp_path)), str(short)))
    books = json.loads(run(db, "sql", "SELECT chip_value_minor, currency, hands, players,"
                           " discrepancies FROM sessions", "--json").output)
    assert [(b["currency"], b["hands"], b["players"], b["discrepancies"]) for b in books] == [
        (None, 2, 6, 1), ("USD", 1, 3, 0)]
    body = json.loads(run(db, "balances", "--json").output)
    assert body["unbalanced"] == [
        {"chip_value_minor": 1, "decimals": 0, "currency": None, "net_sum": -10}]
