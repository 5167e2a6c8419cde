"""The hands and session lines after a refused PokerNow hand are not written, whatever refuses
it (FORMATS.md §2; README, PokerNow: "Any other finding…"): the engine's check of a hand the
log reads (a card shown that the board holds, a bet below the minimum), a row of it that
cannot be read, or a call that does not match the bet; one more error line names them, each
counted rejected, and the log fixed then imports them in the log's order, the audit clean.
Only the reader's refusals did that: the engine's, and an unreadable row, let hands #22-#52
(or #31-#52) be stored, and the fixed log then appended the refused hand after them: 10
permanent audit findings."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_host_mistakes import _edited
from tests.test_live_table import events, one_shot
from tests.test_pokernow_warnings import VK, _audit, _hands

HAND = "pn-{}-{}-{}"
H21, H30 = "21-165843907408700", "30-165843940392600"
H22, H31 = "22-165843910787901", "31-165843944491300"  # the first hands that follow them
FIXED20 = "imported 32 hand(s) (592 events) from 1 file(s); 20 already in the ledger; 0 rejected\n"
FIXED29 = "imported 23 hand(s) (398 events) from 1 file(s); 29 already in the ledger; 0 rejected\n"


def _follow(log: Path, line: int, hand: str, refused: int, first: int) -> str:
    """The line for the hands after refused hand #``refused``: it names the first of them,
    #``first``, ``hand`` starting on ``line``."""
    count = 52 - first + 1
    return (f"error: {log}:{line}, hand {hand}: hands #{first} to #52 ({count} hands) follow "
            f"the refused hand #{refused} in the log and are not written, nor the session "
            "lines after it (the stacks carry from hand to hand): fix the log and import it "
            "again\n")


def _thu(db: Path) -> None:
    assert one_shot(db, "session", "open", "thu", "--chip-value", "0.05",
                    "--currency", "USD")[0] == 0


def test_a_hand_the_engine_refuses_refuses_the_hands_after_it(tmp_path: Path) -> None:
    """Hand #21 of the valakuzhyk log, Hznmh's show edited from Q♠ K♠ to Q♠ 8♠ (line 534),
    the 8♠ on the board: the engine refuses the hand (card dealt twice); #22-#52 and the
    session lines after it are not written (they were: 51 imported, 1 rejected). Imported
    into session thu as the user did; the log as logged then adds the 32 hands, #21 first,
    and the audit is clean (it had 10 findings)."""
    log = _edited(tmp_path, 534, "Q♠, K♠.", "Q♠, 8♠.", source=VK)
    db = tmp_path / "f.duckdb"
    _thu(db)
    hand = HAND.format("thu", *H21.split("-", 1))
    assert one_shot(db, "import", "--session", "thu", str(log)) == (2, (
        "imported 20 hand(s) (662 events) from 1 file(s); 0 already in the ledger; "
        "32 rejected\n"),
        f"error: {log}:554, hand {hand}, action 'reveal by 1RhUayZFQU': card 8s is dealt "
        "twice: it was dealt first on the board\n"
        + _follow(log, 529, HAND.format("thu", *H22.split("-", 1)), 21, 22))
    assert len(_hands(db)) == 20
    assert one_shot(db, "import", "--session", "thu", str(VK)) == (0, FIXED20, "")
    assert _hands(db)[20] == hand
    assert _audit(db) == (0, {"discrepancies": []})


def test_a_bet_below_the_minimum_refuses_the_hands_after_it(tmp_path: Path) -> None:
    """Hand #30, Phzd "bets 50" on the river (line 369; was 200, the big blind 200): the
    engine refuses the bet (nobody has bet on the river); #31-#52 are not written (they
    were, #31 with a stack warning), and the fixed log adds 23 hands: audit clean."""
    log = _edited(tmp_path, 369, "bets 200", "bets 50", source=VK)
    db = tmp_path / "b.duckdb"
    hand = HAND.format(log.stem, *H30.split("-", 1))
    code, out, err = one_shot(db, "import", str(log))
    assert (code, out) == (2, "imported 29 hand(s) (857 events) from 1 file(s); 0 already in "
                              "the ledger; 23 rejected\n")  # its session_opened too
    assert err.splitlines(keepends=True) == [
        f"error: {log}:386, hand {hand}, action 'bet_raise by Bq7QhNKAYJ': bet to 50 is "
        "below the minimum 200\n",
        _follow(log, 364, HAND.format(log.stem, *H31.split("-", 1)), 30, 31)]
    assert one_shot(db, "import", "--session", log.stem, str(VK)) == (0, FIXED29, "")
    assert _audit(db) == (0, {"discrepancies": []})


def test_a_row_cut_short_refuses_its_hand_and_the_hands_after_it(tmp_path: Path) -> None:
    """Hand #30's "checks" cut to "che" (line 370): the row cannot be read, so hand #30 is
    refused, and now #31-#52 with it (they were stored: the row's error came before the
    hand was built, so the reader did not count the hand refused)."""
    log = _edited(tmp_path, 370, '"" checks"', '"" che"', source=VK)
    db = tmp_path / "r.duckdb"
    _thu(db)
    hand = HAND.format("thu", *H30.split("-", 1))
    assert one_shot(db, "import", "--session", "thu", str(log)) == (2, (
        "imported 29 hand(s) (856 events) from 1 file(s); 0 already in the ledger; "
        "23 rejected\n"),
        f"error: {log}:370, hand {hand}, action '\"Efvoziamtgktl @ JC9KmsGDZv\" che': "
        "unrecognised log entry\n" + _follow(log, 364, HAND.format("thu", *H31.split("-", 1)),
                                              30, 31))
    assert one_shot(db, "import", "--session", "thu", str(VK)) == (0, FIXED29, "")
    assert _audit(db) == (0, {"discrepancies": []})


def test_a_quit_after_a_refused_hand_does_not_refuse_the_file(tmp_path: Path) -> None:
    """Hand #21 with Hznmh "bets 50" on the flop (line 542; Aab's "calls 150" then does not
    match it): the hand is refused, and the quit of gaxdqwmwksve logged after it ("with a
    stack of 0", line 530: #21 took his 85) is one of its followers, not written: the file
    was refused whole for it ("leaves with 0 but has 85", the stacks counted without #21)."""
    log = _edited(tmp_path, 542, "bets 150", "bets 50", source=VK)
    db = tmp_path / "q.duckdb"
    _thu(db)
    hand = HAND.format("thu", *H21.split("-", 1))
    code, out, err = one_shot(db, "import", "--session", "thu", str(log))
    assert (code, out) == (2, "imported 20 hand(s) (662 events) from 1 file(s); 0 already in "
                              "the ledger; 32 rejected\n")
    assert err.splitlines(keepends=True) == [
        f"error: {log}:541, hand {hand}, action '\"Aab Ovwsi @ gKyQzJRs7T\" calls 150': calls "
        "150 but the bet is 50\n", _follow(log, 529, HAND.format("thu", *H22.split("-", 1)),
                                            21, 22)]
    assert one_shot(db, "import", "--session", "thu", str(VK)) == (0, FIXED20, "")
    assert _audit(db) == (0, {"discrepancies": []})


def test_followers_the_ledger_holds_are_known(tmp_path: Path) -> None:
    """The log imported as logged, then the copy with #21's show edited under the same
    name: #21 refused (card dealt twice), the 51 others already in the ledger, no line
    about followers (nothing of them would be written)."""
    db = tmp_path / "k.duckdb"
    assert one_shot(db, "import", str(VK))[0] == 0
    log = _edited(tmp_path, 534, "Q♠, K♠.", "Q♠, 8♠.", source=VK)
    hand = HAND.format(log.stem, *H21.split("-", 1))
    assert one_shot(db, "import", str(log)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 51 already in the ledger; "
           "1 rejected\n",
        f"error: {log}:554, hand {hand}, action 'reveal by 1RhUayZFQU': card 8s is dealt "
        "twice: it was dealt first on the board\n")


def _renamed_in_52(tmp_path: Path, old: str, new: str) -> Path:
    """The valakuzhyk log with hand #52 (its last) refused by ``old`` made ``new`` on one of
    its lines, and Efvoziamtgktl's show in it (line 8) under the name "Typo": a name only the
    refused hand's rows give."""
    rows = VK.read_text(encoding="utf-8").split("\n")
    [at] = [i for i in range(2, 16) if old in rows[i]]
    rows[at] = rows[at].replace(old, new)
    assert rows[7].startswith('"""Efvoziamtgktl @ JC9KmsGDZv"" shows')
    rows[7] = rows[7].replace("Efvoziamtgktl @", "Typo @")
    path = tmp_path / "edit" / VK.name
    path.parent.mkdir()
    path.write_text("\n".join(rows), encoding="utf-8")
    return path


def _names(db: Path) -> list[str]:
    """The names stored for Efvoziamtgktl's PokerNow id, in order."""
    return [json.loads(e[6])["alias"] for e in events(db) if e[5] == "player_alias"
            and json.loads(e[6])["player"] == "JC9KmsGDZv"]


def _nickname(db: Path) -> str:
    code, out, _ = one_shot(db, "balances", "--json")
    assert code == 0
    [row] = [r for r in json.loads(out)["players"] if r["player"] == "JC9KmsGDZv"]
    return row["nickname"]


def test_a_name_only_a_hand_the_engine_refuses_gives_is_not_stored(tmp_path: Path) -> None:
    """Hand #52, Aab's show edited from 8♦ A♦ to 8♦ J♦ (the J♦ on the board: the engine
    refuses the hand) and Efvoziamtgktl's show in it under the name "Typo": 51 hands go in,
    1,239 events, and not the name "Typo" (it was stored, 1,240 events, and the books named
    him Typo from then on, in every session). The log as logged adds the hand, 16 events,
    under his one name."""
    log = _renamed_in_52(tmp_path, "shows a 8♦, A♦.", "shows a 8♦, J♦.")
    db = tmp_path / "e.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, out) == (2, "imported 51 hand(s) (1239 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert "card Jd is dealt twice" in err.splitlines()[0]
    assert _names(db) == ["Efvoziamtgktl"]
    assert _nickname(db) == "Efvoziamtgktl"
    assert one_shot(db, "import", "--session", log.stem, str(VK)) == (0, (
        "imported 1 hand(s) (16 events) from 1 file(s); 51 already in the ledger; "
        "0 rejected\n"), "")
    assert (_names(db), _nickname(db)) == (["Efvoziamtgktl"], "Efvoziamtgktl")
    assert _audit(db) == (0, {"discrepancies": []})


def test_a_name_only_a_hand_a_line_refuses_gives_is_not_stored(tmp_path: Path) -> None:
    """Hand #52, Aab's call of the all-in 1,290 edited to "calls 1000" (line 10): the
    reader refuses the hand (the call does not match the bet); "Typo", a name only its rows
    give, is not stored either."""
    log = _renamed_in_52(tmp_path, "calls 1290", "calls 1000")
    db = tmp_path / "r.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, out) == (2, "imported 51 hand(s) (1239 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert err.splitlines()[0] == (
        f"error: {log}:10, hand pn-{log.stem}-52-165843996642600, action '\"Aab Ovwsi @ "
        "gKyQzJRs7T\" calls 1000': calls 1000 but the bet is 1290")
    assert (_names(db), _nickname(db)) == (["Efvoziamtgktl"], "Efvoziamtgktl")
    assert one_shot(db, "import", "--session", log.stem, str(VK))[0] == 0
    assert (_names(db), _nickname(db)) == (["Efvoziamtgktl"], "Efvoziamtgktl")
    assert _audit(db) == (0, {"discrepancies": []})
