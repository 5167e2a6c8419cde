"""The distributed replay on a Dask cluster of two worker processes against the local replay:
the same derived tables row for row and the same audit findings, on the generated series
(planted errors) and on a ledger mixing sessions, hands of no session, corrections, a void,
aliases and a PokerNow log, and with a hand that does not replay; a dataset that cannot be
replayed, whose hash chain breaks (a row edited after the export) or whose output is no folder
fails with one error and leaves nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from distributed import LocalCluster

from ledger.audit.tables import read_audit
from ledger.model.errors import ChainBroken, LedgerError, NotFound
from ledger.store.chain import GENESIS, row_hash
from ledger.store.store import Ledger
from replay.distributed import AUDIT_TABLES, events_path, replay_parquet
from replay.ingest.export import export_tables
from replay.ingest.pipeline import import_paths
from replay.late_corrections import late_corrections
from replay.partition import HAND_TABLES
from replay.projections import rebuild
from tests.conftest import ROOT, SHARED
from tests.copies import copy_ledger

TABLES = (*HAND_TABLES, *AUDIT_TABLES)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A local cluster of two worker processes of one thread each, for the whole module."""
    import logging

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", worker_dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster:
        yield cluster.scheduler_address


def _series_ledger(path: Path) -> Ledger:
    from replay.demo.series import generate_series, write_series

    series = generate_series(sessions=6, hands=25, seed=7, plant_errors=True)
    ledger = Ledger(str(path / "series.duckdb"))
    import_paths(ledger, write_series(series, path / "series"), strict=True, session=None,
                 pn_ledger=None)
    return ledger


def _local(ledger: Ledger, path: Path) -> tuple[Any, Path]:
    """The local replay of ``ledger`` (its projection) and its Parquet export."""
    projection = rebuild(ledger)
    export_tables(ledger, path / "export", "parquet")
    return projection, path / "export"


@dataclass
class Series:
    """The generated series (planted errors) imported, replayed locally and exported, built
    once for the module: ``ledger`` open read-only (a test that changes it copies ``db``),
    ``projection`` its local replay, ``export`` its Parquet export (read, never written)."""

    db: Path
    ledger: Ledger
    projection: Any
    export: Path


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Series]:
    path = tmp_path_factory.mktemp("series")
    ledger = _series_ledger(path)
    projection, export = _local(ledger, path)
    ledger.close()
    with Ledger(str(path / "series.duckdb"), read_only=True) as shared:
        yield Series(path / "series.duckdb", shared, projection, export)


def _relinked(events: Path, out: Path, where: str = "true") -> Path:
    """The rows of ``events`` (Parquet) that ``where`` keeps, numbered 1, 2, 3, … again and
    every hash made again, written to ``out``: what a forger who rewrites the chain makes
    (it holds, as the chain has no secret) and the one way to replay rows changed."""
    con = duckdb.connect()
    table = con.sql(f"SELECT * FROM read_parquet('{events}') WHERE {where} "
                    "ORDER BY position").to_arrow_table()
    rows = table.to_pylist()
    prev = GENESIS
    for number, row in enumerate(rows, 1):
        row.update(position=number, prev_hash=prev)
        row["hash"] = prev = row_hash(prev, **{k: v for k, v in row.items()
                                               if k not in ("prev_hash", "hash")})
    relinked = pa.Table.from_pylist(rows, schema=table.schema)  # noqa: F841 - scanned below
    con.execute(f"COPY (SELECT * FROM relinked) TO '{out}' (FORMAT PARQUET)")
    return out


def _rows(con: Any, sql: str) -> list[tuple]:
    return con.execute(sql).fetchall()


def _key(row: tuple) -> tuple:
    return tuple((value is None, json.dumps(value, default=str)) for value in row)


def _assert_same_tables(ledger: Ledger, out: Path) -> None:
    """Every derived table of ``out`` holds the local replay's rows and columns: the replay
    tables row for row (one file per partition, each in ledger order), the session tables
    and the findings in the very order the local replay wrote them."""
    con = duckdb.connect()
    local = ledger.connection
    for table in TABLES:
        files = sorted((out / table).glob("part-*.parquet"))
        assert files, table
        got_cols = _rows(con, f"DESCRIBE SELECT * FROM read_parquet('{out}/{table}/*.parquet')")
        want_cols = _rows(local, f"DESCRIBE SELECT * FROM {table}")
        assert [c[:2] for c in got_cols] == [c[:2] for c in want_cols], table
        got = _rows(con, f"SELECT * FROM read_parquet('{out}/{table}/*.parquet')")
        want = _rows(local, f"SELECT * FROM {table}")
        if table in HAND_TABLES:
            assert sorted(got, key=_key) == sorted(want, key=_key), table
        else:
            assert got == want, table
    for path in sorted((out / "hands").glob("part-*.parquet")):
        ords = [o for (o,) in _rows(con, f"SELECT ord FROM read_parquet('{path}')")]
        assert ords == sorted(ords)


def test_generated_series_replays_on_dask_as_locally(tmp_path: Path, scheduler: str,
                                                     series: Series) -> None:
    ledger, projection, export = series.ledger, series.projection, series.export
    done = replay_parquet(str(export), str(tmp_path / "out"), scheduler=scheduler)
    merged = done.merged
    assert done.threads == 2 and done.partitions == 8  # four per worker thread
    assert merged.counts == projection.counts == {"hands": 150, "bad": 1, "unverifiable": 0}
    assert merged.findings == projection.findings
    # the planted errors (replay.demo.series): a side pot paid to the wrong player (two
    # payout findings), an unrecorded top-up, a miscounted cash-out, a short payment
    assert sorted(d.kind for d in merged.findings) == [
        "payout", "payout", "session_balance", "settlement", "stack_continuity"]
    assert merged.report.hands == {f"s{i:02d}": 25 for i in range(1, 7)}
    assert merged.report == read_audit(ledger.connection)
    _assert_same_tables(ledger, tmp_path / "out")


def _mixed_ledger(corrected: Path, run: Any, db: str) -> Ledger:
    """Bundled hands (no session), the declare night, the series, an alias, entry
    corrections, a correction (rows appended after other hands) and a void (``corrected``:
    the session's ledger of them, :func:`tests.corrected.correct_the_books`, copied), then a
    PokerNow log (ids and nicknames)."""
    copy_ledger(corrected, Path(db))
    pokernow = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert run("import", str(pokernow)).exit_code == 0
    return Ledger(db)


def test_mixed_ledger_replays_on_dask_as_locally(tmp_path: Path, scheduler: str, run: Any,
                                                 db: str, corrected_data: Path) -> None:
    ledger = _mixed_ledger(corrected_data, run, db)
    projection, export = _local(ledger, tmp_path)
    loose = ledger.connection.execute(
        "SELECT count(*) FROM hands WHERE session IS NULL").fetchone()[0]
    assert loose == 6  # the five single hands and the dispute
    # five partitions: the hands of no session land in several, their book is merged
    done = replay_parquet(str(export / "events.parquet"), str(tmp_path / "out"),
                          scheduler=scheduler, partitions=5)
    merged = done.merged
    assert merged.counts == projection.counts
    assert merged.findings == projection.findings
    assert merged.report == read_audit(ledger.connection)  # what `audit` prints from
    # the corrected entries: Carol's buy-in amended from 100 to 160 (s02) and from 150
    # to 350 (s03), Alice's payment of 7.00 USD to Heidi retracted (s03: she owes it again;
    # she is Alicia by the alias)
    assert [(d.kind, d.hand, d.player, d.expected, d.actual) for d in merged.findings
            if d.session in ("s02", "s03")] == [
        ("stack_continuity", "s02-001", "Carol", 160, 100),
        ("stack_continuity", "s03-001", "Carol", 350, 150),
        ("settlement", None, "Alicia", -700, 0)]
    assert list(merged.series.sessions) == list(projection.series.sessions)
    assert merged.series.nicknames == projection.series.nicknames != {}
    assert merged.series.aliases == projection.series.aliases
    assert merged.series.aliases["Alice"] == "Alicia"
    _assert_same_tables(ledger, tmp_path / "out")
    con = duckdb.connect()
    shares = [con.execute(f"SELECT count(*) FROM read_parquet('{path}') WHERE session IS NULL"
                          ).fetchone()[0] for path in (tmp_path / "out" / "hands").iterdir()]
    assert sum(shares) == 6 and len([n for n in shares if n]) >= 2
    players = dict(con.execute(
        f"SELECT player, sum(hands) FROM read_parquet('{tmp_path}/out/session_players/*')"
        " GROUP BY player").fetchall())
    assert "Alice" not in players and players["Alicia"] > 0


def test_a_pokernow_log_in_an_opened_session_has_its_names_on_dask(
        tmp_path: Path, scheduler: str, run: Any, db: str) -> None:
    """The series, a session opened with ``session open`` and given the run-it-twice log,
    and charlestudor's log in the session it opens: the partitions' books say which sessions
    know their players by PokerNow id, so the merge names both logs' players as the local
    replay does (the opened session's were left out)."""
    from replay.demo.series import generate_series, write_series
    from tests.test_pokernow_opened_names import NAMES, RIT

    series = tmp_path / "series"
    write_series(generate_series(sessions=3, hands=10, seed=7), series)
    assert run("import", str(series), str(SHARED / "pokernow" / "charlestudor_Input_Log_001.csv")
               ).exit_code == 0
    assert run("session", "open", "fri", "--chip-value", "0.01", "--currency", "USD"
               ).exit_code == 0
    assert run("import", "--session", "fri", str(RIT)).exit_code == 0
    ledger = Ledger(db)
    projection, export = _local(ledger, tmp_path)
    done = replay_parquet(str(export / "events.parquet"), str(tmp_path / "out"),
                          scheduler=scheduler, partitions=3)
    charlestudor = {"gE4aE_Yhc3": "TA", "ydk9sgEWl2": "Anvjfbmj2", "BfS83Cedu3": "Qapurjsa9"}
    assert done.merged.series.nicknames == projection.series.nicknames == {**charlestudor,
                                                                           **NAMES}
    assert done.merged.findings == projection.findings
    _assert_same_tables(ledger, tmp_path / "out")


def _late_corrections(run: Any) -> None:
    """Two sessions whose chips moved on before a correction (docs/CORRECTIONS.md "A correction
    after the chips moved on"): sat (tests/test_correction_continuity.py: h1 won by Ann's aces,
    Ann 100+2; Bob 100-2, rebuys 50; h2 dealt on that, Ann 102, Bob 148; Bob folds his blind:
    cash-outs Ann 103, Bob 147), h1 then corrected to pay Bob; sun, the same hand x1 between
    Cy and Dee (Cy 102, Dee 98 cashed out), then corrected to pay Dee."""
    from tests.test_correction_continuity import H1, _two_hands
    from tests.test_disputes import _play

    _two_hands(run)
    for args in (("cashout", "sat", "Ann", "103"), ("cashout", "sat", "Bob", "147"),
                 ("session", "open", "sun"), ("buyin", "sun", "Cy", "100"),
                 ("buyin", "sun", "Dee", "100"),
                 ("hand", "start", "--session", "sun", "--hand", "x1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Cy:100,Dee:100", "--button", "Cy")):
        assert run(*args).exit_code == 0, args
    _play(run, "x1", *(a.replace("Ann", "Cy").replace("Bob", "Dee") for a in H1))
    for args in (("cashout", "sun", "Cy", "102"), ("cashout", "sun", "Dee", "98"),
                 ("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "wrong",
                  "--by", "f"),
                 ("correct", "x1", "--replace", "17", "pay Dee 4", "--reason", "wrong",
                  "--by", "f")):
        assert run(*args).exit_code == 0, args


def test_a_late_correction_stands_on_dask_as_locally(tmp_path: Path, scheduler: str, run: Any,
                                                     user: Any, db: str) -> None:
    """h2 was dealt, and x1's cash-outs counted, on the hands as they stood: the local audit
    takes them so (no stack_continuity, no session_balance finding: the chips at the table
    are facts, 4 chips owed in each session) and so does the Dask replay, finding for
    finding, table for table, each session in a partition of its own; ``dask-replay`` notes
    the chips owed on stderr as ``audit`` does, line for line."""
    _late_corrections(run)
    code, out, err = user("audit")
    assert code == 1  # the payouts of h1 and x1 now differ from the rules (the aces win)
    assert [line.split(": ")[:2] for line in out.splitlines()[:-1]] == [
        ["payout", "hand h1"], ["payout", "hand h1"], ["payout", "hand x1"],
        ["payout", "hand x1"]]
    assert err.splitlines() == [
        "note: hand h1 corrected after hand h2 was dealt (seq 19, by f: wrong): Ann -4, Bob +4 "
        "chips owed in settle",
        "note: hand x1 corrected after the cash-outs (seq 19, by f: wrong): Cy -4, Dee +4 "
        "chips owed in settle"]
    ledger = Ledger(db)
    projection, export = _local(ledger, tmp_path)
    assert [(d.kind, d.hand, d.player) for d in projection.findings] == [
        ("payout", "h1", "Bob"), ("payout", "h1", "Ann"), ("payout", "x1", "Dee"),
        ("payout", "x1", "Cy")]
    done = replay_parquet(str(export / "events.parquet"), str(tmp_path / "out"),
                          scheduler=scheduler, partitions=2)
    assert done.merged.findings == projection.findings
    assert done.merged.counts == projection.counts == {"hands": 3, "bad": 2,
                                                       "unverifiable": 0}
    assert done.merged.report == read_audit(ledger.connection)
    # the notes of the chips owed, as audit gives them
    assert done.merged.late == late_corrections(ledger)
    assert [f"note: {c.words()}" for c in done.merged.late] == err.splitlines()
    _assert_same_tables(ledger, tmp_path / "out")
    from click.testing import CliRunner

    from cli.main import cli

    result = CliRunner().invoke(cli, ["dask-replay", str(export), str(tmp_path / "cli"),
                                      "--scheduler", scheduler, "--partitions", "2"])
    assert (result.exit_code, result.stderr.splitlines()) == (1, err.splitlines())
    assert result.stdout.splitlines()[1:-1] == out.splitlines()  # the audit's very lines


def test_cli_dask_replay(tmp_path: Path, scheduler: str, series: Series) -> None:
    from click.testing import CliRunner

    from cli.main import cli

    export = series.export
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["dask-replay", str(export), str(out), "--scheduler",
                                      scheduler, "--partitions", "3"])
    assert result.exit_code == 1  # the planted errors
    lines = result.output.splitlines()
    assert lines[0] == ("150 hand(s) replayed: 1 paid differently from the rules, "
                        "0 showdown(s) not verifiable")
    assert lines[-1] == f"wrote 9 tables to {out} (3 partitions on 2 worker thread(s))"
    assert sorted(p.name for p in out.iterdir()) == sorted(TABLES)
    assert len(list((out / "hands").glob("*.parquet"))) == 3


def test_a_hand_that_does_not_replay_is_a_finding_as_locally(tmp_path: Path, scheduler: str,
                                                              series: Series) -> None:
    """A stored payload that is not an event: the hand is ``unreplayable`` (a finding, a
    ``hands`` row), the other hands are replayed, on Dask as in the local replay."""
    ledger = Ledger(str(copy_ledger(series.db, tmp_path / "series.duckdb")))
    ledger.connection.execute(
        "UPDATE events SET payload = '{\"type\": \"call\"}' WHERE position = (SELECT"
        " min(position) FROM events WHERE hand_id = 's03-004' AND type = 'call')")
    projection, export = _local(ledger, tmp_path)
    relinked = _relinked(export / "events.parquet", tmp_path / "relinked.parquet")
    done = replay_parquet(str(relinked), str(tmp_path / "out"), scheduler=scheduler)
    assert done.merged.findings == projection.findings
    assert [(d.kind, d.hand) for d in done.merged.findings if d.kind == "unreplayable"] == [
        ("unreplayable", "s03-004")]
    assert done.merged.counts == projection.counts
    _assert_same_tables(ledger, tmp_path / "out")


def test_a_dataset_that_cannot_be_replayed_fails_and_leaves_nothing(tmp_path: Path,
                                                                     scheduler: str,
                                                                     series: Series) -> None:
    export = series.export
    # a hand without its first row: it has no place (ord); the chain relinked, else broken
    cut = _relinked(export / "events.parquet", tmp_path / "cut.parquet",
                    "NOT (hand_id = 's03-004' AND seq = 1)")
    with pytest.raises(LedgerError) as caught:
        replay_parquet(str(cut), str(tmp_path / "out"), scheduler=scheduler)
    assert str(caught.value) == ("hand s03-004: the dataset has no first event (seq 1) of "
                                 "this hand")
    assert not (tmp_path / "out").exists()
    with pytest.raises(LedgerError, match="hands.parquet is not the events table .*: no "
                       "column position, stream, seq, type, payload$"):
        replay_parquet(str(export / "hands.parquet"), str(tmp_path / "out"),
                       scheduler=scheduler)


def test_events_path(tmp_path: Path) -> None:
    (tmp_path / "events.parquet").write_bytes(b"")
    assert events_path(str(tmp_path)) == str(tmp_path / "events.parquet")
    assert events_path("s3://bucket/events/*.parquet") == "s3://bucket/events/*.parquet"
    with pytest.raises(NotFound, match="no Parquet events at nowhere"):
        events_path("nowhere")


def test_an_object_store_url_in_and_out(series: Series) -> None:
    """Events read from and tables written to a URL through fsspec (its in-memory file
    system, so the cluster runs in this process: threads, not processes)."""
    import fsspec

    ledger, projection, export = series.ledger, series.projection, series.export
    store = fsspec.filesystem("memory")
    store.put(str(export / "events.parquet"), "/ledger/events.parquet")
    try:
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                          dashboard_address=":0", worker_dashboard_address=None) as cluster:
            done = replay_parquet("memory://ledger/events.parquet", "memory://derived",
                                  scheduler=cluster.scheduler_address, partitions=3)
        assert done.merged.findings == projection.findings
        assert sorted(p.rsplit("/", 1)[-1] for p in store.ls("/derived", detail=False)) == \
            sorted(TABLES)
        con = duckdb.connect()
        con.register_filesystem(store)
        got = _rows(con, "SELECT * FROM read_parquet('memory://derived/results/*.parquet')")
        want = _rows(ledger.connection, "SELECT * FROM results")
        assert sorted(got, key=_key) == sorted(want, key=_key)
    finally:
        store.rm("/ledger", recursive=True)
        if store.exists("/derived"):
            store.rm("/derived", recursive=True)


def test_a_row_edited_after_the_export_is_refused_nothing_written(tmp_path: Path,
                                                                   scheduler: str,
                                                                   series: Series) -> None:
    """The user's case: an amount edited in the exported Parquet (its hash kept) is not
    replayed as the books: one line naming the row, exit 2, no output folder; a row cut
    out is named as missing (each partition proves its rows, the edges between them after)."""
    from tests.test_outputs_not_the_ledger import handledger

    export = series.export
    con = duckdb.connect()
    position, stream, seq = con.execute(
        f"SELECT position, stream, seq FROM '{export}/events.parquet' WHERE"
        " payload::VARCHAR LIKE '%\"amount\":%' ORDER BY position LIMIT 1 OFFSET 100").fetchone()
    edited = tmp_path / "edited"
    edited.mkdir()
    con.execute(
        f"COPY (SELECT * REPLACE (CASE WHEN position = {position} THEN replace(payload::VARCHAR,"
        f" '\"amount\":', '\"amount\":1')::JSON ELSE payload END AS payload) FROM"
        f" '{export}/events.parquet' ORDER BY position) TO '{edited}/events.parquet'")
    out = tmp_path / "out"
    assert handledger("dask-replay", str(edited), str(out), "--scheduler", scheduler,
                      "--partitions", "3") == (
        2, "", f"error: {edited}/events.parquet: broken at position {position}: edited: row "
               f"{position} ({stream} seq {seq}): its content does not hash to its stored hash:"
               " nothing replayed, nothing written (rows changed after the export)\n")
    assert not out.exists()
    cut = tmp_path / "cut.parquet"
    after = con.execute(f"SELECT stream, seq FROM '{export}/events.parquet' WHERE position ="
                        f" {position + 1}").fetchone()
    con.execute(f"COPY (SELECT * FROM '{export}/events.parquet' WHERE position <> {position}"
                f" ORDER BY position) TO '{cut}' (ROW_GROUP_SIZE 1024)")
    with pytest.raises(ChainBroken) as caught:
        replay_parquet(str(cut), str(out), scheduler=scheduler)
    assert str(caught.value) == (
        f"{cut}: broken at position {position}: deleted: row {position} is missing before row "
        f"{position + 1} ({after[0]} seq {after[1]}): nothing replayed, nothing written (rows "
        "changed after the export)")
    assert not out.exists()


def test_an_output_that_is_no_folder_is_refused_before_replaying(tmp_path: Path) -> None:
    """Checked before a cluster starts: a file where the output folder would be, or above it."""
    from tests.test_outputs_not_the_ledger import handledger

    (tmp_path / "afile").write_text("kept\n")
    for out in ("afile", "afile/sub"):
        assert handledger("dask-replay", str(tmp_path), str(tmp_path / out)) == (
            2, "", f"error: dask-replay {tmp_path / out}: {tmp_path / 'afile'} is a file, not a "
                   "folder: nothing replayed, nothing written\n")
    assert (tmp_path / "afile").read_text() == "kept\n"


def test_a_clean_audit_of_an_export_says_its_chain_was_proven(tmp_path: Path, scheduler: str,
                                                               run: Any) -> None:
    """dask-replay proves the exported rows' hash chain before replaying them: its clean
    audit says so, never "the hash chain not checked" as a read of the ledger does."""
    from click.testing import CliRunner

    from cli.main import cli

    assert run("session", "open", "s1").exit_code == 0
    assert run("export", "--format", "parquet", str(tmp_path / "pq")).exit_code == 0
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["dask-replay", str(tmp_path / "pq"), str(out),
                                      "--scheduler", scheduler])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == (
        "audit clean: 0 hand(s) in 1 session(s); every chip adds up in the exported events, "
        "their hash chain proven row by row")


def test_a_clean_audit_on_dask_says_a_closed_session_still_owes_money_as_audit_does(
        tmp_path: Path, scheduler: str, run: Any) -> None:
    """Ann and Bob buy in 10 chips of 1.00 USD, Ann folds her small blind 1 to Bob's big blind
    (Bob paid 3), cash-outs 9 and 11, closed, nothing paid: Ann owes Bob 1.00 USD. The clean
    line of dask-replay ends as audit's does, saying session s still owes money."""
    from click.testing import CliRunner

    from cli.main import cli
    from tests.test_audit import OWED_NIGHT

    for argv in (*OWED_NIGHT, ("export", "--format", "parquet", str(tmp_path / "pq"))):
        assert run(*argv).exit_code == 0, argv
    owes = ("; 1 closed session still owes money (s): `handledger audit --unsettled` names "
            "who, `handledger settle` who pays whom")
    audit = run("audit")
    assert (audit.exit_code, audit.output) == (0, (
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        f"(the hash chain not checked: `handledger verify`){owes}\n"))
    result = CliRunner().invoke(cli, ["dask-replay", str(tmp_path / "pq"), str(tmp_path / "out"),
                                      "--scheduler", scheduler])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == (
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the exported events, "
        f"their hash chain proven row by row{owes}")


def test_dask_replay_names_the_unit_of_a_sites_findings_as_audit_does(tmp_path: Path,
                                                                        run: Any) -> None:
    """A PokerStars hand in dollars and cents whose payout was edited down by 0.10 (Player2
    collected 4.60 of the pot of 4.90 less the 0.20 rake, plus 0.10 uncalled: paid 470 cents,
    the rules give 480): ``dask-replay`` of its export prints the audit's very lines, each
    saying its amounts are chips of 0.01 USD (one function renders both)."""
    import logging

    from click.testing import CliRunner

    from cli.main import cli

    name = "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
    edited = tmp_path / "edited.txt"
    edited.write_text((SHARED / "text" / name).read_text().replace("$4.70", "$4.60"))
    assert run("import", str(edited)).exit_code == 0
    hand = "PokerStars-42875758685"
    findings = [
        f"payout: hand {hand}: Player2 was paid 470, the rules give 480 (-10) [hand {hand}, "
        "player Player2; expected 480, actual 470; amounts in chips of 0.01 USD]",
        f"rake: hand {hand}: the site kept 20 as rake (as the file records); the rules' awards "
        f"of the pots less it: Player2 480 (the payouts differ from them) [hand {hand}, player "
        "Player2; expected 500, actual 470; amounts in chips of 0.01 USD]",
        f"site_summary: hand {hand}: the site's summary disagrees with its own lines: collected "
        f"460 + rake 20 = 480, the total pot is 490 (+10) [hand {hand}; expected 480, actual "
        "490; amounts in chips of 0.01 USD]",
        "audit: 3 discrepancies (payout 1, rake 1, site_summary 1); 1 hand(s) in 0 session(s) "
        "checked"]
    audit = run("audit")
    assert (audit.exit_code, audit.output.splitlines()) == (1, findings)
    assert run("export", "--format", "parquet", str(tmp_path / "pq")).exit_code == 0
    out = tmp_path / "out"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=":0", worker_dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster:
        result = CliRunner().invoke(cli, ["dask-replay", str(tmp_path / "pq"), str(out),
                                          "--scheduler", cluster.scheduler_address,
                                          "--partitions", "1"])
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        "1 hand(s) replayed: 1 paid differently from the rules, 0 showdown(s) not verifiable",
        *findings, f"wrote 9 tables to {out} (1 partitions on 1 worker thread(s))"]


def test_dask_replay_names_the_chips_of_a_sessions_finding_as_audit_does(tmp_path: Path,
                                                                          run: Any) -> None:
    """A session's finding that names no hand (a cash-out) says what the session's chips are
    worth on Dask as ``audit`` says it: NewGuy bought in 500 cents of a PokerNow log of cents
    and cashed out 400, the hands never seating him."""
    import logging

    from click.testing import CliRunner

    from cli.main import cli

    session = "pokernowpy_run-it-twice"
    assert run("import", str(SHARED / "pokernow" / f"{session}.csv")).exit_code == 0
    assert run("buyin", session, "NewGuy", "500").exit_code == 0
    assert run("cashout", session, "NewGuy", "400").exit_code == 0
    line = (f"session_balance: session {session}: NewGuy cashed out 400 chips but the hands "
            f"leave NewGuy 500 (-100) [session {session}, player NewGuy; expected 500, actual "
            "400; amounts in chips of 0.01]")
    audit = run("audit")
    assert audit.exit_code == 1 and line in audit.output.splitlines()
    assert run("export", "--format", "parquet", str(tmp_path / "pq")).exit_code == 0
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=":0", worker_dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster:
        result = CliRunner().invoke(cli, ["dask-replay", str(tmp_path / "pq"),
                                          str(tmp_path / "out"), "--scheduler",
                                          cluster.scheduler_address, "--partitions", "1"])
    assert result.exit_code == 1, result.output
    # every finding as audit prints it, NewGuy's among them
    assert result.output.splitlines()[1:-1] == audit.output.splitlines()


def test_the_documented_install_is_the_clones_dask_extra() -> None:
    """docs/DASK.md installs Dask into the clone's install (handledger is on no package index,
    so ``pip install 'handledger[dask]'`` finds nothing): its one pip line is ``pip install -e
    '.[dask]'``, and pyproject's ``dask`` extra holds the two packages the replay imports."""
    import tomllib

    doc = (ROOT / "docs" / "DASK.md").read_text(encoding="utf-8")
    assert [line.split("#")[0].strip() for line in doc.splitlines()
            if line.startswith("pip install")] == ["pip install -e '.[dask]'"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [d.split(">=")[0] for d in project["optional-dependencies"]["dask"]] == [
        "dask[dataframe]", "distributed"]
