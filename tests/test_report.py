"""``handledger report OUT_DIR`` without a browser: every link of every page resolves, the
standings equal ``handledger standings --json``, a re-run rewrites only what changed and
removes pages of hands that are gone, names are escaped, the ledger is only read; the page
names and the chart's lines (hand-checked)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import SHARED
from tests.sitewalk import walk
from tests.test_view import HOSTILE, hostile_phh

POKERNOW = SHARED / "pokernow"
NIGHT = "night <b>1</b>"


def hl(db: Path, *args: str) -> tuple[int, str]:
    """``handledger --db DB ARGS…``: (exit code, output)."""
    from cli.main import cli

    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    return result.exit_code, result.output


def ok(db: Path, *args: str) -> str:
    code, out = hl(db, *args)
    assert code == 0, out
    return out


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A generated series of three sessions of 20 hands with the four planted errors; the
    ledger holds the first two (``db``), ``s03`` is the file of the third; its report
    written once into the empty folder ``site`` (its derived tables caught up by it, so no
    later report writes to ``db``), ``wrote`` the line the command printed. Copy them to
    change them."""
    base = tmp_path_factory.mktemp("series")
    files = base / "files"
    ok(base / "unused.duckdb", "demo-series", "--sessions", "3", "--hands", "20", "--seed", "1",
       "--plant-errors", str(files))
    ok(base / "db.duckdb", "import", str(files / "s01.jsonl"), str(files / "s02.jsonl"))
    wrote = ok(base / "db.duckdb", "report", base / "site")
    return {"db": base / "db.duckdb", "s03": files / "s03.jsonl", "site": base / "site",
            "wrote": wrote}  # type: ignore[dict-item]


def copy(db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy.duckdb"
    shutil.copy(db, target)
    return target


def copy_site(series: dict[str, Path], tmp_path: Path) -> Path:
    """The series' report (``series["site"]``) copied to ``tmp_path``/site, its files' times
    kept: a report run there finds the pages it wrote."""
    return Path(shutil.copytree(series["site"], tmp_path / "site"))


def files_of(out: Path) -> set[Path]:
    return {p.resolve() for p in out.rglob("*") if p.is_file()}


def stamps(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*.html")}


def embedded(page: Path, id_: str) -> object:
    """The JSON of ``<script type="application/json" id=ID>`` in the page."""
    m = re.search(rf'<script type="application/json" id="{id_}">(.*?)</script>',
                  page.read_text(encoding="utf-8"), re.S)
    assert m, f"no #{id_} in {page}"
    return json.loads(m.group(1))


def written(summary: str) -> tuple[int, int, int, int, bool, int]:
    """(hand pages written, unchanged, session pages written, unchanged, index written,
    removed) from the command's line."""
    m = re.fullmatch(r"wrote .*/index\.html: (\d+) hand page\(s\) written, (\d+) unchanged;"
                     r" (\d+) session page\(s\) written, (\d+) unchanged; index (written|"
                     r"unchanged); (\d+) removed\n", summary)
    assert m, summary
    a, b, c, d, index, e = m.groups()
    return int(a), int(b), int(c), int(d), index == "written", int(e)


# ------------------------------------------------------------------------------ the site


def test_every_link_of_the_series_report_resolves(series: dict[str, Path],
                                                  tmp_path: Path) -> None:
    out = series["site"]  # written by the fixture into an empty folder
    assert written(series["wrote"]) == (40, 0, 2, 0, True, 0)  # type: ignore[arg-type]
    seen, broken = walk(out / "index.html")
    assert broken == []
    assert seen == files_of(out)  # every file is linked from somewhere: no orphan
    assert len(list((out / "hands").iterdir())) == 40
    assert sorted(p.name for p in (out / "sessions").iterdir()) == ["s01.html", "s02.html"]
    index = (out / "index.html").read_text(encoding="utf-8")
    disputes = index[index.index('id="dispute-list"'):]
    assert re.findall(r'<th scope="row"><a href="hands/([^"]+)"', disputes) == [
        "s01-007.html", "s02-007.html"]  # the planted side pot and the stack taken 20 chips off
    s01 = (out / "sessions" / "s01.html").read_text(encoding="utf-8")
    assert '(<a href="../hands/s01-007.html" class="name">s01-007</a>): hand s01-007: Bob ' \
           'was paid 236, the rules give 364 (-128)' in s01
    assert "Alice must still pay Carol 1.00 USD" in s01  # the session's settlement finding
    hand = (out / "hands" / "s01-002.html").read_text(encoding="utf-8")
    assert '<a href="../sessions/s01.html">Session s01</a>' in hand
    assert '<a href="s01-001.html">← Previous hand s01-001</a>' in hand
    assert '<a href="s01-003.html">Next hand s01-003 →</a>' in hand


def test_every_link_of_a_pokernow_report_resolves(tmp_path: Path) -> None:
    db = tmp_path / "pn.duckdb"
    ok(db, "import", POKERNOW)
    out = tmp_path / "site"
    assert written(ok(db, "report", out))[:3] == (63, 0, 4)
    seen, broken = walk(out / "index.html")
    assert broken == [] and seen == files_of(out)
    page = (out / "sessions" / "pokernowpy_run-it-twice.html").read_text(encoding="utf-8")
    # the audit's findings (stack continuity, 11) link the hands they name
    assert page.count('<span class="kind">stack_continuity</span> (<a href="../hands/') == 11
    assert embedded(out / "index.html", "standings-data") == json.loads(
        ok(db, "standings", "--json"))
    assert "standings-money-data" not in (out / "index.html").read_text(encoding="utf-8")


def test_standings_on_the_index_equal_the_command(series: dict[str, Path]) -> None:
    out = series["site"]  # the report of series["db"]
    chips = json.loads(ok(series["db"], "standings", "--json"))
    money = json.loads(ok(series["db"], "standings", "--money", "--json"))
    assert embedded(out / "index.html", "standings-data") == chips
    assert embedded(out / "index.html", "standings-money-data") == money
    assert money["currency"] == "USD" and len(chips["players"]) == 8


def test_the_standings_rows_follow_standings_money_over_chips_of_different_values(
        tmp_path: Path) -> None:
    db = tmp_path / "mixed.duckdb"
    ok(db, "import", POKERNOW / "charlestudor_Input_Log_002.csv",
       POKERNOW / "pokernowpy_run-it-twice.csv")
    ok(db, "session", "set", "charlestudor_Input_Log_002", "--chip-value", "0.05",
       "--currency", "USD")
    ok(db, "session", "set", "pokernowpy_run-it-twice", "--chip-value", "0.01",
       "--currency", "USD")
    ok(db, "report", tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    grid = page[page.index('id="standings-grid"'):page.index("</tbody>")]
    rows = re.findall(r'<tr data-player="([^"]+)">', grid)
    # hand-checked: 855 chips of 0.01 (8.55 USD) above 150 of 0.05 (7.50 USD); a loss of 50
    # chips of 0.05 (-2.50 USD) above one of 263 chips of 0.01 (-2.63 USD), never below it
    totals = re.findall(r'<td class="total">.*?<span class="money">\(([^)]*)\)</span></td>',
                        grid)
    assert list(zip(rows, totals, strict=True)) == [
        ("3r4cXeU7Dp", "+8.55 USD"), ("gE4aE_Yhc3", "+7.50 USD"), ("R2MwqIZu29", "+1.29 USD"),
        ("5ZxauEKa4C", "-0.53 USD"), ("r6R7wIH3qS", "-0.83 USD"), ("6OQxLdU_ZO", "-2.50 USD"),
        ("CzMp1GAawT", "-2.50 USD"), ("YJJJbgIQrB", "-2.50 USD"), ("HXN7RGKNLI", "-2.63 USD"),
        ("6sDYZfyXI8", "-5.85 USD")]
    money = json.loads(ok(db, "standings", "--money", "--json"))
    assert rows == [p["player"] for p in money["players"]]  # one order: the command's
    assert ("most won first in USD (the order of <code>handledger standings --money</code>)"
            in page)


# ------------------------------------------------------------------------------ re-runs


def test_a_rerun_rewrites_only_what_changed(series: dict[str, Path], tmp_path: Path) -> None:
    db = Path(shutil.copy(series["db"], tmp_path / "db.duckdb"))
    out = copy_site(series, tmp_path)  # the report of the ledger db is a copy of
    before = stamps(out)
    assert written(ok(db, "report", out)) == (0, 40, 0, 2, False, 0)
    assert stamps(out) == before  # not one file touched
    ok(db, "import", series["s03"])
    assert written(ok(db, "report", out)) == (20, 40, 2, 1, True, 0)  # s03 new; s02 links it
    after = stamps(out)
    assert {k for k in after if after[k] != before.get(k)} == {
        "index.html", "sessions/s02.html", "sessions/s03.html",
        *(f"hands/s03-{i:03d}.html" for i in range(1, 21))}
    seen, broken = walk(out / "index.html")
    assert broken == [] and seen == files_of(out)
    ok(db, "void", "s02-005", "--reason", "misdeal", "--by", "floor", "--closed")
    assert written(ok(db, "report", out)) == (1, 59, 1, 2, True, 0)
    assert "Voided by <span class=\"name\">floor</span>: <q>misdeal</q>" in (
        out / "index.html").read_text(encoding="utf-8")
    (out / "hands" / "s01-001.html").unlink()  # a page lost: made again
    assert written(ok(db, "report", out))[:2] == (1, 59)


def test_pages_of_hands_no_longer_in_the_ledger_are_removed(series: dict[str, Path],
                                                           tmp_path: Path) -> None:
    out = tmp_path / "site"
    pn = tmp_path / "pn.duckdb"
    ok(pn, "import", POKERNOW / "charlestudor_Input_Log_001.csv")
    ok(pn, "report", out)
    assert len(list((out / "hands").iterdir())) == 4
    (out / "hands" / "mine.html").write_text("<p>not the report's</p>", encoding="utf-8")
    (out / "hands" / "notes.txt").write_text("kept", encoding="utf-8")
    (out / "hands" / ".s01-001.html.x1.tmp").write_text("an interrupted write")
    assert written(ok(series["db"], "report", out)) == (40, 0, 2, 0, True, 6)
    assert {p.name for p in (out / "hands").iterdir()} >= {"mine.html", "notes.txt"}
    assert not any(p.name.startswith("pn-") for p in (out / "hands").iterdir())
    assert [p.name for p in (out / "sessions").iterdir() if "charlestudor" in p.name] == []
    assert walk(out / "index.html")[1] == []


# ------------------------------------------------------------------------------ safety


def hostile_ledger(tmp_path: Path) -> Path:
    """A session named like markup, its three players named like markup (tests/test_view.py
    HOSTILE) in one hand, their buy-ins, cash-outs and a payment."""
    db = tmp_path / "hostile.duckdb"
    ok(db, "session", "open", NIGHT, "--date", "2026-01-02", "--chip-value", "0.25",
       "--currency", "USD")
    # imported first: 'Ann & "Bob"' is no name the live notation can read (a buy-in takes
    # it once a hand of the session seats it)
    ok(db, "import", "--session", NIGHT, hostile_phh(tmp_path / "hostile.phh"))
    for name in HOSTILE:
        ok(db, "buyin", NIGHT, name, "100")
    for name, chips in zip(HOSTILE, ("108", "98", "94"), strict=True):
        ok(db, "cashout", NIGHT, name, chips)
    ok(db, "pay", NIGHT, HOSTILE[1], HOSTILE[0], "0.50")
    return db


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:func:`hostile_ledger`, built once for the module: copy it."""
    return hostile_ledger(tmp_path_factory.mktemp("hostile"))


def test_names_from_files_are_escaped(tmp_path: Path, hostile: Path) -> None:
    db = copy(hostile, tmp_path)
    out = tmp_path / "site"
    ok(db, "report", out)
    (session,) = (out / "sessions").iterdir()
    assert session.name == "night_b_1_b_~91b4f2d9.html"
    for page in (out / "index.html", session, out / "hands" / "hostile-7.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script>alert" not in html and "<b>1" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "Ann &amp; &#34;Bob&#34;" in html
        assert html.count("<script") == html.count('<script type="application/json"') + (
            page.parent.name == "hands")  # the hand page's own script, linked
    assert walk(out / "index.html")[1] == []


def test_the_report_only_reads_the_ledger(series: dict[str, Path], tmp_path: Path) -> None:
    import hashlib

    db = copy(series["db"], tmp_path)
    events = ok(db, "sql", "SELECT count(*), max(hash) FROM events")
    ok(db, "report", tmp_path / "site")  # derived tables caught up (fresh_books), no event
    assert ok(db, "sql", "SELECT count(*), max(hash) FROM events") == events
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    ok(db, "report", tmp_path / "site")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest  # the file is as it was
    assert ok(db, "verify").startswith("ok: 1336 events, hash chain intact")
    code, out = hl(tmp_path / "missing.duckdb", "report", tmp_path / "none")
    assert (code, out) == (2, f"error: no ledger at {tmp_path / 'missing.duckdb'} "
                              "(`handledger init` creates one, and so do `handledger import`, "
                              "`run`, `session open` and `hand start`)\n")
    assert not (tmp_path / "missing.duckdb").exists() and not (tmp_path / "none").exists()
    (tmp_path / "a-file").write_text("x")
    code, out = hl(db, "report", tmp_path / "a-file" / "site")
    assert code == 2 and out.startswith("error: cannot write the report") and "\n" == out[-1]
    assert out.count("\n") == 1


# ------------------------------------------------------------------------------ pieces


def test_page_names_never_collide() -> None:
    from replay.pagefiles import file_names, page_name
    from replay.site import NO_SESSION

    assert page_name("s01-001") == "s01-001"
    assert page_name("PokerStars-254567") == "PokerStars-254567"
    assert page_name("<b>") == "_b_~507ca5a2"  # sha256("<b>") begins 507ca5a2
    assert page_name("a b") != page_name("a_b") == "a_b"
    assert page_name(".hidden")[:8] == "_hidden~" and page_name("-x")[:3] == "_x~"
    assert len(page_name("x" * 100)) == 100 and len(page_name("x" * 101)) == 80 + 1 + 8
    assert page_name(NO_SESSION) != NO_SESSION  # the page of no session is nobody's name
    names = file_names(["Ann-1", "ann-1", "Bob"])
    assert names["Bob"] == "Bob.html"
    assert len({n.casefold() for n in names.values()}) == 3
    assert names["Ann-1"].startswith("Ann-1~") and names["ann-1"].startswith("ann-1~")


def test_chart_lines_hand_checked(tmp_path: Path) -> None:
    from matplotlib import pyplot as plt

    from cli.chart import COLOURS, figure, write_chart

    png = tmp_path / "chart.png"  # a name that would be mathtext, and a broken one, are text
    write_chart(png, [(1, "$\\x$", 3), (1, "$\\frac{1}{0}$", -3)], "chips")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    fig = figure([(1, "A", 5), (1, "B", -5), (2, "A", -10), (2, "B", 10), (3, "C", 2)],
                 "chips", starts=[(1, "s1"), (3, "s2")], names={"B": "Bee"})
    try:
        ax = fig.axes[0]
        lines = [line for line in ax.get_lines() if line.get_gid()]
        # most won first: B ends +5 (-5 then +10), C +2 (its one hand), A -5 (+5 then -10);
        # from 0 before the first hand, a step after each of his hands, flat to the end (3)
        assert [(line.get_gid(), line.get_label(), list(line.get_xdata()),
                 list(line.get_ydata())) for line in lines] == [
            ("chart-player-0", "Bee (+5)", [0, 1, 2, 3], [0, -5, 5, 5]),
            ("chart-player-1", "C (+2)", [0, 3, 3], [0, 2, 2]),
            ("chart-player-2", "A (-5)", [0, 1, 2, 3], [0, 5, -5, -5])]
        assert [line.get_drawstyle() for line in lines] == ["steps-post"] * 3
        assert [line.get_color() for line in lines] == list(COLOURS[:3])
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [
            "Bee (+5)", "C (+2)", "A (-5)"]
        # the sessions start before hand 1 and before hand 3; the line of 0
        marks = [line for line in ax.get_lines() if not line.get_gid()]
        assert [list(m.get_xdata()) for m in marks] == [[0, 1], [0, 0], [2, 2]]
        assert list(marks[0].get_ydata()) == [0, 0]
        assert [t.get_text() for t in ax.texts] == ["s1", "s2"]
    finally:
        plt.close(fig)


def test_chart_svg_keeps_names_as_escaped_text() -> None:
    import xml.etree.ElementTree as ET

    from cli.chart import COLOURS, chart_svg

    math = "$\\frac{1}{0}$"  # mathtext in matplotlib unless drawn as plain text
    rows = [(1, HOSTILE[0], 30), (1, HOSTILE[1], -10), (2, HOSTILE[2], -25), (2, math, 5)]
    svg = chart_svg(rows, [(1, NIGHT)])
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert svg == chart_svg(rows, [(1, NIGHT)])  # the same text: the index is kept
    assert "<script" not in svg and "<b>" not in svg and "<style" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt; (+30)" in svg
    assert 'Ann &amp; "Bob" (-25)' in svg and "night &lt;b&gt;1&lt;/b&gt;" in svg
    root = ET.fromstring(svg)  # well-formed: every name escaped
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert [HOSTILE[0] + " (+30)", math + " (+5)", HOSTILE[1] + " (-10)",
            HOSTILE[2] + " (-25)"] == texts[-4:]  # the legend, most won first, as text
    assert NIGHT in texts
    groups = [g for g in root.iter(f"{ns}g") if g.get("id", "").startswith("chart-player-")]
    assert [g.get("id") for g in groups] == [f"chart-player-{k}" for k in range(4)]
    styles = [dict(part.split(": ") for part in g.find(f"{ns}path").get("style").split("; "))
              for g in groups]  # one line each: its own colour and dash pattern, or solid
    assert [s["stroke"] for s in styles] == [c.lower() for c in COLOURS[:4]]
    assert [s.get("stroke-dasharray") is None for s in styles] == [True, False, False, False]
    assert len({s.get("stroke-dasharray") for s in styles}) == 4


def test_corrected_entries_a_changed_chip_value_and_a_hand_that_does_not_replay(
        tmp_path: Path, hostile: Path) -> None:
    from ledger.model import events as ev
    from ledger.store.store import Ledger

    db = copy(hostile, tmp_path)
    out = tmp_path / "site"
    ok(db, "report", out)
    (session,) = (out / "sessions").iterdir()
    hand = out / "hands" / "hostile-7.html"
    assert "1 chip = 0.25 USD" in hand.read_text(encoding="utf-8")
    # the retraction first: its 94 chips back on the table make room for one more in entry 6
    ok(db, "entry", "retract", NIGHT, "7", "--reason", "<wrong> player", "--by", "floor")
    ok(db, "entry", "amend", NIGHT, "6", "99", "--reason", "counted again", "--by", "floor")
    ok(db, "session", "set", NIGHT, "--chip-value", "0.50", "--currency", "USD")
    assert written(ok(db, "report", out))[:4] == (1, 0, 1, 0)  # the chip value: the hand too
    page = session.read_text(encoding="utf-8")
    assert "1 chip = 0.50 USD" in hand.read_text(encoding="utf-8")
    assert "1 chip = 0.50 USD" in page
    cash_outs = page[page.index('id="cash-outs"'):page.index('id="payments"')]
    assert re.findall(r"<td>(\d+)</td><th scope=\"row\">.*?<span class=\"chips\">(\d+)</span>",
                      cash_outs) == [("27", "108"), ("28", "99")]  # 94 retracted, 98 amended
    assert ('Entry 6 (cash-out: <span class="name">&lt;/script&gt;</span> 98 chips) amended to'
            ' 99 chips by <span class="name">floor</span>: <q>counted again</q>') in page
    assert "retracted by <span class=\"name\">floor</span>: <q>&lt;wrong&gt; player</q>" in page
    with Ledger(db) as ledger:  # an event past the end: the stream no longer replays
        ledger.append("hostile-7", [ev.Fold(player=HOSTILE[1])], hand_id="hostile-7")
    ok(db, "report", out)
    html = hand.read_text(encoding="utf-8")
    assert ('This hand cannot be replayed: <span id="reason">event 23: the hand is already '
            'complete</span>') in html  # 22 events as imported, then the fold
    assert ('<tr><td>23</td><td class="text">fold</td><td class="message"><code>{&#34;player'
            '&#34;:&#34;&lt;/script&gt;&#34;,&#34;schema_version&#34;:1,&#34;type&#34;:&#34;'
            'fold&#34;}</code></td></tr>') in html
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<span class="kind">unreplayable</span>: hand hostile-7 cannot be replayed' in index
    assert walk(out / "index.html")[1] == []


def test_a_correction_after_the_chips_moved_on_is_noted_where_the_books_are(user, db: str,
                                                                              tmp_path: Path
                                                                              ) -> None:
    """The settled night of tests/test_correction_continuity.py (0.25 USD a chip; f2 paid
    Cy the 100 pot, both cashed out so, Ann paid Cy 12.50 USD), f2 then corrected to pay Ann
    (reason ``typo <b>``): the session page says what ``balances`` says under its table
    (the chips owed, 100 each way, 25.00 USD), what ``settle`` and ``audit`` note beside the
    settle-up and the audit, and f2's page says it under its corrections."""
    from tests.test_correction_continuity import _settled_night

    _settled_night(user)
    assert user("correct", "f2", "--replace", "4", "d dh Ann 5s5h", "--replace", "17",
                "Ann sm 5s5h", "--replace", "19", "pay Ann 100", "--reason", "typo <b>",
                "--by", "host", "--closed")[0] == 0
    words = ("hand f2 corrected after the cash-outs (seq 21, by host: typo &lt;b&gt;): Ann "
             "+100, Cy -100 chips owed in settle")
    ok(Path(db), "report", tmp_path / "site")
    page = (tmp_path / "site" / "sessions" / "fri1.html").read_text(encoding="utf-8")
    notes = re.findall(r'<section id="([a-z-]+)"|<p class="note late-correction">(.*?)</p>',
                       page)
    assert [(section or note) for section, note in notes] == [
        "players", f"Note: {words} (Ann +25.00 USD, Cy -25.00 USD), not moved at the table (net "
        "and cash-out − buy-in differ by it).", "buy-ins", "cash-outs", "payments", "settle",
        f"Note: {words}.", "findings", f"Note: {words}.", "hands"]
    assert ('<li><span class="name">Cy</span> pays <span class="name">Ann</span> 25.00 USD'
            "</li>") in page  # the settle-up counts the chips owed
    hand = (tmp_path / "site" / "hands" / "f2.html").read_text(encoding="utf-8")
    assert re.findall(r'<p class="note late-correction">(.*?)</p>', hand) == [
        f"Note: {words}: the later hands and cash-outs stand as played (the chips at the "
        "table are facts)."]
