"""A ledger's exports imported back, the one after the other: the same hands are already in
the ledger whatever shape each export gives them. A ledger built from a PHH export holds
the hands as PHH says them (one payout a player); the JSON-lines export of the ledger they
came from holds them as the site paid them (an uncalled bet returned apart, a side pot of
its own): the same hands, so nothing is imported twice (README: "Importing the same hands
twice (even from another file) adds nothing"). A hand's session is no part of what it is:
a copy naming another session stays where the ledger holds it. A file whose every hand is
refused writes nothing, its session lines neither; a refused hand is refused in one line,
its payout finding (a warning of a hand stored) not a second one. HandHQ's
``currency_symbol = '$'`` counts USD (README: there are no custom codes). Another ledger's
JSON-lines export of a PokerNow game this ledger holds in another session is refused whole, as
the game's log is under ``--session``: its book would buy every player in again."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from tests.conftest import DATA, SHARED
from tests.test_live_table import events, one_shot

STARS = SHARED / "text" / "Stars-cash-PLO-FR-USD-0.01-0.02-201006.sidepots.txt"
HANDHQ = SHARED / "phh" / "handhq"


def _exports(tmp_path: Path) -> tuple[Path, Path]:
    """The PHH and JSON-lines exports of a ledger holding STARS in session ``stars`` (a cent
    a chip)."""
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "session", "open", "stars", "--chip-value", "0.01", "--currency",
                    "USD")[0] == 0
    assert one_shot(db, "import", "--session", "stars", str(STARS))[:2] == (0, (
        "imported 3 hand(s) (109 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"))
    phh, jsonl = tmp_path / "all.phh", tmp_path / "all.jsonl"
    assert one_shot(db, "export", "--format", "phh", "-o", str(phh))[0] == 0
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    return phh, jsonl


def test_json_lines_after_the_phh_export_are_already_in_the_ledger(tmp_path: Path) -> None:
    phh, jsonl = _exports(tmp_path)
    fresh = tmp_path / "f.duckdb"
    # 4 events fewer: each uncalled bet returned is one payout with what its player won
    assert one_shot(fresh, "import", str(phh)) == (0, (
        "imported 3 hand(s) (105 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"), "")
    before = events(fresh)
    # the hands are known; the session's opening, which PHH cannot say, is the one new line
    assert one_shot(fresh, "import", str(jsonl)) == (0, (
        "imported 0 hand(s) (1 events) from 1 file(s); 3 already in the ledger; "
        "0 rejected\n"), "")
    after = events(fresh)
    assert after[:len(before)] == before
    assert [row for row in after[len(before):]] == [
        row for row in after if "session_opened" in map(str, row)]
    assert one_shot(fresh, "import", str(jsonl))[:2] == (0, (
        "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
        "0 rejected\n"))
    # and the other way round: the PHH export into a ledger the JSON lines made
    other = tmp_path / "o.duckdb"
    assert one_shot(other, "import", str(jsonl))[:2] == (0, (  # the session's opening too
        "imported 3 hand(s) (110 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"))
    assert one_shot(other, "import", str(phh))[:2] == (0, (
        "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
        "0 rejected\n"))


def test_a_changed_payout_is_still_refused_against_a_hand_read_from_phh(
        tmp_path: Path) -> None:
    phh, jsonl = _exports(tmp_path)
    fresh = tmp_path / "f.duckdb"
    assert one_shot(fresh, "import", str(phh))[0] == 0
    rows = jsonl.read_text().splitlines()
    # PokerStars-14311270221: Player2 is returned his uncalled 31 and collects the pot of 31
    k = next(i for i, row in enumerate(rows) if '"amount":31,"player":"Player2","pot":0,'
             '"returned":false' in row)
    rows[k] = rows[k].replace('"amount":31', '"amount":30')
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(rows) + "\n")
    before = events(fresh)
    code, out, err = one_shot(fresh, "import", str(changed))
    # the file carries session stars' opening: refused whole with the hand
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 2 already in the "
                              "ledger; 1 rejected\n")
    # returned 31 and paid 30 against PHH's one payout of 62: named as PHH can say it, at the
    # line of Player2's first payout (his uncalled 31 returned, the row before the one changed)
    assert '"amount":31,"player":"Player2","pot":null,"returned":true' in rows[k - 1]
    assert err == (f"error: {changed}:{k}, hand PokerStars-14311270221: a different hand "
                   "PokerStars-14311270221 is already in the ledger: the table paid otherwise: "
                   "Player2 61 here, 62 in the ledger; a change to a stored hand is a "
                   "correction (`handledger correct PokerStars-14311270221 ...`); nothing of "
                   "the file was written: it carries the book of session stars, which goes in "
                   "with all its hands or not at all (correct the file and import it again)\n")
    assert events(fresh)[:len(before)] == before


def test_a_copy_naming_another_session_stays_where_the_ledger_holds_it(
        tmp_path: Path) -> None:
    hand = DATA / "hands" / "plo-three-way.phh"
    a, c = tmp_path / "a.duckdb", tmp_path / "c.duckdb"
    for db, name, value in ((a, "x", "0.05"), (c, "y", "0.01")):
        assert one_shot(db, "session", "open", name, "--chip-value", value, "--currency",
                        "USD")[0] == 0
        assert one_shot(db, "import", "--session", name, str(hand))[0] == 0
    jsonl = tmp_path / "x.jsonl"
    assert one_shot(a, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    # the export carries session x's book (its opening): refused whole, x's book would
    # count a hand played in y
    assert one_shot(c, "import", str(jsonl)) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 1 rejected\n"),
        f"error: {jsonl}:2: hand phh-e90348620d79 is in the ledger already, in session y, and "
        "this file puts it in session x: a hand stays in the session it was stored in, so the "
        "book of x would count chips played in session y (is it that night again under another "
        "name?); nothing of the file was written: it carries the book of session x, which goes "
        "in with all its hands or not at all (correct the file and import it again)\n")
    # its hand alone: known, where the ledger holds it
    hands = tmp_path / "hands.jsonl"
    hands.write_text("".join(row + "\n" for row in jsonl.read_text().splitlines()
                             if row.startswith('{"hand":')))
    assert one_shot(c, "import", str(hands)) == (0, (
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (they stay in "
        "the session they were stored in, not this file's); 0 rejected\n"), "")
    assert one_shot(c, "session", "list")[1] == (
        f"y  {_date(c, 'y')}  1 hand(s)  0 buy-in(s)  open\n")
    # a start that does differ is named by its field, at the hand's first line
    rows = jsonl.read_text().splitlines()
    k = next(i for i, row in enumerate(rows) if '"hand_started"' in row)
    rows[k] = rows[k].replace('"min_bet":10', '"min_bet":20')
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(rows) + "\n")
    code, _, err = one_shot(c, "import", str(changed))
    assert code == 2
    assert err.startswith(
        f"error: {changed}:{k + 1}, hand phh-e90348620d79: a different hand phh-e90348620d79 "
        "is already in the ledger: its event 1, hand_started, has stakes.min_bet 20 here, 10 "
        "in the ledger; a change to a stored hand is a correction")


def _date(db: Path, session: str) -> str:
    con = duckdb.connect(str(db), read_only=True)
    try:
        payload = con.execute("SELECT CAST(payload AS VARCHAR) FROM events WHERE type ="
                              " 'session_opened' AND session = ?", [session]).fetchone()[0]
    finally:
        con.close()
    return json.loads(payload)["date"]


def test_a_file_whose_every_hand_is_refused_writes_no_session_line(tmp_path: Path) -> None:
    _, jsonl = _exports(tmp_path)
    rows = jsonl.read_text().splitlines()
    # the session's opening, then one hand whose first raise is beyond its player's stack
    hand = [r for r in rows if '"hand":"PokerStars-14311270221"' in r]
    k = next(i for i, r in enumerate(hand) if '"bet_raise"' in r)
    hand[k] = hand[k].replace('"to":4,', '"to":100004,')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([rows[0], *hand]) + "\n")
    db = tmp_path / "z.duckdb"
    code, out, err = one_shot(db, "import", str(bad))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err.splitlines() == [
        f"error: {bad}:{k + 2}, hand PokerStars-14311270221, action 'bet_raise by Player5': "
        "Player5 cannot raise to 100004: only 58 behind, so at most to 58 (all in); nothing of "
        "the file was written: it carries the book of session stars, which goes in with all "
        "its hands or not at all (correct the file and import it again)"]
    assert not db.exists()  # nothing written: not even the new ledger file


def test_a_hand_refused_for_its_chips_is_one_error_line(tmp_path: Path) -> None:
    """Paid 0.05 short (a warning of a hand stored) and in chips of 0.05 a session of 0.25
    USD chips cannot count: refused for its chips, in one line at the hand's line."""
    short = tmp_path / "short.phh"
    short.write_text(
        "variant = 'NT'\nantes = [0.00, 0.00, 0.00]\nblinds_or_straddles = [0.05, 0.10, 0.00]\n"
        "min_bet = 0.10\nstarting_stacks = [10.00, 10.00, 10.00]\ncurrency = 'USD'\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 cc', 'p2 cc',"
        " 'd db 2s3s9d', 'p1 cc', 'p2 cc', 'd db Tc', 'p1 cc', 'p2 cc', 'd db Ah', 'p1 cc',"
        " 'p2 cc', 'p1 sm AsKs', 'p2 sm QhQd']\nwinnings = [0.15, 0.00, 0.00]\n")
    db = tmp_path / "s.duckdb"
    assert one_shot(db, "session", "open", "big", "--chip-value", "0.25", "--currency",
                    "USD")[0] == 0
    code, out, err = one_shot(db, "import", "--session", "big", str(short))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    hand = err.split(", hand ")[1].split(":")[0]
    assert err == (f"error: {short}:1, hand {hand}: 5 of its chips (5 minor units) is not a "
                   "whole number of the session big's chips of 25: nothing of the hand is "
                   "imported (never rounded)\n")


def test_handhq_dollars_are_usd(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    assert one_shot(db, "import", str(HANDHQ))[0] == 0
    code, out, _ = one_shot(db, "balances")
    assert code == 0 and out.startswith("player ")  # one unit: no table per unit
    assert "$" not in out
    code, out, _ = one_shot(db, "standings", "--money")
    assert code == 0
    assert out.splitlines()[0].split() == ["player", "(no", "session)", "total", "(USD)"]
    code, out, _ = one_shot(db, "sql", "SELECT DISTINCT currency FROM standings", "--csv")
    assert (code, out.split()) == (0, ["currency", "USD"])
    # its PHH export into a fresh ledger, in a session named only by its hands
    opened = tmp_path / "q.duckdb"
    assert one_shot(opened, "session", "open", "hq", "--chip-value", "0.01", "--currency",
                    "USD")[0] == 0
    assert one_shot(opened, "import", "--session", "hq", str(HANDHQ))[0] == 0
    dump = tmp_path / "hq.phh"
    assert one_shot(opened, "export", "--format", "phh", "-o", str(dump))[0] == 0
    fresh = tmp_path / "q2.duckdb"
    assert one_shot(fresh, "import", str(dump))[0] == 0
    assert one_shot(fresh, "session", "list") == (
        0, "hq  -  39 hand(s)  0 buy-in(s)  never opened (named by its hands)\n", "")
    listed = json.loads(one_shot(fresh, "session", "list", "--json")[1])["sessions"]
    assert [(s["session"], s["opened"], s["currency"]) for s in listed] == [
        ("hq", False, "USD")]
    code, out, _ = one_shot(fresh, "standings", "--money")
    assert code == 0 and out.splitlines()[0].split() == ["player", "hq", "total", "(USD)"]


def test_a_copy_in_another_session_s_chips_is_the_hand_the_ledger_holds(
        tmp_path: Path) -> None:
    """s01-001 held in chips of 0.25 USD (its series session); its JSON lines exported from
    a session of 0.05 USD chips, where each of its chips is 5: the same hand, converted
    exactly, so already in the ledger (and it stays in s01)."""
    held = tmp_path / "q.duckdb"
    assert one_shot(held, "import", str(DATA / "series" / "s01.jsonl"))[0] == 0
    phh = tmp_path / "q.phh"
    assert one_shot(held, "export", "--format", "phh", "s01-001", "-o", str(phh))[0] == 0
    other = tmp_path / "p.duckdb"
    assert one_shot(other, "session", "open", "p5", "--chip-value", "0.05", "--currency",
                    "USD")[0] == 0
    assert one_shot(other, "import", "--session", "p5", str(phh))[0] == 0
    jsonl = tmp_path / "p05.jsonl"
    assert one_shot(other, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    assert '"blinds_or_straddles":[5,10,0,0]' in jsonl.read_text()  # 0.25/0.50 in 0.05 chips
    before = events(held)
    # the export carries p5's book (its opening), which would count a hand of s01: refused
    code, out, err = one_shot(held, "import", str(jsonl))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the "
                              "ledger; 1 rejected\n")
    assert err.startswith(f"error: {jsonl}:2: hand s01-001 is in the ledger already, in "
                          "session s01, and this file puts it in session p5: ")
    assert events(held) == before
    # the hand alone is the stored hand, converted exactly
    rows = [row for row in jsonl.read_text().splitlines() if row.startswith('{"hand":')]
    alone = tmp_path / "alone.jsonl"
    alone.write_text("\n".join(rows) + "\n")
    assert one_shot(held, "import", str(alone)) == (0, (
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (they stay in "
        "the session they were stored in, not this file's); 0 rejected\n"), "")
    assert events(held) == before
    # a bet that is no longer the same chips is still another hand: Bob's turn bet of 10
    # (2 of s01's chips) made 20, named in the ledger's chips and seq (at the hand's first
    # line, as the comparison of the two shapes names it)
    k = next(i for i, row in enumerate(rows) if '"player":"Bob","schema_version":1,"to":10,'
             in row)
    rows[k] = rows[k].replace('"to":10,', '"to":20,')
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(rows) + "\n")
    code, _, err = one_shot(held, "import", str(changed))
    assert (code, err) == (2, (
        f"error: {changed}:1, hand s01-001: a different hand s01-001 is already in the "
        'ledger: its event 21 is bet_raise {"player":"Bob","to":4} here, bet_raise '
        '{"player":"Bob","to":2} in the ledger; a change to a stored hand is a correction '
        "(`handledger correct s01-001 ...`)\n"))


#: A PokerNow log (four hands, each of three players bought 100 chips: nets +3, +1, -4) and
#: a longer one (52 hands: eight players bought 1000 each, seven quit with 0, Aab Ovwsi
#: still sits with the 8000).
PN = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
PN_BALANCES = (
    "player                          net       buy-in     cash-out  hands sessions\n"
    "TA (gE4aE_Yhc3)                   3          100            0      4        1\n"
    "Anvjfbmj2 (ydk9sgEWl2)            1          100            0      4        1\n"
    "Qapurjsa9 (BfS83Cedu3)           -4          100            0      4        1\n")
PN_AUDIT = ("audit clean: 4 hand(s) in 1 session(s); every chip adds up in the books as stored "
            "(the hash chain not checked: `handledger verify`)\n")
PN_KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 0 rejected\n"


def _restored(tmp_path: Path, original: Path) -> Path:
    """A ledger made from ``original``'s JSON-lines export (backup.jsonl) alone."""
    backup = tmp_path / "backup.jsonl"
    assert one_shot(original, "export", "--format", "jsonl", "-o", str(backup))[0] == 0
    restored = tmp_path / "restored.duckdb"
    assert one_shot(restored, "import", str(backup))[0] == 0
    return restored


def _later(db: Path, *args: str) -> tuple[tuple[int, str, str], ...]:
    """What ``import ARGS`` says into ``db``, then its balances and audit."""
    return (one_shot(db, "import", *args), one_shot(db, "balances"), one_shot(db, "audit"))


@pytest.mark.parametrize(("opened", "name", "given"), [
    ((), PN.name, ()),  # the same log again
    ((), "night1.csv", ()),  # the same log under another name: another session's name
    (("w9",), PN.name, ("--session", "w9")),  # into a session the host opened
])
def test_a_ledger_restored_from_its_export_knows_the_log_again(
        tmp_path: Path, opened: tuple[str, ...], name: str, given: tuple[str, ...]) -> None:
    """It did not: the export left out the key each of the log's session lines is stored
    with, so the restored ledger took the opening's joins and buy-ins again (TA bought in
    200) or, the log renamed, all four hands again in a session of its own (nets doubled),
    its audit clean. Now the restored ledger says, stores and reckons what the original
    does."""
    original = tmp_path / "original.duckdb"
    for session in opened:
        assert one_shot(original, "session", "open", session)[0] == 0
    assert one_shot(original, "import", *given, str(PN))[0] == 0
    restored = _restored(tmp_path, original)
    log = tmp_path / "later" / name
    log.parent.mkdir()
    log.write_bytes(PN.read_bytes())
    said = _later(original, *given, str(log))
    assert said == ((0, PN_KNOWN, ""), (0, PN_BALANCES, ""), (0, PN_AUDIT, ""))
    assert _later(restored, *given, str(log)) == said
    assert len(events(restored)) == len(events(original)) == 60


def test_a_folder_of_the_export_and_the_log_renamed_is_one_night(tmp_path: Path) -> None:
    """``run`` on a folder holding the export and the log under another name reads the night
    once, as on the log and its renamed copy."""
    original = tmp_path / "original.duckdb"
    assert one_shot(original, "import", str(PN))[0] == 0
    logs, restore = tmp_path / "logs", tmp_path / "restore"
    for folder in (logs, restore):
        folder.mkdir()
        (folder / "night1.csv").write_bytes(PN.read_bytes())
    (logs / PN.name).write_bytes(PN.read_bytes())
    assert one_shot(original, "export", "--format", "jsonl", "-o",
                    str(restore / "backup.jsonl"))[0] == 0
    said = one_shot(tmp_path / "a.duckdb", "run", str(logs))
    assert said == one_shot(tmp_path / "b.duckdb", "run", str(restore))
    assert said[0] == 0 and said[1].splitlines()[0] == (
        "imported 4 hand(s) (60 events) from 2 file(s); 4 already in the ledger; 0 rejected")
    assert said[1].endswith(PN_BALANCES)


def test_a_restored_early_export_takes_the_longer_log_once(tmp_path: Path) -> None:
    """The log downloaded after hand #19, imported, exported and restored: the whole log adds
    its 33 later hands to the restored ledger as to the original (it added the 19 again, and
    the eight buy-ins)."""
    lines = VK.read_text(encoding="utf-8").splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if line.startswith('"-- ending hand #19 --"'))
    early = tmp_path / "early.csv"
    early.write_text(lines[0] + "".join(lines[end:]), encoding="utf-8")
    original = tmp_path / "original.duckdb"
    assert one_shot(original, "import", str(early)) == (0, (
        "imported 19 hand(s) (629 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"), "")
    restored = _restored(tmp_path, original)
    said = _later(original, str(VK))
    assert said[0] == (0, "imported 33 hand(s) (626 events) from 1 file(s); 19 already in the "
                          "ledger; 0 rejected\n", "")
    assert said[1] == (0, (
        "player                               net       buy-in     cash-out  hands sessions\n"
        "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1\n"
        "Hznmh#9009 (1RhUayZFQU)            -1000         1000            0     27        1\n"
        "Phzd Juwvifsvh (Bq7QhNKAYJ)        -1000         1000            0     35        1\n"
        "sjfid753 (Bv3wRKv-vh)              -1000         1000            0     15        1\n"
        "Erhradnpmi3 (H353kCoMHV)           -1000         1000            0      4        1\n"
        "Efvoziamtgktl (JC9KmsGDZv)         -1000         1000            0     52        1\n"
        "IpusyM (f-mUxYkHrq)                -1000         1000            0     37        1\n"
        "gaxdqwmwksve (hoL3fbolcH)          -1000         1000            0     21        1\n"),
        "")
    assert _later(restored, str(VK)) == said


def test_an_edited_export_is_no_copy_by_the_key_it_carries(tmp_path: Path) -> None:
    """A row of the export keeps the key its hand was stored with when edited: the key does
    not make it the stored hand, its rows are compared (a payout of 1 made 2: refused)."""
    original = tmp_path / "original.duckdb"
    assert one_shot(original, "import", str(PN))[0] == 0
    backup = tmp_path / "backup.jsonl"
    assert one_shot(original, "export", "--format", "jsonl", "-o", str(backup))[0] == 0
    rows = backup.read_text().splitlines()
    assert rows[10].startswith('{"hand":"pn-charlestudor_Input_Log_001-1-164210353199300",'
                               '"seq":1,"source_key":"pokernow:2022-01-13T19:52:11.993Z:1:')
    assert rows[18].startswith('{"hand":"pn-charlestudor_Input_Log_001-1-164210353199300",'
                               '"seq":9,"event":{"amount":1,')
    rows[18] = rows[18].replace('"amount":1,', '"amount":2,')
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(rows) + "\n")
    before = events(original)
    hand = "pn-charlestudor_Input_Log_001-1-164210353199300"
    assert one_shot(original, "import", str(edited)) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; 1 rejected\n"),
        f"error: {edited}:19, hand {hand}: a different hand {hand} is already in the ledger: "
        "the table paid otherwise: ydk9sgEWl2 4 here, 3 in the ledger; a change to a stored "
        f"hand is a correction (`handledger correct {hand} ...`)\n")
    assert events(original) == before


#: charlestudor's second log (four hands; four players bought 50 chips each: A8 won the
#: other three's 150) as one ledger holds it in its session charlestudor_Input_Log_002.
CT2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
CT2_BALANCES = (
    "player                              net       buy-in     cash-out  hands sessions\n"
    "A8 (gE4aE_Yhc3)                     150           50            0      4        1\n"
    "\"uhuhqb\"\"''' (6OQxLdU_ZO)           -50           50            0      1        1\n"
    "@ovvkpfngo@@@ (CzMp1GAawT)          -50           50            0      2        1\n"
    "ksv @ ycx (YJJJbgIQrB)              -50           50            0      4        1\n")
CT2_ELSEWHERE = ("this PokerNow game is in the ledger already, in session "
                 "charlestudor_Input_Log_002: it is not imported into session {0} too (its "
                 "buy-ins would count twice); nothing of the file was written")


def _export_of_other_ledger(tmp_path: Path, name: str, lines: slice = slice(None),
                            books_only: bool = False) -> Path:
    """The JSON-lines export (``other.jsonl``) of another ledger that imported ``lines`` of
    CT2 saved as ``name`` (its session named so); ``books_only``: without its hands' rows."""
    log = tmp_path / "other" / name
    log.parent.mkdir()
    log.write_text("".join(CT2.read_text().splitlines(keepends=True)[lines]))
    db = tmp_path / "other.duckdb"
    assert one_shot(db, "import", str(log))[0] == 0
    export = tmp_path / "other.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(export))[0] == 0
    if books_only:
        export.write_text("".join(row for row in export.read_text().splitlines(keepends=True)
                                  if not row.startswith('{"hand":')))
    return export


@pytest.mark.parametrize(("name", "lines", "books_only", "held"), [
    ("week1.csv", slice(None), False, 4),  # the whole log, renamed
    ("week2.csv", slice(0, 60), False, 3),  # cut at its oldest rows (hand #1), renamed
    ("week1.csv", slice(None), True, 0),  # its session book alone
])
@pytest.mark.parametrize("jobs", [(), ("--jobs", "2")])
def test_another_ledgers_export_of_a_game_held_here_is_refused(
        tmp_path: Path, name: str, lines: slice, books_only: bool, held: int,
        jobs: tuple[str, ...]) -> None:
    """Another ledger's JSON-lines export of a PokerNow game this ledger holds in another
    session: its book (opening, joins, buy-ins of 50, quits) was written into a new session
    of 0 hands, every buy-in 100, exit 0, the audit finding each quit's 0 short of the 50 the
    hands leave. Now refused in one line as the game's log under --session is, naming the
    session's first line; nothing written, the books as before."""
    export = _export_of_other_ledger(tmp_path, name, lines, books_only)
    session = name.removesuffix(".csv")
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(CT2))[0] == 0
    before = events(db)
    assert one_shot(db, "import", *jobs, str(export)) == (
        2, f"imported 0 hand(s) (0 events) from 1 file(s); {held} already in the ledger; "
           "1 rejected\n",
        f"error: {export}:1, session {session}: {CT2_ELSEWHERE.format(session)}\n")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, CT2_BALANCES, "")
    assert one_shot(db, "session", "list") == (
        0, "charlestudor_Input_Log_002  2022-01-20  4 hand(s)  4 buy-in(s)  open\n", "")


def test_an_export_of_a_game_goes_into_a_ledger_without_it(tmp_path: Path) -> None:
    """The export of the game, renamed week1, into a ledger that does not hold the game: its
    hands and book go in (in week1) as before; the ledger's own export adds nothing back."""
    export = _export_of_other_ledger(tmp_path, "week1.csv")
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(export)) == (
        0, "imported 4 hand(s) (83 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "session", "list") == (
        0, "week1  2022-01-20  4 hand(s)  4 buy-in(s)  open\n", "")
    assert one_shot(db, "balances")[1] == CT2_BALANCES
    assert one_shot(db, "import", str(export)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")


def test_a_file_with_a_held_game_s_book_and_a_hand_recorded_session_is_refused_whole(
        tmp_path: Path) -> None:
    """A file holding a session recorded by hand (home: Ann and Bob buy in 100) and then
    another ledger's book of the game held here (from line 4): refused whole, as a file
    carrying a session's book is, naming week1 and its first line; home alone goes in."""
    game = _export_of_other_ledger(tmp_path, "week1.csv")
    hand = tmp_path / "hand.duckdb"
    assert one_shot(hand, "session", "open", "home")[0] == 0
    for player in ("Ann", "Bob"):
        assert one_shot(hand, "buyin", "home", player, "100")[0] == 0
    home = tmp_path / "home.jsonl"
    assert one_shot(hand, "export", "--format", "jsonl", "-o", str(home))[0] == 0
    assert len(home.read_text().splitlines()) == 3
    both = tmp_path / "both.jsonl"
    both.write_text(home.read_text() + game.read_text())
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(CT2))[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(both)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "1 rejected\n",
        f"error: {both}:4, session week1: {CT2_ELSEWHERE.format('week1')}\n")
    assert events(db) == before
    assert one_shot(db, "import", str(home)) == (
        0, "imported 0 hand(s) (3 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    code, out, _ = one_shot(db, "session", "list")
    assert (code, out.splitlines()[0]) == (
        0, "charlestudor_Input_Log_002  2022-01-20  4 hand(s)  4 buy-in(s)  open")
    assert out.splitlines()[1].startswith("home  ") and out.splitlines()[1].endswith(
        "  0 hand(s)  2 buy-in(s)  open")
    assert len(out.splitlines()) == 2
