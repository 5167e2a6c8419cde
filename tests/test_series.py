"""replay.demo.series: the deterministic demo-series generator deals legal mixed-game hands through
the engine, with buy-ins, rebuys, sit-outs and cash-outs; data/series is what it writes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ledger.formats.jsonl import read_jsonl, write_jsonl
from replay.build import check_events
from replay.demo.series import GAMES, generate_series, write_series
from replay.fold import replay_events

DATA = Path(__file__).resolve().parents[1] / "data" / "series"


@pytest.fixture(scope="module")
def series():  # noqa: ANN201
    return generate_series(sessions=4, hands=40, seed=7)


def _hands(series) -> dict[str, list]:  # noqa: ANN001
    out: dict[str, list] = {}
    for log in series.sessions:
        for stream, _, event in log.rows:
            if stream != log.name:
                out.setdefault(stream, []).append(event)
    return out


def test_same_seed_same_bytes_other_seed_other_series() -> None:
    def text(seed: int) -> str:
        s = generate_series(sessions=2, hands=15, seed=seed)
        return "".join(write_jsonl(log.rows) for log in s.sessions)

    assert text(5) == text(5)
    assert text(5) != text(6)


def test_every_hand_is_legal_and_pays_what_the_engine_awards(series) -> None:  # noqa: ANN001
    hands = _hands(series)
    assert len(hands) == series.hands == 160
    for events in hands.values():
        check_events(events)  # the engine accepts every event
        replayed = replay_events(events)
        assert replayed.discrepancies == () and replayed.result.verifiable


def test_mixed_games_all_ins_side_pots_and_table_changes(series) -> None:  # noqa: ANN001
    hands = _hands(series)
    games = Counter(events[0].game for events in hands.values())
    assert set(games) == set(GAMES)
    replays = [replay_events(events) for events in hands.values()]
    assert sum(len(r.result.pots) > 1 for r in replays) >= 5  # side pots
    assert sum(any(e.type == "all_in" for e in ev) for ev in hands.values()) >= 15
    assert len({tuple(s.stack for s in ev[0].seats) for ev in hands.values()}) > 100
    kinds = Counter(
        (e.type, getattr(e, "kind", None) if e.type == "buy_in" else getattr(e, "change", None))
        for log in series.sessions for stream, _, e in log.rows if stream == log.name)
    assert kinds[("buy_in", "buy_in")] >= 16 and kinds[("buy_in", "rebuy")] >= 1
    assert kinds[("seat_change", "stand_up")] >= 1
    assert kinds[("session_closed", None)] == 4 and kinds[("payment", None)] >= 4


def test_cash_outs_are_the_final_stacks(series) -> None:  # noqa: ANN001
    hands = _hands(series)
    for log in series.sessions:
        stacks: dict[str, int] = {}
        for stream, _, e in log.rows:
            if e.type == "buy_in":
                stacks[e.player] = stacks.get(e.player, 0) + e.chips
            elif e.type == "cash_out":
                assert stacks.pop(e.player) == e.chips
            elif e.type == "hand_started":
                assert {s.player: s.stack for s in e.seats}.items() <= stacks.items(), stream
                stacks.update(replay_events(hands[stream]).final_stacks)
        assert not stacks  # everybody cashed out


def test_written_files_read_back_and_interleave_the_session(tmp_path: Path,
                                                            series) -> None:  # noqa: ANN001
    paths = write_series(series, tmp_path)
    assert [p.name for p in paths] == ["s01.jsonl", "s02.jsonl", "s03.jsonl", "s04.jsonl"]
    parsed = read_jsonl(paths[0]).check()
    assert [s.id for s in parsed.sessions] == ["s01"] and len(parsed.hands) == 40
    lines = [row.line for row in parsed.sessions[0].rows]
    assert lines[-1] > parsed.hands[-1].line > lines[0]


def test_data_series_is_the_generator_output() -> None:
    """data/series is `demo-series --sessions 3 --hands 30 --seed 1` (regenerate it when the
    generator or the engine changes on purpose)."""
    s = generate_series(sessions=3, hands=30, seed=1)
    for log in s.sessions:
        assert (DATA / f"{log.name}.jsonl").read_text(encoding="utf-8") == write_jsonl(log.rows)


def test_the_full_size_series_has_every_hand_and_planted_error() -> None:
    s = generate_series(sessions=20, hands=150, seed=1, plant_errors=True)
    assert s.hands == 3000 and len(s.planted) == 4


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        generate_series(sessions=0, hands=10)


def test_demo_series_refuses_a_folder_holding_json_lines_files(tmp_path: Path) -> None:
    """A second series into the folder of a first would overwrite some of its files and leave
    the others (s02 … of the first beside s01 of the second): refused, nothing written; a
    folder holding other files is written."""
    from tests.test_live_table import one_shot

    ser, db = tmp_path / "ser", tmp_path / "unused.duckdb"
    assert one_shot(db, "demo-series", "--sessions", "3", "--hands", "4", "--seed", "3",
                    str(ser)) == (0, f"wrote 3 session file(s), 12 hands, to {ser}\n", "")
    before = {p.name: p.read_bytes() for p in ser.iterdir()}
    assert one_shot(db, "demo-series", "--sessions", "1", "--hands", "2", str(ser)) == (
        2, "", f"error: demo-series {ser}: {ser} already holds 3 JSON-lines file(s) "
        f"({ser}/s01.jsonl …): a series written there would overwrite them or mix with them "
        f"(`handledger import {ser}` reads every one); nothing written: name another folder, "
        "or remove them first\n")
    assert {p.name: p.read_bytes() for p in ser.iterdir()} == before
    other = tmp_path / "other"  # a note and an empty file: nothing import reads
    other.mkdir()
    (other / "notes.txt").write_text("x\n")
    (other / "s09.jsonl").write_text("")
    assert one_shot(db, "demo-series", "--sessions", "1", "--hands", "2", str(other)) == (
        0, f"wrote 1 session file(s), 2 hands, to {other}\n", "")
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt", "s01.jsonl", "s09.jsonl"]
    assert not db.exists()


def test_demo_series_refuses_a_folder_holding_what_import_reads_anywhere(tmp_path: Path) -> None:
    """``import OUT`` reads subfolders and files of any name by their content: a session
    file of an earlier series in a subfolder, under an upper-case name or as ``.txt`` is
    refused as the folder's own ``s01.jsonl`` is, nothing written."""
    from tests.test_live_table import one_shot

    first, db = tmp_path / "first", tmp_path / "unused.duckdb"
    assert one_shot(db, "demo-series", "--sessions", "1", "--hands", "3", "--seed", "3",
                    str(first))[0] == 0
    rows = (first / "s01.jsonl").read_bytes()
    for name in ("old/s01.jsonl", "S01.JSONL", "old/night1.txt"):
        out = tmp_path / name.replace("/", "-").replace(".", "-")
        (out / name).parent.mkdir(parents=True)
        (out / name).write_bytes(rows)
        assert one_shot(db, "demo-series", "--sessions", "1", "--hands", "3", "--seed", "9",
                        str(out)) == (
            2, "", f"error: demo-series {out}: {out} already holds 1 JSON-lines file(s) "
            f"({out}/{name}): a series written there would overwrite them or mix with them "
            f"(`handledger import {out}` reads every one); nothing written: name another "
            "folder, or remove them first\n")
        assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                      if p.is_file()) == [name]
    phh = tmp_path / "hands"  # a hand file of another format: said as what import reads
    (phh / "old").mkdir(parents=True)
    (phh / "old" / "h.phh").write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nplayers = ['Ann', 'Bob']\n"
        "actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\n", encoding="utf-8")
    assert one_shot(db, "demo-series", "--sessions", "1", "--hands", "3", str(phh)) == (
        2, "", f"error: demo-series {phh}: {phh} already holds 1 file(s) import reads "
        f"({phh}/old/h.phh): a series written there would overwrite them or mix with them "
        f"(`handledger import {phh}` reads every one); nothing written: name another "
        "folder, or remove them first\n")
    assert not (phh / "s01.jsonl").exists() and not db.exists()
