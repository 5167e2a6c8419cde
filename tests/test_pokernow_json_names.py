"""Every read's JSON names a PokerNow player as its text does (README, "PokerNow"): a field
that holds one player (``player``; ``from``, ``to``) keeps his stored PokerNow id, with the
name the text shows beside it (``name``; ``from_name``, ``to_name``); the keys of a hand's
maps, its lists of players and the messages carry that name; events stay as stored. Two
players who share a name are told apart as the text tells them (``Sam (id)``; the legend of
``chart`` too), and a host's
``player alias NAME ID`` is the name everywhere. Real logs of ../shared/data/pokernow, in
process.

The second charlestudor log: A8 is gE4aE_Yhc3, "ksv @ ycx" YJJJbgIQrB, "uhuhqb""''' is
6OQxLdU_ZO, @ovvkpfngo@@@ CzMp1GAawT. Hand #1: ksv @ ycx wins the 120 pot (+70) against
"uhuhqb""''' (-50), @ovvkpfngo@@@ folds his 20 (-20); each of the three buys in 50 and ends
the game with nothing, A8 with all 200 (+150).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.copies import copy_ledger
from tests.test_live_table import one_shot

LOG2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
LOG1 = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
RIT = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
S2 = "charlestudor_Input_Log_002"
RIT_S = "pokernowpy_run-it-twice"
HAND1 = "pn-charlestudor_Input_Log_002-1-164267577749500"
HAND2 = "pn-charlestudor_Input_Log_002-2-164267583814001"
UH = "\"uhuhqb\"\"'''"
#: ``pay "uhuhqb""''' 120`` for ``pay ksv @ ycx 120``: hand #1's pot to the loser
TO_UH = ("--replace", "19", f"pay {UH} 120")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pnjson") / "pn.duckdb"
    code, out, err = one_shot(db, "import", str(LOG2), str(RIT))
    assert code == 0, (out, err)
    return db


@pytest.fixture
def db(imported: Path, tmp_path: Path) -> Path:
    return copy_ledger(imported, tmp_path / "copy.duckdb")


def _json(db: Path, *args: str) -> tuple[int, object]:
    code, out, err = one_shot(db, *args)
    assert out, err
    return code, json.loads(out)


def test_settle_gives_the_ids_and_the_names(imported: Path) -> None:
    code, body = _json(imported, "settle", "--session", S2, "--json")
    assert code == 0 and body == {"transfers": [
        {"session": S2, "from": "6OQxLdU_ZO", "from_name": UH, "to": "gE4aE_Yhc3",
         "to_name": "A8", "amount": 50},
        {"session": S2, "from": "CzMp1GAawT", "from_name": "@ovvkpfngo@@@",
         "to": "gE4aE_Yhc3", "to_name": "A8", "amount": 50},
        {"session": S2, "from": "YJJJbgIQrB", "from_name": "ksv @ ycx", "to": "gE4aE_Yhc3",
         "to_name": "A8", "amount": 50}], "decimals": 0, "currency": None,
         "paid_already": 0, "payments_recorded": 0}
    code, text, _ = one_shot(imported, "settle", "--session", S2)
    assert text.splitlines()[:3] == [f"{t['from_name']} pays {t['to_name']} 50 chips"
                                     for t in body["transfers"]]


def test_audit_gives_the_id_the_name_and_the_text_message(imported: Path) -> None:
    """The run-it-twice excerpt: OjtkunxseAbye (r6R7wIH3qS) sits down in hand #30 with 672
    cents no buy-in brought; Mdeyxwb (HXN7RGKNLI) left #31 with 191 and starts #48 with 157."""
    code, body = _json(imported, "audit", "--session", RIT_S, "--json")
    found = body["discrepancies"]
    assert code == 1 and len(found) == 11
    assert found[0] == {
        "kind": "stack_continuity", "session": RIT_S,
        "hand": "pn-pokernowpy_run-it-twice-30-163028603289300", "player": "r6R7wIH3qS",
        "name": "OjtkunxseAbye", "expected": 0, "actual": 672,
        "message": "hand pn-pokernowpy_run-it-twice-30-163028603289300: OjtkunxseAbye starts "
                   "with 672 but OjtkunxseAbye has no buy-in: expected 0 (+672)",
        "unit": "chips", "chip_value_minor": 1, "decimals": 2, "currency": None}  # cents
    mdey = [d for d in found if d["player"] == "HXN7RGKNLI"]
    assert [(d["name"], d["expected"], d["actual"]) for d in mdey] == [
        ("Mdeyxwb", 0, 297), ("Mdeyxwb", 191, 157)]
    _, text, _ = one_shot(imported, "audit", "--session", RIT_S)
    assert [line.split(": ", 1)[1].split(" [")[0] for line in text.splitlines()[:11]] == [
        d["message"] for d in found]


def test_whatif_keys_by_name_and_keeps_the_events_as_stored(imported: Path) -> None:
    code, w = _json(imported, "whatif", HAND1, *TO_UH, "--json")
    assert code == 0
    rules = {"@ovvkpfngo@@@": -20, UH: -50, "ksv @ ycx": 70, "A8": 0}
    assert w["before"] == w["after"] == w["paid_before"] == rules
    assert w["paid_after"] == {"@ovvkpfngo@@@": -20, UH: 70, "ksv @ ycx": -50, "A8": 0}
    assert w["paid_diff"] == {"@ovvkpfngo@@@": 0, UH: 120, "ksv @ ycx": -120, "A8": 0}
    assert w["downstream"] == [{"hand": HAND2, "player": "YJJJbgIQrB", "name": "ksv @ ycx",
                                "starting": 120, "expected": 0, "was": 120, "diff": 120,
                                "as_played": True}]  # dealt on HAND1 as it stood: it stands
    assert w["session"] == {
        "name": S2, "before": {"@ovvkpfngo@@@": -50, UH: -50, "ksv @ ycx": -50, "A8": 150},
        "after": {"@ovvkpfngo@@@": -50, UH: 70, "ksv @ ycx": -170, "A8": 150},
        "diff": {"@ovvkpfngo@@@": 0, UH: 120, "ksv @ ycx": -120, "A8": 0}}
    assert w["discrepancies_after"] == [
        f"hand {HAND1}: {UH} was paid 120, the rules give 0 (+120)",
        f"hand {HAND1}: ksv @ ycx was paid 0, the rules give 120 (-120)"]
    (change,) = w["changes"]  # the event a correction would store: the id
    assert (change["op"], change["seq"], change["event"]["player"],
            change["event"]["amount"]) == ("replace", 19, "6OQxLdU_ZO", 120)


def test_replay_names_a_discrepancy_as_audit_does(db: Path) -> None:
    code, _, err = one_shot(db, "correct", HAND1, *TO_UH, "--reason", "misread", "--by", "host")
    assert code == 0, err
    code, hand = _json(db, "replay", "--hand", HAND1, "--json")
    assert code == 1 and hand["net"] == {"@ovvkpfngo@@@": -20, UH: -50, "ksv @ ycx": 70,
                                         "A8": 0}
    assert hand["recorded"] == {UH: 120} and hand["pots"][0]["awards"] == {"ksv @ ycx": 120}
    assert [(d["player"], d["name"], d["recorded"], d["recomputed"]) for d in
            hand["discrepancies"]] == [("6OQxLdU_ZO", UH, 120, 0),
                                       ("YJJJbgIQrB", "ksv @ ycx", 0, 120)]
    _, audit = _json(db, "audit", "--session", S2, "--json")
    payout = [d for d in audit["discrepancies"] if d["kind"] == "payout"]
    assert [(d["player"], d["name"], d["message"]) for d in payout] == [
        (d["player"], d["name"], d["message"]) for d in hand["discrepancies"]]


def test_balances_and_standings_name_a_hand_in_progress(db: Path) -> None:
    """A live hand of the session seated by name: A8 posts the small blind of 1, ksv @ ycx the
    big blind of 2 (he quit the game with 0, A8 left it with 200)."""
    code, out, err = one_shot(db, "hand", "start", "--session", S2, "--game", "NT", "--stakes",
                            "1/2", "--seats", "A8:100,ksv @ ycx:100", "--button", "A8",
                            "--hand", "live1")
    assert (code, out) == (0, "live1\n")
    # its warnings name them so too; a command to type keeps the id
    assert err.splitlines() == [
        f"warning: ksv @ ycx cashed out 0 chips in session {S2} (entry 19) and has not bought "
        f"in since (`handledger entry retract {S2} 19 --reason … --by …` if the cash-out was "
        f"wrong, or record a buy-in: `handledger buyin {S2} YJJJbgIQrB CHIPS --before live1`)",
        "warning: A8 starts hand live1 with 100 chips, 200 after hand "
        "pn-charlestudor_Input_Log_002-4-164267592456700 with nothing bought since: a stack "
        "counted short?; the audit's stack continuity will name it"]
    open_hand = [{"hand": "live1", "session": S2, "pot": 3,
                  "players": {"ksv @ ycx": 2, "A8": 1}}]
    _, books = _json(db, "balances", "--session", S2, "--json")
    assert [(p["player"], p["name"], p["nickname"], p["net"]) for p in books["players"]] == [
        ("gE4aE_Yhc3", "A8", "A8", 149), ("6OQxLdU_ZO", UH, UH, -50),
        ("CzMp1GAawT", "@ovvkpfngo@@@", "@ovvkpfngo@@@", -50),
        ("YJJJbgIQrB", "ksv @ ycx", "ksv @ ycx", -52)]
    assert books["in_progress"] == open_hand
    _, grid = _json(db, "standings", "--json")
    assert grid["in_progress"] == open_hand
    row = next(p for p in grid["players"] if p["player"] == "3r4cXeU7Dp")
    assert (row["name"], row["nickname"], row["nets"]) == ("sappxxu", "sappxxu",
                                                           {RIT_S: 855})


def test_two_players_of_one_name_stay_apart(tmp_path: Path) -> None:
    """The first charlestudor log with Qapurjsa9 (BfS83Cedu3) renamed Anvjfbmj2, the name of
    ydk9sgEWl2 too: each shows as ``Anvjfbmj2 (id)``, in the keys of a hand and in settle.
    Hand #2: BfS83Cedu3 posts the big blind of 2 and folds, ydk9sgEWl2 the small blind of 1,
    TA takes the 5 pot (+3)."""
    log = tmp_path / LOG1.name
    log.write_text(LOG1.read_text(encoding="utf-8-sig").replace(
        "Qapurjsa9 @ BfS83Cedu3", "Anvjfbmj2 @ BfS83Cedu3"), encoding="utf-8")
    db = tmp_path / "dup.duckdb"
    assert one_shot(db, "import", str(log))[0] == 0
    ann_y, ann_b = "Anvjfbmj2 (ydk9sgEWl2)", "Anvjfbmj2 (BfS83Cedu3)"
    _, hand = _json(db, "replay", "--hand", "pn-charlestudor_Input_Log_001-2-164210354621900",
                    "--json")
    assert hand["net"] == {ann_y: -1, ann_b: -2, "TA": 3}
    _, body = _json(db, "settle", "--json")
    assert body["transfers"] == [
        {"session": "charlestudor_Input_Log_001", "from": "BfS83Cedu3", "from_name": ann_b,
         "to": "gE4aE_Yhc3", "to_name": "TA", "amount": 3},
        {"session": "charlestudor_Input_Log_001", "from": "BfS83Cedu3", "from_name": ann_b,
         "to": "ydk9sgEWl2", "to_name": ann_y, "amount": 1}]
    _, books = _json(db, "balances", "--json")
    assert {p["player"]: (p["name"], p["nickname"]) for p in books["players"]} == {
        "gE4aE_Yhc3": ("TA", "TA"), "ydk9sgEWl2": (ann_y, "Anvjfbmj2"),
        "BfS83Cedu3": (ann_b, "Anvjfbmj2")}
    # the chart's legend too (an SVG keeps its text): each name with his total
    code, out, _ = one_shot(db, "chart", str(tmp_path / "c.svg"))
    svg = (tmp_path / "c.svg").read_text(encoding="utf-8")
    assert code == 0 and all(f">{label}<" in svg for label in (
        "TA (+3)", f"{ann_y} (+1)", f"{ann_b} (-4)"))


def test_stack_continuity_names_a_player_as_every_finding_does(tmp_path: Path) -> None:
    """The audit's findings all name a PokerNow player by the one label (his name, ``name
    (id)`` once two ids share it), the JSON keeping his id as ``player`` and the label as
    ``name``. The first charlestudor log with Qapurjsa9 (BfS83Cedu3) renamed Anvjfbmj2, the
    name of ydk9sgEWl2 too, and his stack in hand #4's stacks line (line 10) 106, not the
    96 hand #3 left him; then cashed out with 50: stack_continuity and session_balance name
    him alike, ``Anvjfbmj2 (BfS83Cedu3)``, as the import's warning does."""
    rows = LOG1.read_text(encoding="utf-8-sig").split("\n")
    assert '""Qapurjsa9 @ BfS83Cedu3"" (96)' in rows[9]
    rows[9] = rows[9].replace("(96)", "(106)")
    log = tmp_path / LOG1.name
    log.write_text("\n".join(rows).replace("Qapurjsa9 @ BfS83Cedu3", "Anvjfbmj2 @ BfS83Cedu3"),
                   encoding="utf-8")
    db = tmp_path / "dup.duckdb"
    session, ann_b = "charlestudor_Input_Log_001", "Anvjfbmj2 (BfS83Cedu3)"
    hand3, hand4 = (f"pn-{session}-3-164210356587500", f"pn-{session}-4-164210359269400")
    assert one_shot(db, "import", str(log))[::2] == (0, (
        f"warning: {log}:10: hand {hand4}: {ann_b} starts with 106 but had 96 after the "
        "previous hand and the session lines (stored; the audit reports it)\n"))
    assert one_shot(db, "cashout", session, "BfS83Cedu3", "50")[:2] == (
        0, f"{session}: {ann_b} cashed out 50 chips (entry 11)\n")
    stack = (f"hand {hand4}: {ann_b} starts with 106 but {ann_b} left hand {hand3} with 96 "
             "and bought nothing: expected 96 (+10)")
    balance = (f"session {session}: {ann_b} cashed out 50 chips but the hands leave {ann_b} "
               "106 (-56)")
    assert one_shot(db, "audit") == (1, (
        f"stack_continuity: {stack} [session {session}, hand {hand4}, player {ann_b}; "
        "expected 96, actual 106]\n"
        f"session_balance: {balance} [session {session}, player {ann_b}; expected 106, "
        "actual 50]\n"
        "audit: 2 discrepancies (stack_continuity 1, session_balance 1); "
        "4 hand(s) in 1 session(s) checked\n"), "")
    assert _json(db, "audit", "--json") == (1, {"discrepancies": [
        {"kind": "stack_continuity", "session": session, "hand": hand4,
         "player": "BfS83Cedu3", "name": ann_b, "expected": 96, "actual": 106,
         "message": stack,
         "unit": "chips", "chip_value_minor": 1, "decimals": 0, "currency": None},
        {"kind": "session_balance", "session": session, "hand": None,
         "player": "BfS83Cedu3", "name": ann_b, "expected": 106, "actual": 50,
         "message": balance,
         "unit": "chips", "chip_value_minor": 1, "decimals": 0, "currency": None}]})


def test_a_host_alias_is_the_name_everywhere(db: Path) -> None:
    """`player alias Marty HXN7RGKNLI` (Mdeyxwb, who owes 263 cents of the run-it-twice
    excerpt): the books know him as Marty, and so do settle, replay and the audit."""
    code, out, _ = one_shot(db, "player", "alias", "Marty", "HXN7RGKNLI", "--session", RIT_S)
    assert (code, out) == (0, "HXN7RGKNLI is Marty\n")
    _, body = _json(db, "settle", "--session", RIT_S, "--json")
    assert [t for t in body["transfers"] if t["amount"] == 263] == [
        {"session": RIT_S, "from": "Marty", "from_name": "Marty", "to": "3r4cXeU7Dp",
         "to_name": "sappxxu", "amount": 263}]
    _, text, _ = one_shot(db, "settle", "--session", RIT_S)
    assert "Marty pays sappxxu 2.63" in text.splitlines()
    _, hand = _json(db, "replay", "--hand", "pn-pokernowpy_run-it-twice-30-163028603289300",
                    "--json")
    assert hand["final_stacks"]["Marty"] == 297 and "HXN7RGKNLI" not in json.dumps(hand)
    _, audit = _json(db, "audit", "--session", RIT_S, "--json")
    assert [(d["player"], d["name"], d["actual"]) for d in audit["discrepancies"]
            if "Marty" in d["message"]] == [("Marty", "Marty", 297), ("Marty", "Marty", 157)]


VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"


def test_an_alias_of_a_pokernow_name_of_another_week_names_his_id(tmp_path: Path) -> None:
    """``player alias Anvjfbmj2 IpusyM``, IpusyM the name the valakuzhyk log gave f-mUxYkHrq
    (-1000 there), Anvjfbmj2 ydk9sgEWl2's of the first charlestudor log (+1): IpusyM stands
    for his id, as ``pay`` takes him, and the two are one player in standings, balances and
    settle. Before, the alias said ``IpusyM is Anvjfbmj2`` and changed nothing (his hands and
    entries are stored under the id). His label ``IpusyM (f-mUxYkHrq)`` names the id too."""
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(LOG1), "--session", "w1")[0] == 0
    assert one_shot(db, "import", str(VK), "--session", "w3")[0] == 0
    # two players of one game stay refused, OTHER named with the id it stands for
    assert one_shot(db, "player", "alias", "Anvjfbmj2", "TA") == (
        2, "", "error: Anvjfbmj2 and TA (gE4aE_Yhc3) sat in hand pn-w1-1-164210353199300 "
        "together: they are two players, not one (no alias recorded)\n")
    assert one_shot(db, "player", "alias", "Anvjfbmj2", "IpusyM") == (
        0, "IpusyM (f-mUxYkHrq) is Anvjfbmj2\n", "")
    _, text, _ = one_shot(db, "standings")
    assert [r for r in text.splitlines() if "Anvj" in r or "Ipus" in r] == [
        "Anvjfbmj2 (ydk9sgEWl2)               1      -1000         -999"]
    _, books = _json(db, "balances", "--json")
    assert [(p["player"], p["name"], p["net"]) for p in books["players"]
            if p["player"] in ("ydk9sgEWl2", "f-mUxYkHrq")] == [
        ("ydk9sgEWl2", "Anvjfbmj2 (ydk9sgEWl2)", -999)]
    _, text, _ = one_shot(db, "settle")
    assert [r for r in text.splitlines() if "Anvj" in r or "Ipus" in r] == [
        "Qapurjsa9 pays Anvjfbmj2 (ydk9sgEWl2) 1 chip in session w1",
        "Anvjfbmj2 (ydk9sgEWl2) pays Aab Ovwsi 1000 chips in session w3"]
    # taken back by the id it named; then the label names the id as well
    assert one_shot(db, "player", "unalias", "f-mUxYkHrq", "--reason", "r", "--by", "h") == (
        0, "f-mUxYkHrq is no longer Anvjfbmj2\n", "")
    assert one_shot(db, "player", "alias", "Anvjfbmj2", "IpusyM (f-mUxYkHrq)") == (
        0, "IpusyM (f-mUxYkHrq) is Anvjfbmj2\n", "")
    _, books = _json(db, "balances", "--json")
    assert [p["net"] for p in books["players"] if p["player"] == "ydk9sgEWl2"] == [-999]


def test_an_alias_of_a_name_two_pokernow_players_share_is_refused(tmp_path: Path) -> None:
    """The first charlestudor log with Qapurjsa9 (BfS83Cedu3) renamed Anvjfbmj2, the name of
    ydk9sgEWl2 too: ``player alias IpusyM Anvjfbmj2`` cannot say which id, so it is refused
    naming both, nothing recorded; his label (or his id) names the one meant."""
    log = tmp_path / LOG1.name
    log.write_text(LOG1.read_text(encoding="utf-8-sig").replace(
        "Qapurjsa9 @ BfS83Cedu3", "Anvjfbmj2 @ BfS83Cedu3"), encoding="utf-8")
    db = tmp_path / "dup.duckdb"
    assert one_shot(db, "import", str(log), "--session", "w1")[0] == 0
    assert one_shot(db, "import", str(VK), "--session", "w3")[0] == 0
    _, before, _ = one_shot(db, "history", "--session", "w3")
    assert one_shot(db, "player", "alias", "IpusyM", "Anvjfbmj2") == (
        2, "", "error: Anvjfbmj2 is the PokerNow name of 2 players (BfS83Cedu3, ydk9sgEWl2): "
        "name the one meant by his id (`handledger player alias IpusyM BfS83Cedu3`); nothing "
        "recorded\n")
    assert one_shot(db, "history", "--session", "w3")[1] == before
    assert one_shot(db, "player", "alias", "IpusyM", "Anvjfbmj2 (BfS83Cedu3)") == (
        0, "Anvjfbmj2 (BfS83Cedu3) is IpusyM\n", "")
    _, books = _json(db, "balances", "--json")
    assert {p["player"]: p["net"] for p in books["players"]
            if p["player"] in ("f-mUxYkHrq", "BfS83Cedu3", "ydk9sgEWl2")} == {
        "f-mUxYkHrq": -1004, "ydk9sgEWl2": 1}


def test_a_hand_page_names_the_players(db: Path, tmp_path: Path) -> None:
    """`view` and the report's page of hand #1: seats, payouts and the page's data name the
    players as the reads do, never by id; a `player alias` redraws the report's pages."""
    page = tmp_path / "h1.html"
    assert one_shot(db, "view", HAND1, "-o", str(page))[0] == 0
    html = page.read_text(encoding="utf-8")
    assert "YJJJbgIQrB" not in html and "6OQxLdU_ZO" not in html
    assert '<span class="seat-name">ksv @ ycx</span>' in html
    assert '<th scope="row" class="name">A8</th>' in html
    assert '"awards":{"ksv @ ycx":120}' in html  # the data the page's script steps through
    site = tmp_path / "site"
    assert one_shot(db, "report", str(site))[0] == 0
    assert (site / "hands" / f"{HAND1}.html").read_text(encoding="utf-8").count(
        "ksv @ ycx") == html.count("ksv @ ycx")
    assert one_shot(db, "player", "alias", "Kev", "YJJJbgIQrB", "--session", S2)[0] == 0
    code, out, _ = one_shot(db, "report", str(site))
    assert code == 0 and "7 hand page(s) written, 0 unchanged" in out  # every name is in the key
    again = (site / "hands" / f"{HAND1}.html").read_text(encoding="utf-8")
    assert '<span class="seat-name">Kev</span>' in again and "ksv @ ycx" not in again


def test_run_names_the_players_as_audit_does(tmp_path: Path) -> None:
    """`run` on a folder of the run-it-twice excerpt: its audit lines are `audit`'s."""
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / RIT.name).write_bytes(RIT.read_bytes())
    code, out, _ = one_shot(tmp_path / "run.duckdb", "run", str(folder))
    assert code == 0
    assert ("stack_continuity: hand pn-pokernowpy_run-it-twice-30-163028603289300: "
            "OjtkunxseAbye starts with 672 but OjtkunxseAbye has no buy-in: expected 0 (+672) "
            f"[session {RIT_S}, hand pn-pokernowpy_run-it-twice-30-163028603289300, player "
            "OjtkunxseAbye; expected 0, actual 672; amounts in chips of 0.01]") in out.splitlines()
    assert "r6R7wIH3qS" not in out.replace("OjtkunxseAbye (r6R7wIH3qS)", "")


def test_replay_notes_name_the_short_raiser(tmp_path: Path) -> None:
    """Hand #18 of the valakuzhyk log: IpusyM (f-mUxYkHrq) bets 145, the first bet of the
    round, where 150 is the minimum, covering everyone; the text's note names him as its JSON
    does, and calls it a bet."""
    db = tmp_path / "vk.duckdb"
    assert one_shot(db, "import", str(SHARED / "pokernow" /
                                      "valakuzhyk_07_21_2022_log1.csv"))[0] == 0
    hand = "pn-valakuzhyk_07_21_2022_log1-18-165843894900602"
    note = ("IpusyM's bet to 145 is below the minimum 150 but covers every opponent (each is "
            "all-in or covered by it): accepted: no chip changes hands otherwise (RULES.md §1.7)")
    _, data = _json(db, "replay", "--hand", hand, "--json")
    assert data["notes"] == [note]
    _, text, _ = one_shot(db, "replay", "--hand", hand)
    assert "note: IpusyM's bet to 145" in text and "f-mUxYkHrq" not in text


def test_a_name_turned_round_is_the_latest_alias_everywhere(tmp_path: Path) -> None:
    """``player alias Dave A8``, ``player alias Dave Player7``, then ``player alias Player7
    Dave``: the latest says Dave is Player7, so A8 (gE4aE_Yhc3) is Player7 in every read.
    Hand #4: A8 and "ksv @ ycx" 100 each, A8's straight wins the 200 pot; the game: A8 +150.
    ``show``, ``state`` and the report's hand page named him Dave while ``balances`` and
    ``standings`` said Player7 (or ``Dave (Player7)``, the host's row read as a nickname)."""
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(LOG2))[0] == 0
    for name, other in (("Dave", "A8"), ("Dave", "Player7"), ("Player7", "Dave")):
        assert one_shot(db, "player", "alias", name, other)[0] == 0
    hand4 = "pn-charlestudor_Input_Log_002-4-164267592456700"
    _, text, _ = one_shot(db, "show", hand4)
    assert text.splitlines()[0] == (f"hand {hand4}: NT, button Player7; seats ksv @ ycx 100, "
                                    "Player7 100")
    _, text, _ = one_shot(db, "state", hand4)
    assert text.splitlines()[-3:] == [
        "Main pot 200 (ksv @ ycx, Player7): Player7 wins 200 with straight, five high.",
        "paid: Player7 200", "stacks after the hand: ksv @ ycx 0, Player7 200"]
    _, text, _ = one_shot(db, "balances")
    assert text.splitlines()[1] == ("Player7                             150           50"
                                    "            0      4        1")
    _, text, _ = one_shot(db, "standings")
    assert text.splitlines()[1] == ("Player7                                           150"
                                    "          150")
    site = tmp_path / "site"
    assert one_shot(db, "report", str(site))[0] == 0
    page = (site / "hands" / f"{hand4}.html").read_text(encoding="utf-8")
    assert '<span class="seat-name">Player7</span>' in page and "Dave" not in page
