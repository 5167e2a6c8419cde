"""Stack continuity after corrections is checked against each hand's effective (as-corrected)
result: a correction that puts a hand back as it was warns of nothing (README: audit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.copies import copy_ledger
from tests.test_disputes import _play

H1 = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cc", "Bob cc", "d db 2c3d4h", "Bob cc", "Ann cc",
      "d db 9s", "Bob cc", "Ann cc", "d db Td", "Bob cc", "Ann cc", "pay Ann 4", "end")
# h1: blinds 1/2 (seqs 2-3), Ann's aces win the 4-chip pot: seq 17 is the payout, 18 the end


def _hint(stacks: str, hand: str = "h2") -> str:
    """The line after a later hand's warnings: how to make its start follow."""
    return (f"    to follow it: `handledger correct {hand} --replace 1 JSON --reason … --by …`, "
            "JSON the \"event\" "
            f"of `handledger export {hand}`'s first line with {stacks}")


def _continuity(run) -> list[tuple[str, str, int, int]]:  # noqa: ANN001
    found = json.loads(run("audit", "--json").output)["discrepancies"]
    return [(d["hand"], d["player"], d["expected"], d["actual"]) for d in found
            if d["kind"] == "stack_continuity"]


def _two_hands(run) -> None:  # noqa: ANN001
    assert run("session", "open", "sat").exit_code == 0
    for player in ("Ann", "Bob"):
        assert run("buyin", "sat", player, "100").exit_code == 0
    assert run("hand", "start", "--session", "sat", "--hand", "h1", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    _play(run, "h1", *H1)
    assert run("buyin", "sat", "Bob", "50").exit_code == 0
    # h2 follows h1 as played: Ann 100+2, Bob 100-2+50
    assert run("hand", "start", "--session", "sat", "--hand", "h2", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:102,Bob:148", "--button", "Bob").exit_code == 0
    _play(run, "h2", "d dh Ann 7s2d", "d dh Bob 8c3h", "Bob f", "end")


def _close(run) -> None:  # noqa: ANN001
    """Cash out as played (h1 Ann +2 Bob -2, h2 Ann +1 Bob -1) and close session sat."""
    for player, chips in (("Ann", "103"), ("Bob", "147")):  # h2: Bob folded his blind to Ann
        assert run("cashout", "sat", player, chips).exit_code == 0
    assert run("session", "close", "sat").exit_code == 0


def _runner(db: Path):  # noqa: ANN202
    """``run`` of tests/conftest.py on the ledger ``db``."""
    runner = CliRunner()

    def invoke(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    return invoke


@pytest.fixture(scope="module")
def two_hands_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ledger ``_two_hands`` leaves, built once for the module."""
    db = tmp_path_factory.mktemp("two-hands") / "t.duckdb"
    _two_hands(_runner(db))
    return db


@pytest.fixture(scope="module")
def closed_ledger(two_hands_ledger: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``two_hands_ledger``, cashed out as played and closed (``_close``), built once."""
    db = copy_ledger(two_hands_ledger, tmp_path_factory.mktemp("closed") / "t.duckdb")
    _close(_runner(db))
    return db


@pytest.fixture
def two_hands(two_hands_ledger: Path, db: str) -> None:
    """The test's ledger ``db`` (the one ``run`` and ``user`` use): a copy of
    ``two_hands_ledger``."""
    copy_ledger(two_hands_ledger, Path(db))


@pytest.fixture
def closed(closed_ledger: Path, db: str) -> None:
    """The test's ledger ``db``: a copy of ``closed_ledger``."""
    copy_ledger(closed_ledger, Path(db))


_PAID_WRONG = (
    "warning: paid differently from the rules: hand h1: Bob was paid 4, the rules give 0 (+4) "
    "(recorded as the table paid it; `handledger correct` puts it right)",
    "warning: paid differently from the rules: hand h1: Ann was paid 0, the rules give 4 (-4) "
    "(recorded as the table paid it; `handledger correct` puts it right)")


#: The warnings of a correction of h1 to ``pay Bob 4`` appended after h2 was dealt on h1 as
#: played (Ann 102; Bob 98 and his rebuy of 50): h2 stands as played, 4 chips owed.
_AS_PLAYED = (
    "  warning: hand h2 started Ann with 102, on hand h1 as it stood (it left Ann 102); now "
    "it leaves Ann 98: Ann -4 chips in settle, and hand h2 stands as played (the chips at the "
    "table are facts)",
    "  warning: hand h2 started Bob with 148, on hand h1 as it stood (it left Bob 98, and Bob "
    "bought 50 since); now it leaves Bob 102: Bob +4 chips in settle, and hand h2 stands as "
    "played (the chips at the table are facts)")


@pytest.mark.usefixtures("two_hands")
def test_a_correction_after_the_next_hand_leaves_it_as_played(run, user) -> None:  # noqa: ANN001
    """The chips at the table are facts: h2 was dealt on h1 as it stood, so a correction of
    h1 appended since leaves h2's start as played (no stack_continuity finding, no advice to
    rewrite h2), and the 4 chips it moves are owed in settle, which audit and settle say."""
    assert _continuity(run) == []
    out = run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "wrong", "--by", "f")
    assert out.output.splitlines() == [
        "corrected hand h1 (seq 19); change in net: Bob +4, Ann -4; by the rules: unchanged",
        *_AS_PLAYED, *_PAID_WRONG]
    assert _continuity(run) == []
    note = ("note: hand h1 corrected after hand h2 was dealt (seq 19, by f: wrong): Ann -4, "
            "Bob +4 chips owed in settle\n")
    code, out, err = user("audit", "--session", "sat")
    assert (code, err) == (1, note)  # the payout findings of h1 paid against the rules
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["payout", "payout"]
    # as played h1 Ann +2 Bob -2, h2 Ann +1 Bob -1; corrected h1 Ann -2 Bob +2
    code, out, err = user("settle", "--session", "sat")
    assert (code, out, err) == (0, "Ann pays Bob 1 chip\n1 transfer(s) settle 2 player(s)\n",
                                note)
    # back to the original payout: h2 follows it again, and nothing says otherwise
    what = json.loads(run("whatif", "h1", "--replace", "17", "pay Ann 4", "--json").output)
    assert what["downstream"] == [] and what["paid_diff"] == {"Ann": 4, "Bob": -4}
    out = run("correct", "h1", "--replace", "17", "pay Ann 4", "--reason", "it was right",
              "--by", "f")
    assert out.output == ("corrected hand h1 (seq 20); change in net: Bob -4, Ann +4; by the "
                          "rules: "
                          "unchanged\n")
    assert _continuity(run) == []
    assert user("audit", "--session", "sat") == (0, "audit clean: 2 hand(s) in 1 session(s); "
                                                    "every chip adds up in the books as stored "
                                                    "(the hash chain not checked: `handledger "
                                                    "verify`)\n", "")
    # undo of that correction: h1 paid Bob again, h2 still as played, the chips owed again
    out = run("undo", "h1", "--by", "f")
    assert out.output.splitlines()[1:] == [*_AS_PLAYED, *_PAID_WRONG]
    assert _continuity(run) == []


@pytest.mark.usefixtures("two_hands")
def test_each_correction_after_the_next_hand_is_named_with_the_chips_they_owe(run, user) -> None:  # noqa: ANN001
    """h1 corrected twice after h2 was dealt on it as played (Ann +2, Bob -2): first to pay
    Bob the 4 (seq 19), then to chop the pot, 2 each (seq 20: nets 0, 0). The chips owed
    are those of the hand as it stands now against the hand h2 followed: Ann -2, Bob +2;
    the note names both corrections in order, not the first alone (whose 4 chips are owed
    no more)."""
    for args in (("--replace", "17", "pay Bob 4", "--reason", "wrong", "--by", "f"),
                 ("--replace", "17", "pay Ann 2", "--insert-after", "17", "pay Bob 2",
                  "--reason", "chopped", "--by", "host")):
        assert run("correct", "h1", *args).exit_code == 0, args
    assert _continuity(run) == []
    note = ("note: hand h1 corrected after hand h2 was dealt (seq 19, by f: wrong; then seq "
            "20, by host: chopped): Ann -2, Bob +2 chips owed in settle")
    code, _, err = user("audit", "--session", "sat")
    assert (code, err) == (1, note + "\n")  # the chop pays against the rules (Ann's aces)
    # as played h2 Ann +1 Bob -1; h1 as corrected Ann 0 Bob 0
    assert user("settle", "--session", "sat") == (
        0, "Bob pays Ann 1 chip\n1 transfer(s) settle 2 player(s)\n", note + "\n")
    assert json.loads(user("audit", "--json", "--session", "sat")[1])["corrected_late"] == [
        {"session": "sat", "hand": "h1", "seq": 19, "by": "f", "reason": "wrong",
         "after": ["hand h2 was dealt"], "owed": {"Ann": -2, "Bob": 2}, "voided": False,
         "later": [{"seq": 20, "by": "host", "reason": "chopped"}]}]


@pytest.mark.usefixtures("two_hands")
def test_a_void_after_a_late_correction_is_named_once(run, user) -> None:  # noqa: ANN001
    """h1 corrected after h2 was dealt (seq 19, pay Bob the 4), then voided (its own
    correction seq 20, reason ``void: misdeal``, and the ``hand_voided`` seq 21): the note
    names the correction and the void, the void once; the voided hand's nets are 0, so the
    chips owed against h1 as played (Ann +2, Bob -2) are Ann -2, Bob +2."""
    assert run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "wrong", "--by",
               "f").exit_code == 0
    assert run("void", "h1", "--reason", "misdeal", "--by", "f").exit_code == 0
    assert _continuity(run) == []
    note = ("note: hand h1 voided after hand h2 was dealt (seq 19, by f: wrong; then seq 20, "
            "by f: void: misdeal): Ann -2, Bob +2 chips owed in settle\n")
    assert user("audit", "--session", "sat") == (0, _CLEAN, note)
    assert user("settle", "--session", "sat") == (
        0, "Bob pays Ann 1 chip\n1 transfer(s) settle 2 player(s)\n", note)


@pytest.mark.usefixtures("two_hands")
def test_a_later_start_that_follows_neither_is_still_a_finding(run) -> None:  # noqa: ANN001
    """A start that followed the hand neither as it stood nor as corrected is still named,
    with the advice that makes it follow, the rebuy between named apart from what the hand
    leaves him."""
    assert run("correct", "h2", "--replace", "1", _start_of(run, "h2", Ann=102, Bob=140),
               "--reason", "typo", "--by", "f").exit_code == 0
    assert _continuity(run) == [("h2", "Bob", 148, 140)]
    out = run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "wrong", "--by", "f")
    assert out.output.splitlines()[1:4] == [
        _AS_PLAYED[0],
        "  warning: hand h2 starts Bob with 140, the corrected hand leaves Bob 102 and Bob bought "
        "50 since: 152 (was 148)",
        _hint("Bob 152")]
    assert _continuity(run) == [("h2", "Bob", 152, 140)]


def _start_of(run, hand: str, **stacks: int) -> str:  # noqa: ANN001
    """The ``hand_started`` event of ``hand`` (its export's first line) with ``stacks``."""
    start = json.loads(run("export", hand).output.splitlines()[0])["event"]
    for seat in start["seats"]:
        seat["stack"] = stacks.get(seat["player"], seat["stack"])
    return json.dumps(start)


@pytest.mark.usefixtures("closed")  # _two_hands, cashed out as played, closed
def test_a_clean_hand_of_a_closed_session_is_not_made_paid_wrong_silently(user, run, db) -> None:  # noqa: ANN001
    from tests.test_disputes import _events

    assert json.loads(run("audit", "--json").output)["discrepancies"] == []
    code, out, err = user("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "x",
                          "--by", "f")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1: session sat is closed and this leaves hand h1, paid by the "
                   "rules until now, paid differently (Bob paid 4, the rules give 0): nothing "
                   "written; --closed records it anyway\n")
    assert len(_events(db, "h1")) == 18
    # the explicit flag records it; the audit then names the hand as usual
    out = run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "x", "--by", "f",
              "--closed")
    assert out.exit_code == 0 and out.output.startswith("corrected hand h1 (seq 19); change in "
                                                        "net: "
                                                        "Bob +4, Ann -4")
    found = json.loads(run("audit", "--json").output)["discrepancies"]
    assert sorted((d["kind"], d["player"]) for d in found if d["hand"] == "h1") == [
        ("payout", "Ann"), ("payout", "Bob")]
    # one that puts it right again moves the nets of books settled up too: the flag again
    back = ("correct", "h1", "--replace", "17", "pay Ann 4", "--reason", "y", "--by", "f")
    assert run(*back).output == (
        "error: hand h1: session sat is closed and correcting hand h1 moves its players' nets "
        "(Bob -4, Ann +4): nothing written; --closed records it anyway\n")
    out = run(*back, "--closed")
    assert out.exit_code == 0 and len(_events(db, "h1")) == 20


def test_corrects_help_says_closed_is_needed_whenever_the_nets_move(run) -> None:  # noqa: ANN001
    """The refusal above needs --closed for a correction that moves a closed session's nets,
    the hand paid by the rules or not: `correct --help` says so, not only for a hand paid
    by the rules until now (words as printed, joined across click's line breaks)."""
    words = " ".join(run("correct", "--help").output.split())
    assert ("--closed Record it though HAND's session is closed: needed whenever the "
            "correction changes that session's nets (a player's net or the rake the table "
            "took) or leaves HAND, paid by the rules until now, paid otherwise.") in words
    assert ("Refused, exit 2, when the corrected hand does not replay legally, or, unless "
            "--closed, when HAND's session is closed and the correction changes its nets (a "
            "player's net or the rake the table took) or leaves HAND, paid by the rules until "
            "now, paid otherwise.") in words


@pytest.mark.usefixtures("closed")
def test_a_void_in_a_closed_session_is_refused_without_closed(user, run, db) -> None:  # noqa: ANN001
    from tests.test_disputes import _events

    books = run("balances", "--json").output
    code, out, err = user("void", "h1", "--reason", "misdeal", "--by", "f")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1: session sat is closed and voiding hand h1 moves its "
                   "players' nets (Bob +2, Ann -2): nothing written; --closed records it "
                   "anyway\n")
    assert len(_events(db, "h1")) == 18
    assert run("balances", "--json").output == books


@pytest.mark.usefixtures("closed")
def test_a_void_in_a_closed_session_is_recorded_with_closed(user, run, db) -> None:  # noqa: ANN001
    from tests.test_disputes import _events, _nets

    assert _nets(run) == {"Ann": 3, "Bob": -3}
    code, out, err = user("void", "h1", "--reason", "misdeal", "--by", "f", "--closed")
    assert (code, err) == (0, "")
    assert out.splitlines() == [  # h2 started on h1's result, which the void takes back
        "voided hand h1: returned Bob 2, Ann 2; change in net: Bob +2, Ann -2; by the rules: Bob "
        "+2, "
        "Ann -2",
        "  warning: hand h2 started Ann with 102, on hand h1 as it stood (the books had Ann "
        "102 there); now they have Ann 100: Ann -2 chips in settle, and hand h2 stands as "
        "played (the chips at the table are facts)",
        "  warning: hand h2 started Bob with 148, on hand h1 as it stood (the books had Bob "
        "148 there); now they have Bob 150: Bob +2 chips in settle, and hand h2 stands as "
        "played (the chips at the table are facts)"]
    # h2 and the cash-outs stand as played (Ann 103, Bob 147): the books are clean, and the 2
    # chips the void moves are owed in settle (h2 alone: Ann +1, Bob -1)
    assert user("audit")[0] == 0
    assert user("settle", "--session", "sat") == (
        0, "Bob pays Ann 1 chip\n1 transfer(s) settle 2 player(s)\n",
        "note: hand h1 voided after hand h2 was dealt (seq 19, by f: void: misdeal): Ann -2, "
        "Bob +2 chips owed in settle\n")
    events = _events(db, "h1")
    assert [e["type"] for e in events[18:]] == ["correction", "hand_voided"]
    assert events[19]["reason"] == "misdeal" and events[19]["by"] == "f"
    assert _nets(run) == {"Ann": 1, "Bob": -1}  # h2 only
    # voided already: the flag does not make a second void
    code, _, err = user("void", "h1", "--reason", "again", "--by", "f", "--closed")
    assert code == 2 and err == "error: hand h1: the hand is already voided\n"


@pytest.mark.usefixtures("closed")
def test_undoing_a_void_in_a_closed_session_needs_closed_too(user, run, db) -> None:  # noqa: ANN001
    """The un-void moves the nets back as much as the void moved them: the same flag."""
    from tests.test_disputes import _events, _nets

    assert user("void", "h1", "--reason", "misdeal", "--by", "f", "--closed")[0] == 0
    assert _nets(run) == {"Ann": 1, "Bob": -1}
    code, out, err = user("undo", "h1", "--by", "f")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1: session sat is closed and undoing the void at seq 20 (by "
                   "f: misdeal) of hand h1 moves its players' nets (Bob -2, Ann +2): nothing "
                   "written; --closed records it anyway\n")
    assert len(_events(db, "h1")) == 20 and _nets(run) == {"Ann": 1, "Bob": -1}
    code, out, err = user("undo", "h1", "--by", "f", "--closed")
    assert (code, err) == (0, "")
    assert _nets(run) == {"Ann": 3, "Bob": -3}


@pytest.mark.usefixtures("two_hands")
def test_a_void_in_an_open_session_needs_no_flag(user, run, db) -> None:  # noqa: ANN001
    code, out, err = user("void", "h2", "--reason", "misdeal", "--by", "f")
    assert (code, out, err) == (0, "voided hand h2: returned Ann 2, Bob 1; change in net: Ann -1, "
                                   "Bob +1; "
                                   "by the rules: Ann -1, Bob +1\n", "")


_CLEAN = ("audit clean: 2 hand(s) in 1 session(s); every chip adds up in the books as stored (the "
          "hash chain not checked: `handledger verify`)\n")


def test_a_typo_the_next_hand_already_followed_is_cleared_by_its_correction(run, user) -> None:  # noqa: ANN001
    """h1 recorded ``pay Bob 4`` by a slip, while the table pushed the pot to Ann and dealt h2
    on that (Ann 102; Bob 98 and his rebuy of 50: 148): h2 follows none of the books until
    h1 is corrected, late as it is; then it follows the corrected h1, and nothing is owed."""
    assert run("session", "open", "sat").exit_code == 0
    for player in ("Ann", "Bob"):
        assert run("buyin", "sat", player, "100").exit_code == 0
    assert run("hand", "start", "--session", "sat", "--hand", "h1", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    _play(run, "h1", *H1[:-2], "pay Bob 4", "end")
    assert run("buyin", "sat", "Bob", "50").exit_code == 0
    assert run("hand", "start", "--session", "sat", "--hand", "h2", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:102,Bob:148", "--button", "Bob").exit_code == 0
    _play(run, "h2", "d dh Ann 7s2d", "d dh Bob 8c3h", "Bob f", "end")
    assert _continuity(run) == [("h2", "Ann", 98, 102), ("h2", "Bob", 152, 148)]
    out = run("correct", "h1", "--replace", "17", "pay Ann 4", "--reason", "slip", "--by", "f")
    assert out.output == ("corrected hand h1 (seq 19); change in net: Bob -4, Ann +4; by the "
                          "rules: unchanged\n")
    assert user("audit", "--session", "sat") == (0, _CLEAN, "")
    assert user("settle", "--session", "sat") == (
        0, "Bob pays Ann 3 chips\n1 transfer(s) settle 2 player(s)\n", "")


def test_a_payout_corrected_after_a_bust_and_rebuy_leaves_the_next_hand_played(run, user) -> None:  # noqa: ANN001
    """Bob, all in for 20, is paid nothing and rebuys 100; h2 is dealt (Ann 120, Bob 100) and
    played (Bob folds his small blind: Ann 121, Bob 99). Weeks later the host finds Bob had
    the straight: h1 corrected pays him the 40. h2 and the cash-outs stand as played; the 40
    chips are owed in settle (as played Ann +21, Bob -21; corrected Ann -19, Bob +19)."""
    assert run("session", "open", "sun").exit_code == 0
    assert run("buyin", "sun", "Ann", "100").exit_code == 0
    assert run("buyin", "sun", "Bob", "20").exit_code == 0
    assert run("hand", "start", "--session", "sun", "--hand", "h1", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:100,Bob:20", "--button", "Ann").exit_code == 0
    _play(run, "h1", "d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 20", "Bob cc", "d db 2c3d4h",
          "d db 9s", "d db Td", "Ann sm AsAh", "Bob sm KsKh", "pay Ann 40", "end")
    assert run("buyin", "sun", "Bob", "100", "--kind", "rebuy").exit_code == 0
    assert run("hand", "start", "--session", "sun", "--hand", "h2", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:120,Bob:100", "--button", "Bob").exit_code == 0
    _play(run, "h2", "d dh Ann 7s2d", "d dh Bob 8c3h", "Bob f", "end")
    code, out, err = user("correct", "h1", "--replace", "5", "d dh Bob 5c6d", "--replace",
                          "12", "Bob sm 5c6d", "--replace", "13", "pay Bob 40", "--reason",
                          "Bob showed a straight", "--by", "host")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "corrected hand h1 (seq 15); change in net: Bob +40, Ann -40; by the rules: Bob +40, "
        "Ann -40",
        "  warning: hand h2 started Ann with 120, on hand h1 as it stood (it left Ann 120); "
        "now it leaves Ann 80: Ann -40 chips in settle, and hand h2 stands as played (the "
        "chips at the table are facts)",
        "  warning: hand h2 started Bob with 100, on hand h1 as it stood (it left Bob 0, and "
        "Bob bought 100 since); now it leaves Bob 40: Bob +40 chips in settle, and hand h2 "
        "stands as played (the chips at the table are facts)"]
    note = ("note: hand h1 corrected after hand h2 was dealt (seq 15, by host: Bob showed a "
            "straight): Ann -40, Bob +40 chips owed in settle")
    for player, chips in (("Ann", "121"), ("Bob", "99")):
        assert user("cashout", "sun", player, chips)[2] == ""  # as the hands leave them
    assert run("session", "close", "sun").exit_code == 0
    # clean, and sun, closed, still owes the money settle names (nobody has paid)
    assert user("audit", "--session", "sun") == (0, _CLEAN[:-1] + (
        "; 1 closed session still owes money (sun): `handledger audit --unsettled` names who, "
        "`handledger settle` who pays whom\n"), note + "\n")
    found = json.loads(user("audit", "--json")[1])
    assert found == {"discrepancies": [], "corrected_late": [
        {"session": "sun", "hand": "h1", "seq": 15, "by": "host",
         "reason": "Bob showed a straight", "after": ["hand h2 was dealt"],
         "owed": {"Ann": -40, "Bob": 40}, "voided": False}],
        # what the clean line says sun still owes, as data: settle's one transfer (plain
        # chips: a chip is the minor unit, no currency)
        "still_owed": [{"session": "sun", "owed_minor": 19, "decimals": 0, "currency": None,
                        "transfers": [{"from": "Ann", "from_name": "Ann", "to": "Bob",
                                       "to_name": "Bob", "amount_minor": 19}]}]}
    assert user("settle", "--session", "sun") == (
        0, "Ann pays Bob 19 chips\n1 transfer(s) settle 2 player(s)\n", note + "\n")
    code, out, _ = user("balances", "--session", "sun")
    assert out.splitlines()[1:] == [
        "Bob                      19          120           99      2        1",
        "Ann                     -19          100          121      2        1",
        f"note: session sun: {note.removeprefix('note: ')}, not moved at the table (net and "
        "cash-out − buy-in differ by it)"]


def _settled_night(user) -> None:  # noqa: ANN001
    """Session fri1 (0.25 USD a chip): Ann 350 and Cy 300 play f2, Cy's jacks paid the 100
    pot over Ann's nines (Ann 300, Cy 350); both cash out so, the session is closed and Ann
    pays Cy the 50 chips she lost (12.50 USD)."""
    for args in (("session", "open", "fri1", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "fri1", "Ann", "350"), ("buyin", "fri1", "Cy", "300"),
                 ("hand", "start", "--session", "fri1", "--hand", "f2", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:350,Cy:300", "--button", "Ann")):
        assert user(*args)[0] == 0, args
    lines = ("d dh Ann 9s9h", "d dh Cy JcJd", "Ann cbr 20", "Cy cc", "d db 2d5c8h",
             "Cy cbr 30", "Ann cc", "d db Ts", "Cy cc", "Ann cc", "d db 4s", "Cy cc",
             "Ann cc", "Ann sm 9s9h", "Cy sm JcJd", "pay Cy 100", "end")
    assert user("table", "f2", input="".join(f"{x}\n" for x in lines))[0] == 0
    for args in (("cashout", "fri1", "Ann", "300"), ("cashout", "fri1", "Cy", "350"),
                 ("session", "close", "fri1"), ("pay", "fri1", "Ann", "Cy", "12.50")):
        assert user(*args)[0] == 0, args


def test_a_payout_corrected_in_a_settled_session_is_owed_not_a_cash_out_wrong(user) -> None:  # noqa: ANN001
    """Ann had the fives (a set on the board 2d5c8h), not the nines: f2 corrected, Ann wins
    the 100 pot (Ann 400, Cy 250 by the corrected hand). The cash-outs (300, 350) stand as
    counted at the table; the 100 chips the correction moves (25.00 USD) turn the settled
    session back to owing, and audit, settle and balances name the correction that did."""
    _settled_night(user)
    code, out, err = user("correct", "f2", "--replace", "4", "d dh Ann 5s5h", "--replace",
                          "17", "Ann sm 5s5h", "--replace", "19", "pay Ann 100", "--reason",
                          "typo", "--by", "host", "--closed")
    assert (code, out, err) == (0, "corrected hand f2 (seq 21); change in net: Cy -100, Ann "
                                   "+100; by the rules: Cy -100, Ann +100\n", "")
    note = ("note: hand f2 corrected after the cash-outs (seq 21, by host: typo): Ann +100, "
            "Cy -100 chips owed in settle")
    # Cy was paid 12.50 USD for a hand Cy lost: Cy owes the 12.50 back and 12.50 more
    assert user("audit", "--session", "fri1") == (1, (
        "settlement: session fri1: payments come to 12.50 USD for Cy but Cy's net calls for "
        "-12.50 USD (+25.00 USD): Cy must still pay Ann 25.00 USD [session fri1, player Cy; "
        "expected -1250, actual 1250; amounts in 0.01 USD]\n"
        "audit: 1 discrepancy (settlement 1); 1 hand(s) in 1 session(s) checked\n"), note + "\n")
    assert user("settle", "--session", "fri1") == (
        0, "Cy pays Ann 25.00 USD\n1 transfer(s) settle 2 player(s) (12.50 USD paid already)\n",
        note + "\n")
    # the note as data: the 100 chips owed, 2500 cents at 0.25 USD a chip, the transfer's unit
    assert user("settle", "--session", "fri1", "--json") == (0, json.dumps({
        "transfers": [{"session": "fri1", "from": "Cy", "from_name": "Cy", "to": "Ann",
                       "to_name": "Ann", "amount": 2500}],
        "decimals": 2, "currency": "USD", "paid_already": 1250, "payments_recorded": 1250,
        "corrected_late": [{"session": "fri1", "hand": "f2", "seq": 21, "by": "host",
                            "reason": "typo", "after": ["the cash-outs"],
                            "owed": {"Ann": 100, "Cy": -100}, "voided": False,
                            "owed_minor": {"Ann": 2500, "Cy": -2500}}]}) + "\n", "")
    code, out, _ = user("balances", "--session", "fri1", "--money")
    assert out.splitlines()[1:] == [
        "Ann                   12.50        87.50        75.00      1        1",
        "Cy                   -12.50        75.00        87.50      1        1",
        f"note: session fri1: {note.removeprefix('note: ')} (Ann +25.00 USD, Cy -25.00 USD), "
        "not moved at the table (net and cash-out − buy-in differ by it)"]
