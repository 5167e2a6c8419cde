"""Mistakes a host makes with the files of a night, at the command line: an edited PokerNow
log imported again is refused whole, nothing of it stored (FORMATS.md §2)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

PN = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"


def _edited(tmp_path: Path, line: int, old: str, new: str, source: Path = PN) -> Path:
    """A copy of ``source`` under its own name in ``tmp_path``, ``old`` made ``new`` on its
    (1-based) ``line``."""
    rows = source.read_text(encoding="utf-8").split("\n")
    assert old in rows[line - 1]
    rows[line - 1] = rows[line - 1].replace(old, new)
    path = tmp_path / "edit" / source.name
    path.parent.mkdir(exist_ok=True)
    path.write_text("\n".join(rows), encoding="utf-8")
    return path


def test_an_edited_approval_in_a_pokernow_log_writes_nothing(tmp_path: Path) -> None:
    """The admin's approval of Qapurjsa9 edited from 100 to 150 (line 54): the join that
    follows (line 47, 100) no longer matches, and the refused import had appended a seat
    change and a buy-in of 150 (Qapurjsa9 then bought 250)."""
    db = tmp_path / "pn.duckdb"
    assert one_shot(db, "import", str(PN))[0] == 0
    before = events(db)
    assert len(before) == 60
    edited = _edited(tmp_path, 54, "stack of 100.", "stack of 150.")
    code, out, err = one_shot(db, "import", str(edited))
    assert code == 2
    assert out.startswith("imported 0 hand(s) (0 events) from 1 file(s)")
    assert err == (
        f"error: {edited}:47, session charlestudor_Input_Log_001, action 'The player "
        '"Qapurjsa9 @ BfS83Cedu3" joined the game with a stack of 100.\': joins with 100 but '
        "has 150 at the table; a line of the session's book is refused, so nothing of the "
        "file was written (correct the line and import the file again)\n")
    assert events(db) == before
    code, out, _ = one_shot(db, "balances", "--json")
    assert code == 0 and '"buy_in": 250' not in out and out.count('"buy_in": 100') == 3


def test_pokernow_errors_name_the_path_as_given(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """A relative path stays relative, a directory stays in it (PHH and JSON-lines errors
    name the path so), in the warning of a hand stored too; the events still record the
    file's name alone."""
    edited = _edited(tmp_path, 46, '"TA @ gE4aE_Yhc3"" (100)', '"TA @ gE4aE_Yhc3"" (90)')
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "given.duckdb"
    code, _, err = one_shot(db, "import", "edit/charlestudor_Input_Log_001.csv")
    assert code == 0  # the hand is stored as logged: a warning, no refusal
    hand = "hand pn-charlestudor_Input_Log_001-2-164210354621900"  # 90 after the join's 100
    assert err.startswith(f"warning: edit/charlestudor_Input_Log_001.csv:36: {hand}: ")
    assert err.count("warning: edit/charlestudor_Input_Log_001.csv:") == err.count("\n") == 2
    code, _, err = one_shot(db, "import", str(edited))  # stored already: no second warning
    assert (code, err) == (0, "")
    code, _, err = one_shot(tmp_path / "absolute.duckdb", "import", str(edited))
    assert err.startswith(f"warning: {edited}:36: {hand}: ")
    files = {e[6].count('"file":"charlestudor_Input_Log_001.csv"') for e in events(db)
             if e[5] == "session_opened"}
    assert files == {1}


def test_an_edited_pokernow_hand_imported_again_is_refused(tmp_path: Path) -> None:
    """Hand #3 edited (TA bets 8, not 10; 8 comes back): same PokerNow hand id, so the same
    source key; it counted as already in the ledger. Now the log is refused whole in one
    line (hand #4 would not follow the stored #3). The log unchanged is still known."""
    db = tmp_path / "pn.duckdb"
    assert one_shot(db, "import", str(PN))[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(PN))[1].startswith(
        "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 0 rejected")
    edited = _edited(tmp_path, 14, "bet of 10 ", "bet of 8 ")
    edited = _edited(tmp_path, 16, "bets 10", "bets 8", source=edited)
    code, out, err = one_shot(db, "import", str(edited))
    hand = "pn-charlestudor_Input_Log_001-3-164210356587500"
    assert code == 2
    # the log's 3 hands the ledger holds already are known, the edited one refused
    assert out.startswith("imported 0 hand(s) (0 events) from 1 file(s); 3 already in the "
                          "ledger; 1 rejected")
    # line 26: "-- starting hand #3 ..." (the log runs newest first)
    assert err == (f"error: {edited}:26, hand {hand}: a different hand {hand} is already in the "
                   'ledger: its event 12 is bet_raise {"player":"gE4aE_Yhc3","to":8} here, '
                   'bet_raise {"player":"gE4aE_Yhc3","to":10} in the ledger; a change to a '
                   f"stored hand is a correction (`handledger correct {hand} ...`); nothing of "
                   "this file was written (the hands after it would not follow the ledger's)\n")
    assert events(db) == before


def test_an_edited_pokerstars_hand_imported_again_is_refused(tmp_path: Path) -> None:
    """PokerStars keys a hand by the digest of its text: the first hand edited (raises to
    0.40, 0.30 back) is refused, naming the first event that differs; the file unchanged is
    known."""
    source = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
    db = tmp_path / "ps.duckdb"
    assert one_shot(db, "import", str(source))[0] == 0
    before = events(db)
    code, out, _ = one_shot(db, "import", str(source))
    assert code == 0 and " 0 rejected" in out and out.startswith("imported 0 hand(s)")
    edited = _edited(tmp_path, 14, "raises $0.20 to $0.30", "raises $0.30 to $0.40", source)
    edited = _edited(tmp_path, 16, "($0.20)", "($0.30)", source=edited)
    code, out, err = one_shot(db, "import", str(edited))
    assert code == 2 and " 1 rejected" in out and out.startswith("imported 0 hand(s)")
    assert err.startswith(f"error: {edited}:1, hand PokerStars-35824118297: a different hand ")
    assert "a different hand" in err and "is already in the ledger: its event " in err
    assert '"to":40} here' in err and '"to":30} in the ledger' in err
    assert events(db) == before


def test_session_set_keeps_the_currency_and_decimals(tmp_path: Path) -> None:
    """``session set fri --chip-value 0.5`` on a session of EUR in 3 places: 0.500 EUR (it
    was 0.5 of no currency, the currency dropped); another --currency takes its own places."""
    db = tmp_path / "s.duckdb"
    assert one_shot(db, "session", "open", "fri", "--chip-value", "0.25", "--currency", "EUR",
                    "--decimals", "3")[0] == 0
    assert one_shot(db, "session", "set", "fri", "--chip-value", "0.5") == (
        0, "session fri: 1 chip = 0.500 EUR\n", "")
    assert one_shot(db, "session", "set", "fri", "--chip-value", "2", "--currency", "JPY") == (
        0, "session fri: 1 chip = 2 JPY\n", "")
    assert one_shot(db, "session", "set", "fri", "--chip-value", "0.5", "--decimals", "2") == (
        0, "session fri: 1 chip = 0.50 JPY\n", "")
    changed = [e[6] for e in events(db) if e[5] == "session_changed"]
    assert [(c["chip_value_minor"], c["currency"], c["decimals"]) for c in map(_json, changed)
            ] == [(500, "EUR", 3), (2, "JPY", 0), (50, "JPY", 2)]


def _json(text: object) -> dict:
    import json

    return json.loads(str(text))


HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
players = ['Ann', 'Bob']
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'p2 cbr 10', 'p1 f']
winnings = [0, {won}]
"""


def test_an_uncalled_bet_left_out_and_rake_not_recorded_are_both_said(tmp_path: Path) -> None:
    """Bob raises to 10, Ann folds her 2: the rules give Bob 12 (the pot of 4 and his 8 back).
    A hand our export wrote (``_hand_id``: its winnings are all the table paid) paid 3: 8 is
    his uncalled bet left out, 1 more no rake explains. It was a bare 'paid 3, the rules
    give 12 (-9)'. Paid 4 is the uncalled bet alone, as before. A site's file of the same
    hand gives the pot alone (PHH's winnings, the collected pots): its 4 is the pot and
    the bet is returned beside it; its 3 is the pot paid 1 short."""
    found = {}
    for won in (3, 4):
        path = tmp_path / f"won{won}.phh"
        path.write_text(HEADS_UP.format(won=won))
        assert one_shot(tmp_path / f"site{won}.duckdb", "import", str(path))[0] == 0
        code, out, _ = one_shot(tmp_path / f"site{won}.duckdb", "audit")
        found[f"site{won}"] = (code, out.splitlines()[0])
        path.write_text(HEADS_UP.format(won=won) + f"_hand_id = 'h{won}'\n")
        db = tmp_path / f"won{won}.duckdb"
        assert one_shot(db, "import", str(path))[0] == 0
        code, out, _ = one_shot(db, "audit")
        assert code == 1
        found[won] = out.splitlines()[0]
    hand = found[3].split()[2].rstrip(":")
    assert found[3] == (
        f"payout: hand {hand}: Bob was paid 3, the rules give 12, 9 less: Bob's uncalled bet of "
        "8 is not in it (some sites leave it out), and 1 more is missing that no rake "
        "explains: the hand records no rake (nor a rake rule), so either the site took rake "
        f"the file does not say, or the payout is wrong [hand {hand}, player Bob; expected "
        "12, actual 3]")
    assert found[4].startswith("uncalled: hand ") and "uncalled bet of 8" in found[4]
    assert found["site4"] == (0, "audit clean: 1 hand(s) in 0 session(s); every chip adds up "
                                 "in the books as stored (the hash chain not checked: "
                                 "`handledger verify`)")
    code, line = found["site3"]
    assert code == 1 and line.startswith("payout: hand phh-") and line.endswith(
        ": Bob was paid 11, the rules give 12 (-1) [hand " + line.split()[2].rstrip(":")
        + ", player Bob; expected 12, actual 11]")


def test_a_phh_hand_without_an_id_edited_and_imported_again_is_refused(tmp_path: Path) -> None:
    """A PHH hand with no ``_hand_id`` nor ``hand`` takes its id from its content: the same
    file again is known; edited (Bob raises to 12, not 10) it had been appended as a second
    hand. It is refused at its place (the file as given, its section), naming the event."""
    path = tmp_path / "night.phh"
    path.write_text(HEADS_UP.format(won=12))
    db = tmp_path / "phh.duckdb"
    assert one_shot(db, "import", str(path))[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(path))[1].startswith(
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected")
    path.write_text(HEADS_UP.format(won=12).replace("'p2 cbr 10'", "'p2 cbr 12'"))
    code, out, err = one_shot(db, "import", str(path))
    stored = before[0][2]
    assert code == 2 and out.startswith("imported 0 hand(s) (0 events) from 1 file(s); 0 "
                                        "already in the ledger; 1 rejected")
    assert err.startswith(f"error: {path}:1, hand phh-")
    assert err.endswith(
        f": this hand stands where hand {stored} of the ledger was read from (the same file "
        'and place), and differs from it: its event 6 is bet_raise {"player":"Bob","to":12} '
        'here, bet_raise {"player":"Bob","to":10} in the ledger; a change to a stored hand is '
        f"a correction (`handledger correct {stored} ...`); other hands need a file of "
        "another name\n")
    assert events(db) == before


def test_a_pokerstars_hand_with_another_rake_is_refused(tmp_path: Path) -> None:
    """The fourth hand of the file (line 133: a $5.40 pot, DSOR65 collected $5.15, rake $0.25)
    with its summary's rake edited to $0.20 and nothing else: the same actions and payouts,
    but another rake (in the hand's chips, cents), so another hand, refused in one line (its
    payout, 25 short of the pot where its rake is 20, is no line of its own: the hand is
    refused)."""
    source = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
    db = tmp_path / "ps.duckdb"
    assert one_shot(db, "import", str(source))[0] == 0
    before = events(db)
    edited = _edited(tmp_path, 133, "Rake $0.25", "Rake $0.20", source)
    code, out, err = one_shot(db, "import", str(edited))
    assert code == 2 and out.startswith("imported 0 hand(s)") and " 1 rejected" in out
    assert err == (f"error: {edited}:104, hand PokerStars-35824150484: a different hand "
                   "PokerStars-35824150484 is already in the ledger: its rake is 20 here, 25 "
                   "in the ledger; a change to a stored hand is a correction (`handledger "
                   "correct PokerStars-35824150484 ...`)\n")
    assert events(db) == before
