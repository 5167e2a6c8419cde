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


@pytest.mark.usefixtures("two_hands")
def test_a_correction_reverted_to_the_original_warns_of_nothing(run) -> None:  # noqa: ANN001
    assert _continuity(run) == []
    out = run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "wrong", "--by", "f")
    assert out.output == (
        "corrected hand h1 (seq 19); change in net: Bob +4, Ann -4; by the rules: unchanged\n"
        "  warning: hand h2 starts Ann with 102, the corrected final stack is 98 (was 102)\n"
        "  warning: hand h2 starts Bob with 148, the corrected final stack is 152 (was 148)\n"
        f"{_hint('Ann 98, Bob 152')}\n" + "".join(f"{w}\n" for w in _PAID_WRONG))
    assert _continuity(run) == [("h2", "Ann", 98, 102), ("h2", "Bob", 152, 148)]
    # back to the original payout: h2 follows again, and nothing says otherwise
    what = json.loads(run("whatif", "h1", "--replace", "17", "pay Ann 4", "--json").output)
    assert what["downstream"] == [] and what["paid_diff"] == {"Ann": 4, "Bob": -4}
    out = run("correct", "h1", "--replace", "17", "pay Ann 4", "--reason", "it was right",
              "--by", "f")
    assert out.output == ("corrected hand h1 (seq 20); change in net: Bob -4, Ann +4; by the "
                          "rules: "
                          "unchanged\n")
    assert _continuity(run) == []
    # undo of that correction breaks the chain again, and says so
    out = run("undo", "h1", "--by", "f")
    assert out.output.splitlines()[1:] == [
        "  warning: hand h2 starts Ann with 102, the corrected final stack is 98 (was 102)",
        "  warning: hand h2 starts Bob with 148, the corrected final stack is 152 (was 148)",
        _hint("Ann 98, Bob 152"), *_PAID_WRONG]  # Bob paid the pot Ann won, as before
    assert _continuity(run) == [("h2", "Ann", 98, 102), ("h2", "Bob", 152, 148)]


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
        "  warning: hand h2 starts Ann with 102, the corrected final stack is 100 (was 102)",
        "  warning: hand h2 starts Bob with 148, the corrected final stack is 150 (was 148)",
        _hint("Ann 100, Bob 150")]
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
