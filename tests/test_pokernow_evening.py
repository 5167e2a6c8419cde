"""A PokerNow log imported during the evening, then again whole at the end (FORMATS.md §2): the
second import adds only what the first did not have, to the same session, and the books equal
those of the whole log imported once; where that cannot be proven, the whole log is refused in
one line naming file, line and hand, and nothing is written.

The partial exports are the real logs cut where a download could cut them (between two rows
logged at different moments), or, for the refusals, inside the rows PokerNow logs at one
moment. Files are newest first: a cut keeps the oldest rows.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.conftest import DATA, SHARED
from tests.copies import copy_ledger
from tests.test_host_mistakes import _edited
from tests.test_live_table import events, one_shot

PN = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
RIT = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
#: charlestudor 001, four hands: #1 Anvjfbmj2 takes the blinds (+1, TA −1); #2 TA raises
#: and takes 5 (+3; Anvjfbmj2 −1, Qapurjsa9 −2); #3 TA bets, takes 4 (+2, Qapurjsa9 −2);
#: #4 Anvjfbmj2 takes the blinds (+1, TA −1). Each bought 100 chips.
PN_NETS = {"gE4aE_Yhc3": 3, "ydk9sgEWl2": 1, "BfS83Cedu3": -4}


def _rows(log: Path) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of a real export, oldest first (the file is newest first)."""
    with log.open(encoding="utf-8-sig", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    return header, rows[::-1]


def _cut(log: Path, rows: int, path: Path) -> Path:
    """``log`` as a download taken after its oldest ``rows`` rows, written at ``path``."""
    header, oldest_first = _rows(log)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(oldest_first[:rows][::-1])
    return path


def _at_a_moment_boundary(log: Path, rows: int) -> bool:
    """Whether a download could end after the oldest ``rows`` rows: the next row was logged
    at a later moment (PokerNow logs a hand's start, seats and blinds at one moment)."""
    _, oldest_first = _rows(log)
    return oldest_first[rows - 1][1] != oldest_first[rows][1]


def _books(db: Path, session: str) -> dict[str, object]:
    """What a host reads of the night: the sessions, the audit, the balances (JSON)."""
    out = {}
    for args in (("session", "list", "--json"), ("audit", "--json"),
                 ("balances", "--json"), ("audit", "--session", session, "--json")):
        code, text, err = one_shot(db, *args)
        out[" ".join(args)] = (code, json.loads(text), err)
    return out


def _nets(books: dict[str, object]) -> dict[str, tuple[int, int]]:
    players = books["balances --json"][1]["players"]  # type: ignore[index]
    return {p["player"]: (p["net"], p["buy_in"]) for p in players}


def _whole(tmp_path: Path, log: Path, *args: str) -> Path:
    db = tmp_path / "whole.duckdb"
    assert one_shot(db, "import", str(log), *args)[0] == 0
    return db


@pytest.fixture(scope="module")
def wholes(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """``wholes(log, *args)`` → the ledger of ``log`` imported whole (``import LOG ARGS``),
    built once for the module (the first time a test asks for it); copy it to change it."""
    made: dict[tuple[Path, tuple[str, ...]], Path] = {}

    def ledger(log: Path, *args: str) -> Path:
        if (log, args) not in made:
            made[log, args] = _whole(tmp_path_factory.mktemp(log.stem), log, *args)
        return made[log, args]

    return ledger


@pytest.fixture(scope="module")
def whole_books(wholes):  # noqa: ANN001, ANN201
    """``whole_books(session, log, *args)`` → :func:`_books` of ``wholes(log, *args)``, read
    once for the module."""
    read: dict[tuple[str, Path, tuple[str, ...]], dict[str, object]] = {}

    def books(session: str, log: Path, *args: str) -> dict[str, object]:
        if (session, log, args) not in read:
            read[session, log, args] = _books(wholes(log, *args), session)
        return read[session, log, args]

    return books


@pytest.mark.parametrize("name", [PN.name, "evening.csv"])
def test_an_export_before_the_first_hand_then_the_whole_log(
        tmp_path: Path, name: str, wholes, whole_books) -> None:  # noqa: ANN001
    """Downloaded after the three approvals and the blinds set (row 9), before hand #1: ten
    session events (the opening, three names, joins and buy-ins of 100). The whole log then
    adds its four hands to that session, never the buy-ins again (they came to 200 each);
    saved under another name, the game is still found by those entries."""
    assert _at_a_moment_boundary(PN, 9)
    db = tmp_path / "t.duckdb"
    early = _cut(PN, 9, tmp_path / "early" / name)
    assert one_shot(db, "import", str(early)) == (
        0, "imported 0 hand(s) (10 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
    assert one_shot(db, "import", str(PN)) == (
        0, "imported 4 hand(s) (50 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
    session = Path(name).stem
    books = _books(db, session)
    assert books["session list --json"][1]["sessions"] == [{  # type: ignore[index]
        "session": session, "date": "2022-01-13", "closed": False, "buy_ins": 3,
        "buy_ins_retracted": 0, "hands": 4, "hands_voided": 0, "opened": True,
        "owed_minor": 4, "decimals": 0, "currency": None, "settled": False}]
    assert books["audit --json"] == (0, {"discrepancies": []}, "")
    assert _nets(books) == {p: (net, 100) for p, net in PN_NETS.items()}
    assert len(events(db)) == len(events(wholes(PN))) == 60
    if name == PN.name:  # the same session name: the very books of the whole log
        assert books == whole_books(session, PN)
    before = events(db)  # the whole log again: all of it known, nothing written
    assert one_shot(db, "import", str(PN)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 0 rejected\n",
        "")
    assert events(db) == before


def test_an_export_cut_mid_hand_is_completed_by_the_whole_log(
        tmp_path: Path, whole_books) -> None:  # noqa: ANN001
    """The run-it-twice excerpt downloaded during hand #30, after r6R7wIH3qS bets 0.20 on the
    flop: #30 is stored incomplete, with R2MwqIZu29's cards unknown (his ``Your hand is A♣,
    10♠`` lines are only proven his by a show in a later hand). The whole log completes #30
    with one correction (its cards, the rest of the hand) and adds #31 and #48: the audit (the
    excerpt's eleven stack_continuity findings, RIT_FINDINGS of test_pokernow_cli) and the
    balances are the whole log's."""
    assert _at_a_moment_boundary(RIT, 15)
    db = tmp_path / "t.duckdb"
    early = _cut(RIT, 15, tmp_path / "early" / RIT.name)
    # #30's six players bought nothing in the excerpt: a warning each (as the audit finds them),
    # and first one that the log stops inside #30 (its lines 2-16 kept incomplete)
    code, text, err = one_shot(db, "import", str(early))
    assert (code, text) == (
        0, "imported 1 hand(s) (27 events) from 1 file(s); 0 already in the ledger; 0 rejected"
           "; 7 warning(s) about hands stored\n")
    assert err.splitlines()[0].split(": ", 3)[3] == (
        "the log stops inside hand #30, before its ending line (an export cut at the game's "
        "newest rows, or taken during the hand): its 15 lines (2 to 16) kept as an incomplete "
        "hand, every chip returned (stored; the audit reports it)")
    code, text, err = one_shot(db, "import", str(RIT))
    # #48's five stacks are not what #31 left (#32-#47 are not in the log): a warning each
    assert code == 0 and [w.split(": hand ")[1].split(":")[0] for w in err.splitlines()] == [
        "pn-pokernowpy_run-it-twice-48-16302875682920"] * 5
    assert text.startswith("imported 2 hand(s) (")
    assert "1 cut-off hand(s) completed from this longer export" in text
    session = "pokernowpy_run-it-twice"
    books, whole = _books(db, session), whole_books(session, RIT)
    assert books == whole
    findings = books["audit --json"][1]["discrepancies"]  # type: ignore[index]
    assert len(findings) == 11 and {f["kind"] for f in findings} == {"stack_continuity"}
    assert books["session list --json"][1]["sessions"][0]["hands"] == 3  # type: ignore[index]
    hand = next(h for (h,) in _sql(db, "SELECT DISTINCT hand_id FROM events WHERE type ="
                                   " 'correction'"))
    assert "-30-" in hand
    shown = json.loads(one_shot(db, "replay", "--hand", hand, "--json")[1])
    assert shown["status"] == "complete" and shown["discrepancies"] == []
    # sappxxu takes both runs (7.81 + 7.80) of the 15.61 pot; he and ihgq0hrmf put in 0.43,
    # 2.26 and 4.37; OjtkunxseAbye 0.43 and 0.20; yfg and Ntunn 0.43 (cents)
    assert shown["net"] == {"sappxxu": 855, "ihgq0hrmf": -706, "OjtkunxseAbye": -63,
                            "yfg": -43, "Ntunn": -43, "Mdeyxwb": 0}
    dealt = [e["payload"] for e in _stream(db, hand) if e["type"] == "correction"][0]
    cards = [c["event"]["cards"] for c in dealt["changes"]
             if c["event"]["type"] == "cards_dealt" and c["event"]["player"] == "R2MwqIZu29"]
    assert cards == [["Ac", "Ts"]]


def test_an_export_before_the_late_show_of_a_hand_gets_it_from_the_whole_log(
        tmp_path: Path) -> None:
    """valakuzhyk, hand #42: gKyQzJRs7T takes the blinds (300) and shows 7♠ 6♠ two seconds
    after ``-- ending hand #42 --``. Downloaded between the two, #42 is stored complete
    without the show; the whole log adds it with one correction and hands #43-#52, and its
    books are the whole log's. Imported the other way round, the earlier export adds
    nothing."""
    header, rows = _rows(VK)
    end = next(i for i, r in enumerate(rows) if r[0] == "-- ending hand #42 --") + 1
    assert rows[end][0] == '"Aab Ovwsi @ gKyQzJRs7T" shows a 7♠, 6♠.'
    assert _at_a_moment_boundary(VK, end)
    db = tmp_path / "t.duckdb"
    early = _cut(VK, end, tmp_path / "early" / VK.name)
    assert one_shot(db, "import", str(early))[1].startswith("imported 42 hand(s) (")
    code, text, err = one_shot(db, "import", str(VK))
    assert (code, err) == (0, "")
    assert text.startswith("imported 10 hand(s) (")
    assert "; 41 already in the ledger; 0 rejected" in text  # and #42 completed
    assert "1 cut-off hand(s) completed from this longer export" in text
    session = VK.stem
    whole = _whole(tmp_path, VK)
    assert _books(db, session) == _books(whole, session)
    ((hand, payload),) = _sql(db, "SELECT hand_id, CAST(payload AS VARCHAR) FROM events"
                                  " WHERE type = 'correction'")
    assert "-42-" in hand
    assert [c["event"] for c in json.loads(payload)["changes"]] == [
        {"type": "reveal", "player": "gKyQzJRs7T", "cards": ["7s", "6s"], "schema_version": 1}]
    before = events(whole)  # the whole log first, then the earlier export: nothing new
    assert one_shot(whole, "import", str(early)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 42 already in the ledger; "
        "0 rejected\n", "")
    assert events(whole) == before


def test_a_cut_before_the_blinds_of_a_hand_is_completed_by_the_whole_log(
        tmp_path: Path, whole_books) -> None:  # noqa: ANN001
    """A file cut after ``Your hand is`` of hand #1, before its blinds were posted: the stored
    #1 has no blinds (its start counts the blinds its posts show). It refused the whole log
    (``its hand_started differs: {"stakes":{"blinds_or_straddles":[1,2,0]}} here,
    {"stakes":{"blinds_or_straddles":[0,0,0]}} in the ledger``): the blinds the cut copy
    lacks are no disagreement. One correction completes #1: its start with the blinds 1/2,
    TA's small blind of 1 and Anvjfbmj2's big blind of 2 after it, and the rest of the hand;
    the books are the whole log's, and the cut file again adds nothing."""
    assert not _at_a_moment_boundary(PN, 15)
    db = tmp_path / "t.duckdb"
    early = _cut(PN, 15, tmp_path / "early" / PN.name)
    assert one_shot(db, "import", str(early))[0] == 0
    hand = "pn-charlestudor_Input_Log_001-1-164210353199300"
    assert one_shot(db, "import", str(PN)) == (
        0, "imported 3 hand(s) (40 events) from 1 file(s); 0 already in the ledger; 0 rejected; "
           "1 cut-off hand(s) completed from this longer export (a correction each)\n", "")
    session = PN.stem
    assert _books(db, session) == whole_books(session, PN)
    stream = _stream(db, hand)
    assert [e["type"] for e in stream] == ["hand_started", *["cards_dealt"] * 3, "hand_ended",
                                           "correction"]
    changes = stream[-1]["payload"]["changes"]  # type: ignore[index]
    assert [(c["op"], c["seq"]) for c in changes[:4]] == [
        ("replace", 1), ("insert_after", 1), ("insert_after", 1), ("replace", 5)]
    assert changes[0]["event"]["stakes"]["blinds_or_straddles"] == [1, 2, 0]
    assert [(c["event"]["player"], c["event"]["kind"], c["event"]["amount"])
            for c in changes[1:3]] == [("gE4aE_Yhc3", "small_blind", 1),
                                       ("ydk9sgEWl2", "big_blind", 2)]
    before = events(db)
    assert one_shot(db, "import", str(early)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n",
        "")
    assert events(db) == before


def test_a_cut_copy_that_seats_another_stack_still_refuses_the_whole_log(
        tmp_path: Path) -> None:
    """The same cut with TA's stack edited to 90 in hand #1's ``Player stacks`` line: not a
    copy cut before its blinds but another hand. The whole log is refused in one line naming
    it, its line of #1 and the hand; nothing is written (hands #2-#4 would not follow the
    stored #1)."""
    db = tmp_path / "t.duckdb"
    early = _cut(PN, 15, tmp_path / "early" / PN.name)
    early.write_text(early.read_text(encoding="utf-8").replace(
        '""TA @ gE4aE_Yhc3"" (100)', '""TA @ gE4aE_Yhc3"" (90)'), encoding="utf-8")
    assert one_shot(db, "import", str(early))[0] == 0
    before = events(db)
    hand = "pn-charlestudor_Input_Log_001-1-164210353199300"
    assert one_shot(db, "import", str(PN)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
           "3 other hand(s) not written, their file refused\n",
        f"error: {PN}:50, hand {hand}: the ledger holds this hand cut off where an earlier "
        "export stopped, and this copy, which goes on, disagrees with it: its hand_started "
        'differs: {"seats":[{"player":"gE4aE_Yhc3","stack":100,"seat":1},{"player":"ydk9sgEWl2",'
        '"… here, {"seats":[{"player":"gE4aE_Yhc3","stack":90,"seat":1},{"player":"ydk9sgEWl2",'
        '"s… in the ledger; nothing of this file was written (the hands after it would not '
        "follow the ledger's)\n")
    assert events(db) == before


@pytest.mark.parametrize("first", [600, 599])
def test_an_export_stopped_before_a_blind_is_completed_by_the_longer_one(
        tmp_path: Path, wholes, first: int) -> None:  # noqa: ANN001
    """valakuzhyk's log from its line ``first`` on (the file is newest first): hand #19's
    start, seats and ``Your hand is Q♥, Q♣``, before its blinds (600) or with its small blind
    of 75 alone (599). The whole log was refused for good (``its hand_started differs:
    {"stakes":{"blinds_or_straddles":[75,150,0,0,0,0]}} here, …[0,0,0,0,0,0]} in the
    ledger``); it completes #19 with one correction, and the books are the whole log's: Aab
    Ovwsi +7000, the seven others -1000 each of the 1000 they bought. Met after the whole log,
    the cut export adds nothing (it was refused: a different hand, its start without the
    blinds)."""
    lines = VK.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[first - 1].startswith(("\"Your hand is Q♥, Q♣\"", '"""Efvoziamtgktl @ '
                                        'JC9KmsGDZv"" posts a small blind of 75"'))
    early = tmp_path / "early.csv"
    early.write_text(lines[0] + "".join(lines[first - 1:]), encoding="utf-8")
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(early))[1] == (
        f"imported 19 hand(s) ({615 + 600 - first} events) from 1 file(s); 0 already in the "
        "ledger; 0 rejected; 1 warning(s) about hands stored\n")
    assert one_shot(db, "import", str(VK)) == (
        0, "imported 33 hand(s) (627 events) from 1 file(s); 18 already in the ledger; "
           "0 rejected; 1 cut-off hand(s) completed from this longer export (a correction "
           "each)\n", "")
    books, whole = _books(db, "early"), _books(wholes(VK), VK.stem)
    assert books["audit --json"] == whole["audit --json"] == (0, {"discrepancies": []}, "")
    assert _nets(books) == _nets(whole) == {
        "gKyQzJRs7T": (7000, 1000), **{p: (-1000, 1000) for p in (
            "1RhUayZFQU", "Bq7QhNKAYJ", "Bv3wRKv-vh", "H353kCoMHV", "JC9KmsGDZv", "f-mUxYkHrq",
            "hoL3fbolcH")}}
    # the other way round, the cut export after the whole log adds nothing
    other = copy_ledger(wholes(VK), tmp_path / "whole.duckdb")
    before = events(other)
    assert one_shot(other, "import", str(early)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 19 already in the ledger; "
           "0 rejected\n", "")
    assert events(other) == before


def test_the_earlier_export_after_the_whole_log_adds_nothing(
        tmp_path: Path, wholes) -> None:  # noqa: ANN001
    """Both downloads in one folder may be taken whole log first: the earlier one, cut
    during hand #30 (stored complete), is then all known."""
    db = copy_ledger(wholes(RIT), tmp_path / "whole.duckdb")  # the whole log imported
    before = events(db)
    early = _cut(RIT, 15, tmp_path / "early" / "poker_now_log_evening.csv")
    assert one_shot(db, "import", str(early)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n",
        "")
    assert events(db) == before


def test_an_earlier_export_under_session_friday_takes_the_whole_log(
        tmp_path: Path, whole_books) -> None:  # noqa: ANN001
    """Hand #1 and the session lines before it imported with ``--session friday``; the whole
    log, given no session, goes to friday (its first hand is there): one session with the
    whole log's books. Given another session, it is refused (its buy-ins would count
    twice)."""
    assert _at_a_moment_boundary(PN, 22)
    db = tmp_path / "t.duckdb"
    early = _cut(PN, 22, tmp_path / "early" / PN.name)
    assert one_shot(db, "import", str(early), "--session", "friday")[0] == 0
    assert one_shot(db, "import", str(PN))[:2] == (
        0, "imported 3 hand(s) (39 events) from 1 file(s); 1 already in the ledger; 0 rejected\n")
    books = _books(db, "friday")
    assert books == whole_books("friday", PN, "--session", "friday")
    assert [s["session"] for s in books["session list --json"][1]["sessions"]] == ["friday"]  # type: ignore[index]
    assert _nets(books) == {p: (net, 100) for p, net in PN_NETS.items()}
    before = events(db)
    assert one_shot(db, "import", str(PN), "--session", "saturday") == (  # its 4 hands known
        2, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 1 rejected\n",
        f"error: {PN}: this PokerNow game is in the ledger already, in session friday: it is "
        "not imported into session saturday too (its buy-ins would count twice); nothing of "
        "the file was written\n")
    assert events(db) == before


PN2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"


def test_a_second_game_into_the_same_session_is_said_in_one_warning(tmp_path: Path) -> None:
    """Two PokerNow games given one ``--session`` (a host who forgot to change it): the second
    goes in, exit 0, with one warning naming the file, the session and the game it holds
    already, what it means and what to do; the books count both games (three buy-ins of 100,
    then four of 50: A8 bought 150). Each log imported again, the first one too, says nothing
    more."""
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(PN), "--session", "club-w1") == (
        0, "imported 4 hand(s) (60 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
    assert one_shot(db, "import", str(PN2), "--session", "club-w1") == (
        0, "imported 4 hand(s) (82 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        f"warning: {PN2}: this PokerNow game goes into session club-w1, which holds another "
        "PokerNow game already (its first hand pn-club-w1-1-164210353199300, from "
        "charlestudor_Input_Log_001.csv): both games' buy-ins and hands count in club-w1's "
        "books; if that is a mistake, this ledger cannot move the game to another session "
        "(`session void club-w1` takes both games back, and the log is refused under another "
        "session then): import each log into a new ledger with its own --session (`handledger "
        "--db NEW import --session S FILE`) before anything else is recorded here\n")
    books = _books(db, "club-w1")
    [listed] = books["session list --json"][1]["sessions"]  # type: ignore[index]
    assert (listed["session"], listed["buy_ins"], listed["hands"]) == ("club-w1", 7, 8)
    assert _nets(books)["gE4aE_Yhc3"][1] == 150  # his buy-ins: 100 in one game, 50 in the other
    before = events(db)
    for log in (PN2, PN):
        assert one_shot(db, "import", str(log), "--session", "club-w1") == (
            0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
               "0 rejected\n", "")
    assert events(db) == before


def test_a_longer_export_of_the_game_in_the_session_gives_no_warning(tmp_path: Path) -> None:
    """Hand #1 and the lines before it imported with ``--session friday``, then the whole log
    with it: the same game (its first hand is there), so nothing is said but the summary."""
    db = tmp_path / "t.duckdb"
    early = _cut(PN, 22, tmp_path / "early" / PN.name)
    assert one_shot(db, "import", str(early), "--session", "friday")[::2] == (0, "")
    assert one_shot(db, "import", str(PN), "--session", "friday") == (
        0, "imported 3 hand(s) (39 events) from 1 file(s); 1 already in the ledger; 0 rejected\n",
        "")


#: The four hands of the first charlestudor log imported with ``--session club-w1``.
W1 = [f"pn-club-w1-{n}-{t}" for n, t in (
    (1, 164210353199300), (2, 164210354621900), (3, 164210356587500), (4, 164210359269400))]
#: What the second charlestudor log's import prints: its four hands, no other line.
PN2_IN = ("imported 4 hand(s) (82 events) from 1 file(s); 0 already in the ledger; "
          "0 rejected\n")
#: The end of the warning of a PokerNow game imported into session S holding another one.
MISTAKE = ("if that is a mistake, this ledger cannot move the game to another session "
           "(`session void {s}` takes both games back, and the log is refused under another "
           "session then): import each log into a new ledger with its own --session "
           "(`handledger --db NEW import --session S FILE`) before anything else is recorded "
           "here\n")


@pytest.fixture(scope="module")
def club_w1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first charlestudor log imported with ``--session club-w1``, once for the module;
    copy it to change it."""
    db = tmp_path_factory.mktemp("club-w1") / "t.duckdb"
    assert one_shot(db, "import", str(PN), "--session", "club-w1")[0] == 0
    return db


def test_a_game_taken_back_by_session_void_is_no_other_game_of_the_session(
        tmp_path: Path, club_w1: Path) -> None:
    """The first game taken back by ``session void`` (its hands voided, its book entries
    retracted): the second log with ``--session club-w1`` then goes in with its summary
    alone."""
    db = copy_ledger(club_w1, tmp_path / "t.duckdb")
    assert one_shot(db, "session", "void", "club-w1", "--reason", "wrong night", "--by",
                    "host")[0] == 0
    assert one_shot(db, "import", str(PN2), "--session", "club-w1") == (0, PN2_IN, "")


def test_a_game_whose_hands_are_voided_still_counts_by_its_buy_ins(
        tmp_path: Path, club_w1: Path) -> None:
    """The first game's four hands voided one by one, its buy-ins left standing (``void``
    takes back hands, not book entries): the second log's warning says so, naming the first
    buy-in not retracted (entry 4: the session's opening, an alias and a seat come first)."""
    db = copy_ledger(club_w1, tmp_path / "t.duckdb")
    for hand in reversed(W1):
        assert one_shot(db, "void", hand, "--reason", "wrong night", "--by", "host")[0] == 0
    assert one_shot(db, "import", str(PN2), "--session", "club-w1") == (0, PN2_IN, (
        f"warning: {PN2}: this PokerNow game goes into session club-w1, which holds another "
        f"PokerNow game already (its hands all voided, from {W1[0]} on, but its buy-in at "
        "entry 4 not retracted): both games' buy-ins and hands count in club-w1's books; "
        + MISTAKE.format(s="club-w1")))


def test_a_game_with_a_hand_not_voided_is_still_said_by_that_hand(
        tmp_path: Path, club_w1: Path) -> None:
    """Hand #1 of the first game voided, hands #2-#4 not: the second log's warning names the
    first hand not voided. Its void undone (`undo` appends a correction), hand #1 counts
    again: a third game's log names it as the first hand."""
    db = copy_ledger(club_w1, tmp_path / "t.duckdb")
    assert one_shot(db, "void", W1[0], "--reason", "misdeal", "--by", "host")[0] == 0
    assert one_shot(db, "import", str(PN2), "--session", "club-w1") == (0, PN2_IN, (
        f"warning: {PN2}: this PokerNow game goes into session club-w1, which holds another "
        f"PokerNow game already (its first hand not voided, {W1[1]}, from "
        "charlestudor_Input_Log_001.csv): both games' buy-ins and hands count in club-w1's "
        "books; " + MISTAKE.format(s="club-w1")))
    assert one_shot(db, "undo", W1[0], "--reason", "not a misdeal", "--by", "host")[0] == 0
    assert one_shot(db, "import", str(VK), "--session", "club-w1")[::2] == (0, (
        f"warning: {VK}: this PokerNow game goes into session club-w1, which holds another "
        f"PokerNow game already (its first hand {W1[0]}, from "
        "charlestudor_Input_Log_001.csv): both games' buy-ins and hands count in club-w1's "
        "books; " + MISTAKE.format(s="club-w1")))


def test_two_games_saved_under_one_file_name_land_in_one_session_and_say_why(
        tmp_path: Path) -> None:
    """Without ``--session`` a log goes to the session its file's name gives it (``night``
    for ``night.csv``): the two charlestudor games saved as ``night.csv`` in two folders land
    in one session, and the second's warning says so (the name came from the file, the other
    game's log had the same name). Under their own file names they land in two sessions and
    nothing is said."""
    db = tmp_path / "t.duckdb"
    first, second = (tmp_path / folder / "night.csv" for folder in ("mon", "tue"))
    for log, path in ((PN, first), (PN2, second)):
        path.parent.mkdir()
        path.write_bytes(log.read_bytes())
    assert one_shot(db, "import", str(first))[::2] == (0, "")
    assert one_shot(db, "import", str(second)) == (0, PN2_IN, (
        f"warning: {second}: this PokerNow game goes into session night, the session its "
        "file's name gives it (no --session given), which holds another PokerNow game "
        "already (its first hand pn-night-1-164210353199300, from night.csv, a log of the "
        "same file name): both games' buy-ins and hands count in night's books; "
        + MISTAKE.format(s="night")))
    listed = json.loads(one_shot(db, "session", "list", "--json")[1])["sessions"]
    assert [(s["session"], s["hands"], s["buy_ins"]) for s in listed] == [("night", 8, 7)]
    apart = tmp_path / "apart.duckdb"
    assert one_shot(apart, "import", str(PN))[::2] == (0, "")
    assert one_shot(apart, "import", str(PN2)) == (  # its own session: its opening too
        0, "imported 4 hand(s) (83 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    listed = json.loads(one_shot(apart, "session", "list", "--json")[1])["sessions"]
    assert [(s["session"], s["hands"]) for s in listed] == [
        ("charlestudor_Input_Log_001", 4), ("charlestudor_Input_Log_002", 4)]


def test_json_lines_and_phh_hands_into_the_session_get_no_such_warning(
        tmp_path: Path, club_w1: Path) -> None:
    """The second game's four hands exported as JSON lines (PokerNow hands, no book) and a
    PHH hand, each imported with ``--session club-w1``: only the warning every such hand
    gets (its players bought nothing in club-w1), never the PokerNow game's one."""
    other = tmp_path / "other.duckdb"
    assert one_shot(other, "import", str(PN2), "--session", "club-w1")[0] == 0
    hands = sorted({e[2] for e in events(other) if e[5] == "hand_started"})
    jsonl = tmp_path / "g2.jsonl"
    assert one_shot(other, "export", *hands, "-o", str(jsonl))[0] == 0
    db = copy_ledger(club_w1, tmp_path / "t.duckdb")
    assert one_shot(db, "import", str(jsonl), "--session", "club-w1") == (
        0, "imported 4 hand(s) (64 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected; 1 warning(s) about hands stored\n",
        f"warning: {jsonl}:1: hand pn-club-w1-1-164267577749500: CzMp1GAawT, 6OQxLdU_ZO, "
        "YJJJbgIQrB have no buy-in in session club-w1: settle would bill chips nobody bought "
        "(RULES.md §1.1; `hand start` refuses such a seat) (stored; the audit reports it)\n")
    phh = DATA / "hands" / "plo-three-way.phh"
    assert one_shot(db, "import", str(phh), "--session", "club-w1") == (
        0, "imported 1 hand(s) (26 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected; 1 warning(s) about hands stored\n",
        f"warning: {phh}:1: hand phh-e90348620d79: Ona, Pia, Quin have no buy-in in session "
        "club-w1: settle would bill chips nobody bought (RULES.md §1.1; `hand start` refuses "
        "such a seat) (stored; the audit reports it)\n")


def test_strict_takes_the_second_game_with_its_warning(tmp_path: Path, club_w1: Path) -> None:
    """``--strict`` refuses a file with a bad hand, never one for a warning (README): the
    second game goes in as without it, exit 0, the warning said. Its log with a card that is
    none (hand #3's ``Your hand is``, line 29) is refused whole under ``--strict``: the
    refusal alone, no warning about a game that did not go in, nothing written. Without
    ``--strict`` hands #1 and #2 go in (#3 and #4, which follows it, refused), and so the
    warning is said after the refusals."""
    db = copy_ledger(club_w1, tmp_path / "t.duckdb")
    shared = (" this PokerNow game goes into session club-w1, which holds another PokerNow "
              "game already (its first hand pn-club-w1-1-164210353199300, from "
              "charlestudor_Input_Log_001.csv): both games' buy-ins and hands count in "
              "club-w1's books; " + MISTAKE.format(s="club-w1"))
    assert one_shot(db, "import", "--strict", str(PN2), "--session", "club-w1") == (
        0, PN2_IN, f"warning: {PN2}:{shared}")
    bad = _edited(tmp_path, 29, "Your hand is K♦, 9♥", "Your hand is K♦, 9X", source=PN2)
    refused = (f"error: {bad}:29, hand pn-club-w1-3-164267588246201, action 'Your hand is K♦, "
               "9X': ' 9X' is not a card")
    db = copy_ledger(club_w1, tmp_path / "bad.duckdb")
    before = events(db)
    assert one_shot(db, "import", "--strict", str(bad), "--session", "club-w1") == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 2 rejected; "
           "2 other hand(s) not written, their file refused\n",
        f"{refused} (and 1 more error(s) in the file); --strict: nothing of this file was "
        "written\n")
    assert events(db) == before
    assert one_shot(db, "import", str(bad), "--session", "club-w1") == (
        2, "imported 2 hand(s) (51 events) from 1 file(s); 0 already in the ledger; "
           "2 rejected\n",
        f"{refused}\nerror: {bad}:16, hand pn-club-w1-4-164267592456700: hand #4 follows the "
        "refused hand #3 in the log and is not written, nor the session lines after it (the "
        "stacks carry from hand to hand): fix the log and import it again\n"
        f"warning: {bad}:{shared}")


def test_an_export_of_no_hand_under_session_friday_takes_the_whole_log(
        tmp_path: Path, whole_books) -> None:  # noqa: ANN001
    """Only the approvals imported, with ``--session friday``: the whole log finds its game
    by those entries and goes to friday too, never a second session."""
    db = tmp_path / "t.duckdb"
    early = _cut(PN, 9, tmp_path / "early" / PN.name)
    assert one_shot(db, "import", str(early), "--session", "friday")[0] == 0
    assert one_shot(db, "import", str(PN))[0] == 0
    books = _books(db, "friday")
    assert books == whole_books("friday", PN, "--session", "friday")


def test_an_export_in_whole_chips_then_the_log_in_cents_is_refused(tmp_path: Path) -> None:
    """A cents game (run-it-twice) cut after its first row: no amount yet, so the first
    export counts whole chips. The whole log counts cents: its amounts are not the stored
    ones, so it is refused in one line and nothing is written. (The first export's refused
    hand left no name to know the game by, so the line names the session's unit.)"""
    db = tmp_path / "t.duckdb"
    early = _cut(RIT, 1, tmp_path / "early" / RIT.name)
    one_shot(db, "import", str(early))  # hand #30's start alone: refused, the opening kept
    before = events(db)
    assert [e[5] for e in before] == ["session_opened"]  # not the refused hand's names
    assert one_shot(db, "import", str(RIT)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
           "3 other hand(s) not written, their file refused\n",
        f"error: {RIT}: this log counts cents (an amount has a decimal point), but session "
        "pokernowpy_run-it-twice counts whole chips (a PokerNow log opened it): its amounts "
        "would be read in another unit; nothing of the file was written (another game's log? "
        "give it a session of its own: --session NAME)\n")
    assert events(db) == before


def _sql(db: Path, query: str) -> list[tuple[object, ...]]:
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(query).fetchall()


def _stream(db: Path, hand: str) -> list[dict[str, object]]:
    return [{"type": t, "payload": json.loads(p)} for t, p in _sql(
        db, f"SELECT type, CAST(payload AS VARCHAR) FROM events WHERE hand_id = '{hand}'"
        " ORDER BY seq")]
