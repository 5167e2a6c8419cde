"""A write saves the derived tables by catching up only the sessions it moved
(:func:`replay.projections.catch_up`); a full replay rebuilds them all
(:func:`replay.projections.rebuild`). Both must give the same tables row for row, or ``verify``
calls honest books damaged (:func:`replay.verifying.derived_check`)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.store.store import Ledger

BY = ("--reason", "miscounted", "--by", "Host")
#: Dee (button) bets 100, Ann calls all-in; the table rakes 2 of the 200 and pays the rest
#: (seq 14: the payout, to Ann whose aces win, or to Dee: a payout finding).
RAKED = ("d dh Ann AsAh", "d dh Dee KsKh", "Dee cbr 100", "Ann cc", "d db 2c3d4h", "d db 9s",
         "d db Td", "Ann sm AsAh", "Dee sm KsKh", "rake 2")


def _cli(db: str):  # noqa: ANN202
    from cli.main import cli

    runner = CliRunner()
    return lambda *args: runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)


def test_findings_in_two_sessions_after_ordinary_writes_verify(db: str) -> None:
    """Two sessions, each with Ann cashing out 5 more than she bought: a write saves only its
    session, yet each session's finding is its first (``seq`` 1), as a full replay numbers
    them, and ``verify`` passes (it failed with "seq 1 stored, 2 by the replay")."""
    run = _cli(db)
    for s in ("a", "b"):
        for args in (("session", "open", s), ("buyin", s, "Ann", "10"),
                     ("buyin", s, "Bob", "10"), ("cashout", s, "Ann", "15")):
            assert run(*args).exit_code == 0, args
    out = run("verify")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-1] == (
        "derived tables: as the events' replay gives them (14 rows)")
    with Ledger(db, read_only=True) as ledger:
        rows = ledger.connection.execute(
            "SELECT session, kind, player, diff, seq FROM audit_discrepancies ORDER BY ALL"
        ).fetchall()
    assert rows == [("a", "session_balance", "Ann", 5, 1), ("b", "session_balance", "Ann", 5, 1)]
    assert run("replay").exit_code == 0
    with Ledger(db, read_only=True) as ledger:  # the full replay numbers them the same
        assert ledger.connection.execute(
            "SELECT session, kind, player, diff, seq FROM audit_discrepancies ORDER BY ALL"
        ).fetchall() == rows


SESSIONS = st.sampled_from(("a", "b", "c"))
PLAYERS = st.sampled_from(("Ann", "Bob", "Dee"))
CHIPS = st.sampled_from(("5", "10", "15", "100"))
SEQS = st.integers(1, 6).map(str)


@pytest.fixture(scope="module")
def three_nights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of sessions a, b, c, in each Ann and Bob bought in for 10 (entries 2 and 3),
    and in a Ann cashed out 15 (entry 4: a ``session_balance`` finding), its derived tables
    saved by each write."""
    db = tmp_path_factory.mktemp("nights") / "n.duckdb"
    run = _cli(str(db))
    for s in ("a", "b", "c"):
        for args in (("session", "open", s), ("buyin", s, "Ann", "10"),
                     ("buyin", s, "Bob", "10")):
            assert run(*args).exit_code == 0, args
    assert run("cashout", "a", "Ann", "15").exit_code == 0
    return db


@st.composite
def writes(draw: st.DrawFn) -> list[tuple[str, ...]]:
    """One write as a user types it (a hand: its buy-ins, its start and every action; a
    correction of the last hand started), possibly refused."""
    s = draw(SESSIONS)
    kind = draw(st.sampled_from(("buyin", "cashout", "cashout", "cashout", "pay", "hand",
                                 "correct", "retract", "amend", "close", "alias")))
    if kind in ("buyin", "cashout"):
        return [(kind, s, draw(PLAYERS), draw(CHIPS))]
    if kind == "pay":
        payer, payee = draw(st.lists(st.sampled_from(("Ann", "Bob", "Dee", "rake")),
                                     min_size=2, max_size=2, unique=True))
        return [("pay", s, payer, payee, draw(CHIPS), "--more-than-owed")]
    if kind == "hand":
        hand = f"{s}{draw(st.integers(1, 10**6))}"
        winner = draw(st.sampled_from(("Ann", "Dee")))
        return [("buyin", s, "Ann", "100"), ("buyin", s, "Dee", "116"),
                ("hand", "start", "--session", s, "--hand", hand, "--game", "NT",
                 "--stakes", "1/2", "--seats", "Ann:100,Dee:116", "--button", "Dee"),
                *(("act", hand, a) for a in (*RAKED, f"pay {winner} 198", "end"))]
    if kind == "correct":
        return [("correct", "LAST", "--replace", "14",
                 f"pay {draw(st.sampled_from(('Ann', 'Dee')))} 198", *BY)]
    if kind == "retract":
        return [("entry", "retract", s, draw(SEQS), *BY, "--closed")]
    if kind == "amend":
        return [("entry", "amend", s, draw(SEQS), draw(CHIPS), *BY, "--closed",
                 "--more-than-owed")]
    if kind == "close":
        return [("session", "close", s)]
    return [("player", "alias", "Annie", "Ann")]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(writes(), min_size=1, max_size=6))
def test_catching_up_after_any_writes_gives_the_full_rebuild(three_nights: Path,
                                                             steps: list) -> None:
    """Random writes (refused ones too) on :func:`three_nights`, each saving the tables of
    the session it moved; then every derived table and ``derived_state`` is the full
    rebuild's, row for row."""
    from replay.verifying import derived_check

    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "p.duckdb")
        shutil.copyfile(three_nights, db)
        run = _cli(db)
        last = None
        for step in steps:
            for args in step:
                if args[0] == "correct":
                    if last is None:
                        continue
                    args = (args[0], last, *args[2:])
                result = run(*args)
                assert result.exit_code in (0, 2), (args, result.output)
                if args[:2] == ("hand", "start") and result.exit_code == 0:
                    last = args[5]
        check = derived_check(db)
        assert check.checked and check.difference is None and check.sealed is None, (
            steps, check)
