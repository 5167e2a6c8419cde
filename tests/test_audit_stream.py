"""The streaming audit against the batch one: same findings in the same order, same
books, on real ledgers (the bundled data, PokerNow logs, the generated series with planted
errors) and on random interleavings of hand-built sessions; and it keeps no hands."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.audit.books import SessionRow, build_series
from ledger.audit.checks import audit
from ledger.audit.stream import StreamAudit
from ledger.audit.tables import read_audit, session_table_rows
from ledger.model import events as ev
from ledger.store.store import Ledger
from replay.ingest.pipeline import discover, import_paths
from replay.projections import rebuild
from tests.conftest import SHARED
from tests.test_audit import batch_series
from tests.test_sessions import hand
from tests.unbuilt import unbuild

ROOT = Path(__file__).resolve().parents[1]


def _same_as_batch(ledger: Any) -> list[Any]:
    """Rebuild ``ledger`` the streaming way and assert it equals the batch books and audit;
    returns the findings."""
    batch = batch_series(ledger)
    want = audit(batch)
    got = rebuild(ledger)
    assert got.findings == want
    assert session_table_rows(got.series) == session_table_rows(batch)
    assert read_audit(ledger.connection).findings == want
    for book in got.series.sessions.values():  # nothing kept: memory flat in the hands
        assert book.hands == [] and book.starts == [] and book.cash_outs == []
    assert sum(b.hand_count for b in got.series.sessions.values()) == got.counts["hands"]
    return want


def test_bundled_data_audits_the_same_streamed() -> None:
    ledger = Ledger.memory()
    report = import_paths(ledger, discover(ROOT / "data"), strict=False, session=None,
                          pn_ledger=None)
    assert report.imported == 106
    found = _same_as_batch(ledger)
    assert sorted(d.kind for d in found) == ["payout", "payout"]


@pytest.mark.parametrize("name", sorted(p.name for p in (SHARED / "pokernow").glob("*.csv")))
def test_pokernow_logs_audit_the_same_streamed(name: str) -> None:
    ledger = Ledger.memory()
    import_paths(ledger, [SHARED / "pokernow" / name], strict=False, session=None,
                 pn_ledger=None)
    _same_as_batch(ledger)


@pytest.mark.parametrize("plant", [False, True])
def test_generated_series_audits_the_same_streamed(tmp_path: Path, plant: bool) -> None:
    from replay.demo.series import generate_series, write_series

    series = generate_series(sessions=5, hands=30, seed=5, plant_errors=plant)
    ledger = Ledger.memory()
    import_paths(ledger, write_series(series, tmp_path), strict=True, session=None,
                 pn_ledger=None)
    found = _same_as_batch(ledger)
    assert len(found) == (5 if plant else 0)


# ------------------------------------------------------------------ random interleavings


def _night(name: str, rng: random.Random) -> list[tuple[str, Any]]:
    """One session in its own order: open, buy-ins, hands (some wrong), cash-outs, close."""
    items: list[tuple[str, Any]] = [("row", ev.SessionOpened(session=name))]
    stacks = {p: 100 for p in "ABC"}
    items += [("row", ev.BuyIn(player=p, chips=100)) for p in stacks]
    for k in range(rng.randint(0, 4)):
        a, b = rng.sample(sorted(stacks), 2)
        won = rng.randint(0, min(stacks[a], stacks[b]))
        starting = dict(stacks)
        if rng.random() < 0.2:
            starting[a] += 1  # a wrong starting stack
        stacks[a] += won
        stacks[b] -= won
        paid = {a: 2 * won + (rng.random() < 0.2), b: 0}  # sometimes a chip too many
        items.append(("hand", (f"{name}-h{k}", starting, {a: won, b: -won}, paid)))
    items += [("row", ev.CashOut(player=p, chips=c + (rng.random() < 0.1)))
              for p, c in stacks.items()]
    if rng.random() < 0.8:
        items.append(("row", ev.SessionClosed()))
    return items


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_interleaved_sessions_audit_the_same_streamed(seed: int) -> None:
    rng = random.Random(seed)
    nights = {f"s{i}": _night(f"s{i}", rng) for i in range(rng.randint(1, 4))}
    loose = [("hand", (f"x{k}", {"A": 50, "B": 50}, {"A": 5, "B": -5}, {"A": 10, "B": 0}))
             for k in range(rng.randint(0, 3))]
    queues = {**{n: list(v) for n, v in nights.items()}, None: loose}
    rows, hands, position = [], [], 0
    while any(queues.values()):  # deal the sessions' items out in a random interleaving
        name = rng.choice([n for n, q in queues.items() if q])
        kind, item = queues[name].pop(0)
        position += 1
        if kind == "row":
            rows.append(SessionRow(position, name, item))
        else:
            hid, starting, net, paid = item
            h = hand(hid, position, starting, net, session=name, paid=paid)  # type: ignore[arg-type]
            hands.append(h)
    ends: dict[str | None, int] = {}
    for r in rows:
        ends[r.session] = r.position
    for h in hands:
        ends[h.session] = max(ends.get(h.session, 0), h.position)
    stream = StreamAudit(rows, ends)
    for h in hands:
        stream.add(h)
    series, found = stream.finish()
    batch = build_series(rows, hands)
    assert found == audit(batch)
    assert session_table_rows(series) == session_table_rows(batch)


# ------------------------------------------------------------------ catching up


_TABLES = ("hands", "pots", "results", "discrepancies", "session_book", "session_players",
           "player_names", "player_nicknames", "audit_discrepancies")


def _dump(ledger: Any) -> dict[str, Any]:
    con = ledger.connection
    out: dict[str, Any] = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
                           for t in _TABLES}
    out["audit"] = read_audit(con)
    return out


def _caught_up_equals_rebuilt(ledger: Any, expect: str) -> dict[str, Any]:
    from replay.projections import catch_up

    assert catch_up(ledger) == expect
    assert catch_up(ledger) == "fresh"
    caught = _dump(ledger)
    rebuild(ledger)
    assert _dump(ledger) == caught
    return caught


def test_catch_up_replays_only_the_sessions_that_moved(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from replay import projections
    from replay.demo.series import generate_series, write_series
    from replay.projections import catch_up

    paths = write_series(generate_series(sessions=4, hands=20, seed=3, plant_errors=True),
                         tmp_path)
    ledger = Ledger.memory()
    import_paths(ledger, paths[:3], strict=True, session=None, pn_ledger=None)
    unbuild(ledger.connection)
    assert catch_up(ledger) == "full"  # never built
    before = {t: ledger.connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("hands", "session_book")}
    assert before == {"hands": 60, "session_book": 3}
    done: list[str] = []  # a file with payments: the import catches the tables up itself
    monkeypatch.setattr(projections, "catch_up",
                        lambda *a, **k: done.append(catch_up(*a, **k)) or done[-1])
    import_paths(ledger, paths[3:], strict=True, session=None, pn_ledger=None)  # a new night
    monkeypatch.undo()
    assert done[0] == "sessions"
    dump = _caught_up_equals_rebuilt(ledger, "fresh")
    assert len(dump["hands"]) == 80 and [r[7] for r in dump["session_book"]] == [1, 2, 3, 4]
    firsts = [r[8] for r in dump["session_book"]]  # first_position: each session's first row
    assert firsts == sorted(firsts) and firsts[0] == 1
    assert len(dump["audit"].findings) == 5
    # a late buy-in in the first session: that session alone moves, and its books with it
    first = dump["session_book"][0][0]
    ledger.append(f"session:{first}", [ev.BuyIn(player="late", chips=77)])
    dump = _caught_up_equals_rebuilt(ledger, "sessions")
    assert [d.kind for d in dump["audit"].findings if d.player == "late"] == ["session_balance"]


def test_catch_up_rebuilds_everything_for_an_alias_or_a_hand_of_no_session(tmp_path: Path
                                                                            ) -> None:
    from replay.demo.series import generate_series, write_series
    from replay.projections import catch_up

    paths = write_series(generate_series(sessions=2, hands=10, seed=4), tmp_path)
    ledger = Ledger.memory()
    import_paths(ledger, paths, strict=True, session=None, pn_ledger=None)
    unbuild(ledger.connection)
    assert catch_up(ledger) == "full"
    first = ledger.connection.execute("SELECT session FROM session_book ORDER BY ord").fetchone()
    player = ledger.connection.execute(
        "SELECT player FROM results WHERE session = ? LIMIT 1", [first[0]]).fetchone()[0]
    ledger.append(f"session:{first[0]}", [ev.PlayerAlias(player="Zed", alias=player)])
    dump = _caught_up_equals_rebuilt(ledger, "full")
    assert ("Zed" in {r[1] for r in dump["session_players"]}
            and player not in {r[1] for r in dump["session_players"]})
    import_paths(ledger, [ROOT / "data" / "hands"], strict=False, session=None, pn_ledger=None)
    assert catch_up(ledger) == "full"


def test_derived_tables_of_an_older_shape_are_made_again() -> None:
    """A ledger whose derived tables an older version built (another ``DERIVED_VERSION``, a
    ``results`` table without today's ``rules_net``) is rebuilt in today's shape."""
    from replay.projections import catch_up

    ledger = Ledger.memory()
    import_paths(ledger, [ROOT / "data" / "series" / "s01.jsonl"], strict=True, session=None,
                 pn_ledger=None)
    unbuild(ledger.connection)
    assert catch_up(ledger) == "full"
    con = ledger.connection
    rows = con.execute("SELECT * FROM results ORDER BY ALL").fetchall()
    assert len(rows) == 124  # 30 hands of 4 or 5 players
    con.execute("DROP VIEW player_hand_results")
    con.execute("ALTER TABLE results DROP COLUMN rules_net")
    con.execute("UPDATE derived_state SET value = '4' WHERE key = 'version'")
    ledger.append("session:s01", [ev.BuyIn(player="late", chips=5)])
    assert catch_up(ledger) == "full"
    assert "rules_net" in [r[0] for r in con.execute("DESCRIBE results").fetchall()]
    assert con.execute("SELECT * FROM results ORDER BY ALL").fetchall() == rows


def test_rows_rewritten_with_their_chain_made_again_rebuild_the_tables(tmp_path: Path) -> None:
    """The derived tables keep the chain hash of their head row. Rows edited and chained again
    (the head's hash changes) make the next read a full rebuild, so the audit follows the
    ledger as it now stands; an edit that leaves the chain broken is ``verify``'s to report."""
    from replay.projections import catch_up

    ledger = Ledger.memory()
    import_paths(ledger, [ROOT / "data" / "series" / "s01.jsonl"], strict=True, session=None,
                 pn_ledger=None)
    unbuild(ledger.connection)
    assert catch_up(ledger) == "full" and not read_audit(ledger.connection).findings
    con = ledger.connection
    position, player = con.execute(
        "SELECT position, json_extract_string(payload, '$.player') FROM events"
        " WHERE type = 'buy_in' ORDER BY position LIMIT 1").fetchone()
    con.execute("UPDATE events SET payload = json_merge_patch(payload, '{\"chips\": 1}')"
                " WHERE position = ?", [position])
    assert catch_up(ledger) == "fresh"  # the chain is broken: verify says where
    assert not ledger.verify().ok
    con.execute("UPDATE events SET hash = 'made again' WHERE position = (SELECT max(position)"
                " FROM events)")
    assert catch_up(ledger) == "full"
    found = read_audit(con).findings
    assert {(d.kind, d.player) for d in found} >= {("stack_continuity", player)}
