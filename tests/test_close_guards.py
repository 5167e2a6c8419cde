"""A closed session's books stay as they were settled up (README "sessions and the books"):
``session close`` is refused while a hand of the session is in play, naming the hand and how
to end or void it; a hand in play in a session closed anyway (a ledger written before this
check) takes no live action without ``--closed``, as ``void`` takes none; ``hand start`` on a
closed session is refused. Nothing of a refusal is written."""

from __future__ import annotations

from ledger.model import events as ev
from ledger.store.store import Ledger

OPEN = (("session", "open", "sat", "--date", "2026-11-28", "--chip-value", "0.25", "--currency",
         "USD"), ("buyin", "sat", "Ann", "200"), ("buyin", "sat", "Bob", "200"))
START = ("hand", "start", "--session", "sat", "--hand", "s3", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:200,Bob:200", "--button", "Ann")
# Ann (button, small blind heads-up) raises to 100, Bob folds: Ann takes his 2 and her 100 back
PLAY = ("d dh Ann 2s2h", "d dh Bob Th9h", "Ann cbr 100", "Bob f", "pay Ann 102", "end")


def _rows(db: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return ledger.count()


def _night(user) -> None:  # noqa: ANN001
    for step in (*OPEN, START):
        assert user(*step)[0] == 0, step


def test_close_is_refused_while_a_hand_is_in_play(user, db: str) -> None:  # noqa: ANN001
    _night(user)
    before = _rows(db)
    assert user("session", "close", "sat") == (
        2, "", "error: session sat has hand s3 still in play: end it (`handledger act s3 end`, "
        "once its pots are paid) or void it (`handledger void s3 --reason … --by …`), then "
        "close; nothing written\n")
    assert _rows(db) == before
    for action in PLAY:
        assert user("act", "s3", action)[0] == 0, action
    assert user("session", "close", "sat")[1].startswith("session sat closed\n")
    # a new hand on the closed session is refused as before
    code, out, err = user(*START[:5], "s4", *START[6:])
    assert (code, out, err) == (2, "", "error: session 'sat' is closed: it takes no more hands "
                                "or buy-ins (payments still go in; a cash-out or a correction of "
                                "its entries with --closed)\n")


def test_close_counts_every_hand_in_play_and_a_void_clears_one(user) -> None:  # noqa: ANN001
    _night(user)
    for player in ("Cy", "Dee"):  # a second table: a player sits in one hand at a time
        assert user("buyin", "sat", player, "200")[0] == 0
    assert user(*START[:5], "s4", *START[6:11], "Cy:200,Dee:200", "--button", "Cy")[0] == 0
    assert user("session", "close", "sat")[2].startswith(
        "error: session sat has hand s3 still in play (and 1 more hand): end it")
    assert user("void", "s3", "--reason", "misdeal", "--by", "Cy")[0] == 0
    assert user("session", "close", "sat")[2].startswith(
        "error: session sat has hand s4 still in play: end it (`handledger act s4 end`")
    assert user("void", "s4", "--reason", "misdeal", "--by", "Cy")[0] == 0
    assert user("session", "close", "sat")[0] == 0


def test_a_void_taken_back_puts_the_hand_in_play_again(user) -> None:  # noqa: ANN001
    _night(user)
    assert user("void", "s3", "--reason", "misdeal", "--by", "Cy")[0] == 0
    assert user("undo", "s3", "--by", "Cy")[0] == 0  # the void and a correction stay as rows
    assert user("session", "close", "sat")[2].startswith(
        "error: session sat has hand s3 still in play: ")


def _closed_in_play(db: str) -> None:
    """Close session sat as a ledger written before the check could: s3 still in play."""
    with Ledger(db) as ledger:
        ledger.append("session:sat", [ev.SessionClosed()], expected_seq=3)


def test_an_action_in_a_closed_sessions_hand_needs_closed(user, db: str) -> None:  # noqa: ANN001
    _night(user)
    _closed_in_play(db)  # entry 4 of sat
    before = _rows(db)
    refusal = ("error: hand s3, action 'd dh Ann 2s2h': session sat is closed (entry 4) and hand "
               "s3 is still in play: an action now moves its players' nets in books settled "
               "up; nothing written; --closed records it anyway (then end the hand, or void it "
               "with --closed)\n")
    assert user("act", "s3", "d dh Ann 2s2h") == (2, "", refusal)
    piped = refusal.replace("error: ", "error: line 1, ", 1)  # the input's line named
    code, out, err = user("table", "s3", input="\n".join(PLAY) + "\n")
    assert (code, out, err) == (2, "", piped)  # piped input stops at its first refusal
    code, out, err = user("table", "s3", "--keep-going", input="\n".join(PLAY) + "\n")
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == piped.rstrip("\n")
    assert len(err.splitlines()) == len(PLAY)
    assert err.splitlines()[-1] == refusal.rstrip("\n").replace(
        "error: ", f"error: line {len(PLAY)}, ", 1).replace("'d dh Ann 2s2h'", "'end'")
    assert user("void", "s3", "--reason", "x", "--by", "Cy")[2] == (
        "error: hand s3: session sat is closed and voiding hand s3 moves its players' nets "
        "(Bob +2, Ann +1): nothing written; --closed records it anyway\n")
    assert _rows(db) == before
    # said meant: the hand is played to its end, Ann +2 and Bob -2 in the closed books
    code, out, err = user("table", "s3", "--closed", input="\n".join(PLAY) + "\n")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "9 hand_ended; hand complete"
    assert _rows(db) == before + len(PLAY)
    # an ended hand takes no action: a change now is a correction, as for any session
    assert user("act", "s3", "Bob f")[2] == (
        "error: hand s3, action 'Bob f': the hand is complete: a change now is a correction "
        "(`handledger correct`)\n")


def test_table_closed_on_a_hand_of_an_open_session_is_refused_before_its_lines(
        user, db: str) -> None:  # noqa: ANN001
    """`table s3 --closed`, session sat open: refused once, naming the command as typed, as
    `act s3 … --closed` is, before any line is read; nothing written."""
    _night(user)
    before = _rows(db)
    said = ("session sat is open: --closed is for a closed session's books; nothing written "
            "(leave out --closed)\n")
    assert user("table", "s3", "--closed", input="\n".join(PLAY) + "\n") == (
        2, "", f"error: table s3 --closed: {said}")
    assert user("act", "s3", PLAY[0], "--closed") == (
        2, "", f"error: act s3 'd dh Ann 2s2h' --closed: {said}")
    assert _rows(db) == before


def test_a_suggested_command_quotes_its_words_for_the_shell(user, db: str) -> None:  # noqa: ANN001
    """A session ``x y``, a hand ``h 1`` and a player ``O'Brien``: each suggested command can
    be pasted into a shell as printed (one word each, quoted where the shell would split or
    end it), as the names are printed bare elsewhere in the line."""
    for args in (("session", "open", "x y", "--date", "2026-01-09"),
                 ("buyin", "x y", "O'Brien", "100"), ("buyin", "x y", "Ann", "100"),
                 ("hand", "start", "--session", "x y", "--hand", "h 1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "O'Brien:100,Ann:100", "--button", "Ann")):
        assert user(*args)[0] == 0, args
    assert user("session", "close", "x y") == (
        2, "", "error: session x y has hand h 1 still in play: end it (`handledger act 'h 1' "
               "end`, once its pots are paid) or void it (`handledger void 'h 1' --reason … "
               "--by …`), then close; nothing written\n")
    assert user("cashout", "x y", "O'Neil", "5") == (
        2, "", "error: O'Neil has no buy-in in x y: nothing to cash out (chips at the table: "
               "Ann, O'Brien; a buy-in not yet recorded goes first: `handledger buyin 'x y' "
               "'O'\"'\"'Neil' CHIPS`)\n")
    assert user("entry", "amend", "x y", "2", "90", "--reason", "r", "--by", "me")[2].endswith(
        "`handledger history --session 'x y'` lists the entries)\n")


def test_shell_words_stay_bare_unless_the_shell_would_read_them_otherwise() -> None:
    from ledger.model.shell import shell_arg

    assert [shell_arg(w) for w in ("Ann", "Zoë", "李雷x", "h-1", 7, "x y", "O'Brien", "",
                                   "a#b", "ksv @ ycx")] == [
        "Ann", "Zoë", "李雷x", "h-1", "7", "'x y'", "'O'\"'\"'Brien'", "''", "'a#b'",
        "'ksv @ ycx'"]
