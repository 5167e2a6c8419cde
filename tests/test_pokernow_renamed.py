"""A PokerNow log whose stored hands now name a player otherwise (a copy edited with sed) is
refused whole, under any file name, and the ledger stays as it was; a rename the game itself
logged part-way through is not such a change (README, PokerNow; FORMATS.md §2)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.conftest import SHARED
from tests.copies import build_ledger, copy_ledger

VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
SESSION = "valakuzhyk_07_21_2022_log1"
AAB = "gKyQzJRs7T"  # "Aab Ovwsi @ gKyQzJRs7T": in every one of the 52 hands, +7000 over them


def _refusal(path: Path, line: int, hand: str, session: str = SESSION, *,
             shown: bool = False) -> str:
    hint = (f"{AAB} is shown as Aab New already (a `player alias`)" if shown else
            f"`handledger player alias 'Aab New' {AAB}` shows {AAB} as Aab New from now on")
    return (f"error: {path}:{line}, hand {hand}: this PokerNow hand is in the ledger already "
            f"(session {session}) under other names: player {AAB} is 'Aab New' here, "
            "'Aab Ovwsi' in the ledger; nothing of the file was written (its buy-ins would "
            f"count twice); {hint}, and the file stays refused (the stored hands keep the "
            "names they were logged under)\n")


def _renamed(text: str) -> str:
    return text.replace("Aab Ovwsi @", "Aab New @")  # as `sed 's/Aab Ovwsi @/Aab New @/g'`


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _with_ids(text: str) -> str:
    """The log as a newer export writes it: each ``starting hand`` line with a PokerNow hand
    id (its ``order``, unique per start line), ``-- starting hand #N (id: hORDER)  (…``."""
    rows = list(csv.reader(text.splitlines(keepends=True)))
    for row in rows[1:]:
        if row[0].startswith("-- starting hand #"):
            head, rest = row[0].split("  (", 1)
            row[0] = f"{head} (id: h{row[2]})  ({rest}"
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger holding the real log imported as it is (52 hands, 1255 events, 8 buy-ins)."""
    return build_ledger(tmp_path_factory.mktemp("vk") / "t.duckdb", [["import", str(VK)]])


@pytest.fixture
def db(stored: Path, tmp_path: Path) -> str:
    return str(copy_ledger(stored, tmp_path / "t.duckdb"))


@pytest.fixture
def run(db: str):  # noqa: ANN201
    runner = CliRunner()

    def invoke(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)

    return invoke


def _books(run) -> tuple[str, list, dict]:  # noqa: ANN001
    """The chain's head (``verify``), the count of each event type, Aab's balance row."""
    head = run("verify").output
    counts = json.loads(run("sql", "--json", "SELECT type, count(*) AS n FROM events GROUP BY"
                            " type ORDER BY type").output)
    players = {p["player"]: p for p in json.loads(run("balances", "--json").output)["players"]}
    return head, counts, players.get(AAB) or players["Aab New"]


@pytest.fixture(scope="module")
def stored_books(stored: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list,
                                                                                  dict]:
    """:func:`_books` of the ``stored`` ledger (read on a copy of it), once for the module:
    what every copy of it reads before a test changes it."""
    db = copy_ledger(stored, tmp_path_factory.mktemp("books") / "t.duckdb")
    runner = CliRunner()
    return _books(lambda *args: runner.invoke(cli, ["--db", str(db), *args],
                                              catch_exceptions=False))


def test_the_stored_books(stored_books) -> None:  # noqa: ANN001
    head, counts, aab = stored_books  # _books of a copy of the stored ledger
    assert head.startswith("ok: 1255 events, hash chain intact")
    assert {c["type"]: c["n"] for c in counts}["buy_in"] == 8
    assert (aab["net"], aab["buy_in"], aab["hands"]) == (7000, 1000, 52)


def test_a_renamed_copy_under_another_name_is_refused_and_writes_nothing(
        run, tmp_path, stored_books) -> None:  # noqa: ANN001
    before = stored_books  # _books(run) of this copy, as stored
    copy = _write(tmp_path / "allrenamed.csv", _renamed(VK.read_text(encoding="utf-8")))
    out = run("import", str(copy))
    assert out.exit_code == 2
    # line 1109 is hand #1's start (the file is newest first); its order 165843755677200
    hand = f"pn-{SESSION}-1-165843755677200"
    # its 52 hands the ledger's (under other names): the refused one rejected, 51 known
    assert out.output == (_refusal(copy, 1109, hand) + "imported 0 hand(s) (0 events) from 1 "
                          "file(s); 51 already in the ledger; 1 rejected\n")
    assert _books(run) == before  # not a row more: no second session, no buy-in twice
    assert run("audit").exit_code == 0
    # the hint does what it says: the same books, Aab shown under his new name
    assert run("player", "alias", "Aab New", AAB).exit_code == 0
    books = _books(run)
    head, _, aab = books
    assert head.startswith("ok: 1256 events")
    assert (aab["player"], aab["net"], aab["hands"]) == ("Aab New", 7000, 52)
    # the copy again: still refused, and the line no longer asks for the alias just recorded
    again = run("import", str(copy))
    assert again.exit_code == 2
    assert again.output == _refusal(copy, 1109, hand, shown=True) + (
        "imported 0 hand(s) (0 events) from 1 file(s); 51 already in the ledger; 1 rejected\n")
    assert _books(run) == books


def test_a_renamed_copy_under_the_original_name_is_refused(
        run, tmp_path, stored_books) -> None:  # noqa: ANN001
    """The same file name makes the same session and hand ids: before, its hands were known
    but its 38 session lines (8 buy-ins among them) were written again."""
    before = stored_books  # _books(run) of this copy, as stored
    copy = _write(tmp_path / "edited" / VK.name, _renamed(VK.read_text(encoding="utf-8")))
    out = run("import", str(copy))
    assert out.exit_code == 2
    assert out.output.startswith(_refusal(copy, 1109, f"pn-{SESSION}-1-165843755677200"))
    assert _books(run) == before
    assert run("audit").exit_code == 0


def test_a_stored_log_renamed_from_hand_30_on_is_refused_at_hand_30(
        run, tmp_path, stored_books) -> None:  # noqa: ANN001
    before = stored_books  # _books(run) of this copy, as stored
    lines = VK.read_text(encoding="utf-8").splitlines(keepends=True)
    # newest first: the lines above hand #30's start (line 386) are hands #30-#52
    text = "".join([lines[0], *map(_renamed, lines[1:386]), *lines[386:]])
    copy = _write(tmp_path / "late.csv", text)
    out = run("import", str(copy))
    assert out.exit_code == 2
    assert out.output.startswith(_refusal(copy, 386, f"pn-{SESSION}-30-165843940392600"))
    assert _books(run) == before


def test_a_longer_export_whose_new_hands_show_a_new_name_imports(tmp_path) -> None:
    """A rename the game logged: the hands stored (#1-#4) read as they did, the new ones
    (#30 on) print Aab's new name; the longer export adds its 48 hands, nothing twice."""
    lines = VK.read_text(encoding="utf-8").splitlines(keepends=True)
    quit_ = next(i for i, t in enumerate(lines) if t.startswith('"-- ending hand #4 --"'))
    quit_ -= 1  # the quit logged just after hand #4 (the line above its end)
    assert "quits the game" in lines[quit_]
    short = _write(tmp_path / "short.csv", "".join([lines[0], *lines[quit_:]]))
    longer = _write(tmp_path / "longer.csv", "".join(
        [lines[0], *map(_renamed, lines[1:386]), *lines[386:]]))
    db = tmp_path / "t.duckdb"
    build_ledger(db, [["import", str(short)]])
    runner = CliRunner()

    def run(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    out = run("import", str(longer))
    assert out.exit_code == 0, out.output
    assert "imported 48 hand(s)" in out.output and "4 already in the ledger; 0 rejected" \
        in out.output
    assert run("audit").exit_code == 0
    _, counts, aab = _books(run)
    assert {c["type"]: c["n"] for c in counts}["buy_in"] == 8
    assert (aab["nickname"], aab["net"], aab["hands"]) == ("Aab New", 7000, 52)


def test_a_log_with_hand_ids_renamed_under_another_name_is_refused(tmp_path) -> None:
    """A newer export: each hand known by PokerNow's hand id. The copy's first hand is the
    stored game's (the same key), so it was read into the stored session and its hands were
    known; only Aab's new name was written, as an alias of the stored game. Now refused."""
    original = _write(tmp_path / "game.csv", _with_ids(VK.read_text(encoding="utf-8")))
    copy = _write(tmp_path / "copy.csv", _renamed(original.read_text(encoding="utf-8")))
    db = tmp_path / "t.duckdb"
    build_ledger(db, [["import", str(original)]])
    runner = CliRunner()

    def run(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    before = _books(run)
    out = run("import", str(copy))
    assert out.exit_code == 2
    assert out.output.startswith(_refusal(copy, 1109, "pn-game-h165843755677200", "game"))
    assert _books(run) == before
    assert run("import", str(original)).output.startswith("imported 0 hand(s) (0 events)")
