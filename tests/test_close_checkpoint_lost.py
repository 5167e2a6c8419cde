"""A ``session close`` killed between its commit and its checkpoint (docs/LEDGER.md "Anchoring it"):
the session is closed, but LEDGER.checkpoints holds no record of its close (a file without
any is said apart: tests/test_checkpoints_truth.py). ``session list``
and ``verify`` name the missing checkpoint with the command that takes it; ``session close``
again takes it, of the head as the close left it (the row's own hash, the rows after it vouched
for by none), and says so; a third ``session close`` is refused as for any closed session. An
imported close took no checkpoint and is named by none of them. The kill is simulated by
closing through :func:`replay.sessions.opening.close_session`, which writes the close and not
the file."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.store.store import Ledger
from replay.sessions.opening import close_session

SERIES = Path(__file__).parents[1] / "data" / "series" / "s01.jsonl"  # closed in the file
OPEN = (("session", "open", "k14", "--date", "2026-12-05"), ("buyin", "k14", "Ann", "10"),
        ("cashout", "k14", "Ann", "10"))


def _killed_close(user, db: str) -> tuple[int, str]:  # noqa: ANN001
    """Open k14, buy Ann in and out, checkpoint (at 3), close it without its checkpoint: the
    close's (position, hash)."""
    for step in (*OPEN, ("checkpoint",)):
        assert user(*step)[0] == 0, step
    with Ledger(db) as ledger:
        assert close_session(ledger, "k14") is None
        return ledger.query("SELECT position, hash FROM events WHERE type = 'session_closed'")[0]


def _records(db: str) -> list[dict]:
    path = Path(f"{db}.checkpoints")
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_lost_checkpoint_is_named_and_taken_by_closing_again(user, db: str) -> None:  # noqa: ANN001
    position, digest = _killed_close(user, db)
    assert (position, [r["position"] for r in _records(db)]) == (4, [3])
    missing = ("k14  2026-12-05  0 hand(s)  1 buy-in(s)  closed, settled, its close's checkpoint "
               "missing (`handledger session close k14` takes it)\n")
    assert user("session", "list") == (0, missing, "")
    code, out, _ = user("session", "list", "--json")
    assert json.loads(out)["sessions"][0]["close_checkpoint_missing"] is True
    code, out, _ = user("verify")
    assert (code, out.splitlines()[-1]) == (
        0, "close checkpoint missing: session k14 (entry 4, position 4): its close stopped before "
        "writing its checkpoint (`handledger session close k14` takes it)")
    # a session opened since: the head moved on, the checkpoint is still the close's
    assert user("session", "open", "k15", "--date", "2026-12-05")[0] == 0
    code, out, err = user("session", "close", "k14")
    lines = out.splitlines()
    assert (code, err, len(lines)) == (0, "", 2)
    assert lines[0] == ("session k14 was closed already (entry 4, position 4), but "
                        "t.duckdb.checkpoints held no checkpoint of its close (the close stopped "
                        "before writing it): taken now, of the head as the close left it")
    assert lines[1].startswith(f"handledger checkpoint t 4:{digest[:24]} ")
    _, record = _records(db)
    assert (record["position"], record["hash"], record["marks_from"]) == (4, digest, 4)
    assert user("session", "list")[1].startswith(
        "k14  2026-12-05  0 hand(s)  1 buy-in(s)  closed, settled\n")
    assert "close checkpoint missing" not in user("verify")[1]
    code, out, _ = user("verify", "--against", f"{db}.checkpoints")
    assert (code, out.splitlines()[-1]) == (
        0, "the ledger extends all 2 checkpoint(s); 1 row(s) after the latest (5-5), which none "
        "vouches for: 1 session opening")  # row 5: k15 opened
    assert user("session", "close", "k14") == (
        2, "", "error: session 'k14' is closed already (entry 4): nothing to close (`handledger "
        "history --session k14` lists its entries)\n")
    assert len(_records(db)) == 2


def test_a_close_with_its_checkpoint_is_named_by_none(user, db: str) -> None:  # noqa: ANN001
    for step in OPEN:
        assert user(*step)[0] == 0, step
    assert user("session", "close", "k14")[1].startswith("session k14 closed\n")
    assert [r["position"] for r in _records(db)] == [4]
    assert user("session", "list") == (
        0, "k14  2026-12-05  0 hand(s)  1 buy-in(s)  closed, settled\n", "")
    assert "close_checkpoint_missing" not in user("session", "list", "--json")[1]


def test_an_imported_close_took_no_checkpoint_and_misses_none(user) -> None:  # noqa: ANN001
    code, _, err = user("import", str(SERIES))
    assert code == 0, err
    assert user("session", "list")[1] == (
        "s01  2025-01-07  30 hand(s)  15 buy-in(s)  closed, settled\n")
    assert "close checkpoint missing" not in user("verify")[1]
