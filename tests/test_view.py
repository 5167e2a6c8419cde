"""The hand's view (replay/handview.py) and its page (``handledger view``, cli/cmd_view.py)
without a browser: the dispute's two versions and history, money, the page's escaping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, SHARED
from tests.copies import copy_ledger

WRONG_PUSH = DATA / "dispute" / "wrong-push.phh"
RIGHT_SPLIT = ("--replace", "23", "pay Bob 100", "--insert-after", "23", "pay Ann 300")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """wrong-push.phh imported into an empty ledger, once for the module."""
    from cli.main import cli

    db = tmp_path_factory.mktemp("imported") / "t.duckdb"
    out = CliRunner().invoke(cli, ["--db", str(db), "import", str(WRONG_PUSH)],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    return db


def test_dispute_view_original_and_corrected(run, db, imported) -> None:  # noqa: ANN001
    from ledger.store.store import Ledger
    from replay.handview import load_view

    copy_ledger(imported, Path(db))
    with Ledger(db, read_only=True) as ledger:
        plain = load_view(ledger, "dispute-1")
    assert plain.original is None and plain.history == ()
    assert {d for d, _ in plain.corrected.discrepancies} == {"Ann", "Bob"}
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "main pot to the wrong "
               "player", "--by", "floor").exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        view = load_view(ledger, "dispute-1")
    assert view.money is None and view.stakes == "no limit, blinds 1/2"
    orig, fixed = view.original, view.corrected
    assert len(orig.steps.steps) == 24 and len(fixed.steps.steps) == 25
    assert fixed.steps.corrected and not orig.steps.corrected
    rows = {p.player: (p.rules, p.paid, p.diff, p.discrepancy) for p in orig.payouts}
    assert rows == {"Ann": (300, 0, -300, True), "Bob": (100, 400, 300, True),
                    "Cy": (0, 0, 0, False)}
    assert orig.discrepancies == (
        ("Ann", "hand dispute-1: Ann was paid 0, the rules give 300 (-300)"),
        ("Bob", "hand dispute-1: Bob was paid 400, the rules give 100 (+300)"))
    assert fixed.discrepancies == ()
    assert {p.player: p.paid for p in fixed.payouts} == {"Ann": 300, "Bob": 100, "Cy": 0}
    # Net and Final as paid (the books'): Ann put in 100, Bob and Cy 150 each; as first
    # recorded Bob took all 400, as corrected Ann 300 and Bob 100 (the rules' result)
    assert {p.player: (p.net, p.final - p.start) for p in orig.payouts} == {
        "Ann": (-100, -100), "Bob": (250, 250), "Cy": (-150, -150)}
    assert {p.player: p.net for p in fixed.payouts} == {"Ann": 200, "Bob": -50, "Cy": -150}
    assert orig.explanation == fixed.explanation == (
        "Main pot 300 (Ann, Bob, Cy): Ann wins 300 with pair of aces, T-9-7 kickers.",
        "Side pot 1 100 (Bob, Cy): Bob wins 100 with pair of kings, T-9-7 kickers.")
    (amendment,) = view.history
    assert (amendment.seq, amendment.type, amendment.by, amendment.reason) == (
        25, "correction", "floor", "main pot to the wrong player")
    assert [(c.op, c.seq, c.was, c.now) for c in amendment.changes] == [
        ("replace", 23, "pay Bob 400", "pay Bob 100"),
        ("insert_after", 23, "pay Bob 400", "pay Ann 300")]
    data = json.loads(json.dumps(view.to_json()))
    assert set(data["versions"]) == {"corrected", "original"}
    assert data["history"][0]["recorded_at"] == amendment.recorded_at


def test_money_from_the_session(run, db) -> None:  # noqa: ANN001
    from ledger.store.store import Ledger
    from replay.handview import load_view

    assert run("import", str(DATA / "series" / "s01.jsonl")).exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        hand = ledger.streams(kind="hand", session="s01")[0]
        view = load_view(ledger, hand)
    assert view.session == "s01" and view.date == "2025-01-07"
    assert view.money is not None and view.money.text(150) == "37.50 USD"  # 0.25 USD a chip
    assert view.money.text(-3) == "-0.75 USD"
    # its hands came in USD (25 minor units a chip): the session's chip value is fixed
    assert run("session", "set", "s01", "--chip-value", "1.5", "--currency", "EUR").exit_code == 2
    # a session of plain chips: the latest chip value holds for the session
    assert run("session", "open", "x", "--date", "2025-01-08").exit_code == 0
    for player in ("Ann", "Bob"):
        assert run("buyin", "x", player, "100").exit_code == 0
    assert run("hand", "start", "--session", "x", "--hand", "x1", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    assert run("session", "set", "x", "--chip-value", "1.5", "--currency", "EUR").exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        view, still = load_view(ledger, "x1"), load_view(ledger, hand)
    assert view.money is not None and view.money.text(150) == "225.00 EUR"
    assert view.date == "2025-01-08"
    assert still.money is not None and still.money.text(150) == "37.50 USD"


def test_unknown_hand_is_one_line(run, db, imported) -> None:  # noqa: ANN001
    copy_ledger(imported, Path(db))
    out = run("view", "nope")
    assert out.exit_code == 2 and out.output.startswith("error: ") and "nope" in out.output


@pytest.mark.parametrize(("hand", "file"), [("dispute-1", "dispute-1.html"),
                                            ("a_b", "a_b.html"),
                                            ("a/b", "a_b~c14cddc0.html"),
                                            ("a/b c:1", "a_b_c_1~4263e407.html"),
                                            ("../up", "_._up~8c722b8a.html"),
                                            ("Ünï", "_n_~216999f2.html")])
def test_default_page_name(hand: str, file: str) -> None:
    """A plain id is its own name; any other keeps its safe characters and takes ``~`` and
    the first 8 hex digits of its SHA-256, as a report names its pages, so two ids never
    share a file (``a/b`` and ``a_b``)."""
    import hashlib

    from replay.pagefiles import default_file, page_name

    assert default_file(hand) == file == page_name(hand) + ".html"
    if "~" in file:
        assert file.endswith("~" + hashlib.sha256(hand.encode()).hexdigest()[:8] + ".html")


def test_view_of_two_live_hands_whose_names_differ_by_a_slash(run, db, tmp_path: Path,
                                                              monkeypatch) -> None:  # noqa: ANN001
    """``view a/b`` then ``view a_b`` (live hands of no session) write two pages, neither
    overwriting the other."""
    monkeypatch.chdir(tmp_path)
    for hand, seats in (("a/b", "Ann:100,Bob:100"), ("a_b", "Cy:100,Dee:100")):  # both in play
        assert run("hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2",
                   "--seats", seats, "--button", seats[:seats.index(":")]).exit_code == 0
    assert run("view", "a/b").output == "wrote a_b~c14cddc0.html\n"
    assert run("view", "a_b").output == "wrote a_b.html\n"
    assert '<span id="hand-id">a/b</span>' in (tmp_path / "a_b~c14cddc0.html").read_text()
    assert '<span id="hand-id">a_b</span>' in (tmp_path / "a_b.html").read_text()


HOSTILE = ["<script>alert(1)</script>", "</script>", 'Ann & "Bob"']


def hostile_phh(path: Path) -> Path:
    """A hand whose players are named like markup (the first wins the pot of 14 chips)."""
    names = ", ".join("'" + n + "'" for n in HOSTILE)
    path.write_text(
        "variant = 'NT'\nhand = 7\nvenue = 'hostile'\nantes = [0, 0, 0]\n"
        "blinds_or_straddles = [1, 2, 0]\nmin_bet = 2\nstarting_stacks = [100, 100, 100]\n"
        f"players = [{names}]\n"
        "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 6', 'p1 cc',"
        " 'p2 f', 'd db 2c7d9h', 'p1 cc', 'p3 cc', 'd db Td', 'p1 cc', 'p3 cc', 'd db 3s',"
        " 'p1 cc', 'p3 cc', 'p1 sm AsAh', 'p3 sm QsQh']\nwinnings = [14, 0, 0]\n",
        encoding="utf-8")
    return path


def test_embedded_json_cannot_end_its_script() -> None:
    from cli.html import embed_json

    text = embed_json({"name": "</script><script>alert(1)</script> & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert text == ('{"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)'
                    '\\u003c/script\\u003e \\u0026 \\u2028"}')
    assert json.loads(text) == {"name": "</script><script>alert(1)</script> & \u2028"}


def test_page_escapes_names_and_needs_nothing_from_outside(run, tmp_path: Path) -> None:  # noqa: ANN001
    assert run("import", str(hostile_phh(tmp_path / "hostile.phh"))).exit_code == 0
    page = tmp_path / "page.html"
    out = run("view", "hostile-7", "-o", str(page))
    assert out.exit_code == 0 and out.output == f"wrote {page}\n"
    html = page.read_text(encoding="utf-8")
    assert html.count("<script") == 2  # the data and the page's own script, nothing else
    assert "alert(1)</script>" not in html and "<script>alert" not in html
    assert '<span class="seat-name">&lt;script&gt;alert(1)&lt;/script&gt;</span>' in html
    assert '<span class="seat-name">Ann &amp; &#34;Bob&#34;</span>' in html
    assert "http://" not in html and "https://" not in html and " src=" not in html
    assert "<link" not in html and "@import" not in html


def test_view_writes_hand_html_by_default(run, db, tmp_path: Path, monkeypatch,
                                         imported) -> None:  # noqa: ANN001
    copy_ledger(imported, Path(db))
    monkeypatch.chdir(tmp_path)
    assert run("view", "dispute-1").output == "wrote dispute-1.html\n"
    html = (tmp_path / "dispute-1.html").read_text(encoding="utf-8")
    assert '✗ differs by <span class="chips">-300</span>' in html
    assert '✗ differs by <span class="chips">+300</span>' in html
    assert "Main pot 300 (Ann, Bob, Cy): Ann wins 300 with pair of aces, T-9-7 kickers." in html
    assert 'class="version"' not in html  # never corrected: no switch


def test_dash_writes_the_page_to_standard_output(run, db, tmp_path: Path, monkeypatch,
                                                imported) -> None:  # noqa: ANN001
    """``-o -`` is standard output, as for ``export``: the page, no ``wrote`` line, no file
    named ``-``; the same page as the file."""
    copy_ledger(imported, Path(db))
    monkeypatch.chdir(tmp_path)
    out = run("view", "dispute-1", "-o", "-")
    assert out.exit_code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["t.duckdb"]
    assert run("view", "dispute-1").output == "wrote dispute-1.html\n"
    assert out.output == (tmp_path / "dispute-1.html").read_text(encoding="utf-8")
    assert out.output.startswith("<!DOCTYPE html>\n") and out.output.endswith("</html>")


def test_a_page_that_cannot_be_written_is_one_line(run, db, tmp_path: Path, imported) -> None:  # noqa: ANN001
    copy_ledger(imported, Path(db))
    out = run("view", "dispute-1", "-o", str(tmp_path / "missing" / "page.html"))
    assert out.exit_code == 2
    assert out.output == (f"error: cannot write {tmp_path / 'missing' / 'page.html'}: "
                          "No such file or directory\n")
    assert not (tmp_path / "missing").exists()


def cents_phh(path: Path) -> Path:
    """A hand kept in dollars and cents: blinds 0.50/1.00, stacks 100.25, 100 and 100 (Ann,
    Bob, Cy); Cy raises to 2.50, Ann calls, Bob folds, Ann's aces take the pot of 6.00."""
    path.write_text(
        "variant = 'NT'\nhand = 1\nvenue = 'cents'\nantes = [0, 0, 0]\n"
        "blinds_or_straddles = [0.5, 1, 0]\nmin_bet = 1\n"
        "starting_stacks = [100.25, 100, 100]\nplayers = ['Ann', 'Bob', 'Cy']\n"
        "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 2.50', 'p1 cc',"
        " 'p2 f', 'd db 2c7d9h', 'p1 cc', 'p3 cc', 'd db Td', 'p1 cc', 'p3 cc', 'd db 3s',"
        " 'p1 cc', 'p3 cc', 'p1 sm AsAh', 'p3 sm QsQh']\nwinnings = [6, 0, 0]\n",
        encoding="utf-8")
    return path


def test_a_hand_in_cents_says_its_unit_on_the_page(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Its stacks and pots are counted in cents (10025, blinds 50/100) while its events are
    written as its notation writes them (``posts the small blind of 0.50``): the page says
    so in the line ``show`` prints, once, under its head."""
    assert run("import", str(cents_phh(tmp_path / "cents.phh"))).exit_code == 0
    page = tmp_path / "page.html"
    assert run("view", "cents-1", "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    note = ("(stacks, bets, pots and payouts in the hand&#39;s smallest unit, 100 = 1.00; "
            "actions as its notation writes them)")
    assert html.count(f'<p class="meta unit-note">{note}</p>') == 1
    assert "no limit, blinds 50/100" in html and "amounts in chips of 0.01" in html
    assert '<span class="chips">10025</span>' in html  # Ann's stack: 100.25
    assert "Ann posts the small blind of 0.50" in html and "Cy raises to 2.50" in html
    # a hand of whole chips has no such line
    assert run("import", str(hostile_phh(tmp_path / "hostile.phh"))).exit_code == 0
    assert run("view", "hostile-7", "-o", str(page)).exit_code == 0
    plain = page.read_text(encoding="utf-8")
    assert "smallest unit" not in plain and "· amounts in chips  </p>" in plain


def test_a_hand_paid_its_pots_less_the_rake_is_no_discrepancy(run, db, tmp_path: Path) -> None:  # noqa: ANN001
    """PokerStars hand 35874004239 (seven-card stud, cents): trs2758's bet of 8 is not
    called (returned), he takes the pot of 67 less the site's rake of 3, 64, and is paid
    64 + 8 = 72 (Rules give 72: ✓). ``replay``, ``show`` and the audit take it as paid as the
    rules give, the rake said in a note (ledger/audit/rake_count.py ``rake_alone``); the page
    says so too: no discrepancy, the rake kept a note."""
    from ledger.store.store import Ledger
    from replay.handview import load_view

    stud = SHARED / "text" / "Stars-cash-7-Stud-USD-0.04-0.08-200911.txt"
    assert run("import", str(stud)).exit_code == 0
    hand = "PokerStars-35874004239"
    kept = (f"hand {hand}: the table paid 3 less than the pots and returns: the site kept 3 "
            "as rake (as the file records)")
    shown = run("show", hand).output.splitlines()  # the hand's own page: no "hand X:"
    assert shown[-1] == f"    note: {kept.removeprefix(f'hand {hand}: ')}"
    with Ledger(db, read_only=True) as ledger:
        version = load_view(ledger, hand).corrected
    assert version.discrepancies == () and version.notes == (kept,)
    assert [(p.player, p.rules, p.paid, p.diff, p.discrepancy) for p in version.payouts
            if p.player == "trs2758"] == [("trs2758", 72, 72, 0, False)]
    page = tmp_path / "raked.html"
    assert run("view", hand, "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "✗ Discrepancy" not in html and '<tr class="discrepancy"' not in html
    assert "✓ No discrepancy: the table paid what the rules give." in html
    assert f"<li>Note: {kept}</li>" in html


def test_a_showdown_the_rules_cannot_check_is_no_clean_hand(run, tmp_path: Path) -> None:  # noqa: ANN001
    """PokerNow hand #21 of valakuzhyk: gaxdqwmwksve's cards are never shown, so who wins the
    main pot of 330 (Hznmh#9009, Aab Ovwsi, gaxdqwmwksve) is not known; Hznmh#9009's flush
    wins side pot 1 of 2320, and the table paid him 2650 = 330 + 2320, the main pot whole to
    one of its players: a legal split. The page says so in ``whatif``'s words
    (replay.unknown_rules ``not_known``, ``verdict``; tests/test_whatif_unknown_cards.py),
    never that the rules give what it paid."""
    from tests.conftest import SHARED

    hand = "pn-valakuzhyk_07_21_2022_log1-21-165843907408700"
    assert run("import", str(SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv")
               ).exit_code == 0
    page = tmp_path / "v.html"
    assert run("view", hand, "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "No discrepancy" not in html
    assert ('<p class="note">By the rules: not known for Hznmh#9009, Aab Ovwsi, gaxdqwmwksve '
            "(showdown not verifiable: hole cards unknown); the payouts are a legal split of "
            "the pots.</p>") in html


def test_the_hand_page_labels_each_write_by_what_the_host_did(
        run, db, tmp_path: Path, imported) -> None:  # noqa: ANN001
    """The hand page called an undo a "Correction" where the session page and the index say
    "undone" (replay/amendment_kinds.py); a void of an ended hand is its correction (dropping
    the end) and the ``hand_voided``, both rows of the void."""
    import html
    import re

    copy_ledger(imported, Path(db))
    for args in (("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "main pot to the wrong "
                  "player"), ("undo", "dispute-1"), ("void", "dispute-1", "--reason", "misdeal")):
        assert run(*args, "--by", "floor").exit_code == 0, args
    page = tmp_path / "d.html"
    assert run("view", "dispute-1", "-o", str(page)).exit_code == 0
    heads = re.findall(r'<li class="amendment">\s*<p>(.*?)</p>', page.read_text(), flags=re.S)
    words = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", h)).split()) for h in heads]
    assert [re.sub(r" at \S+ \S+ UTC:", " at T:", w) for w in words] == [
        "Corrected (seq 25, ledger position 25) by floor at T: main pot to the wrong player",
        "Undone (seq 26, ledger position 26) by floor at T: undo of the correction at seq 25 "
        "(by floor: main pot to the wrong player)",
        "Voided (seq 27, ledger position 27) by floor at T: void: misdeal",
        "Voided (seq 28, ledger position 28) by floor at T: misdeal"]


def test_the_page_lists_every_event_without_script_and_names_discards(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Five-card draw (RULES.md §4.2): Bob discards 7s 2d, Cy stands pat, Ann throws one
    card unseen. A page read without JavaScript lists every event (its ``noscript`` line says
    they are below), and a discard names its cards where they are known, as a deal does."""
    import re

    assert run("import", str(DATA / "hands" / "five-card-draw.phh")).exit_code == 0
    hand = "phh-90f35dda9542"  # its id by content (tests/test_steps.py)
    page = tmp_path / "d.html"
    assert run("view", hand, "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert ("<noscript><p class=\"warning\">Stepping through the hand needs JavaScript; every "
            "event, the end of the hand and its corrections are below.</p></noscript>") in html
    found = re.search(r'<ol id="events">(.*?)</ol>', html, re.S)
    assert found is not None
    events = re.findall(r"<li>(.*?)</li>", found.group(1))
    data = json.loads(re.search(r'id="hand-data">(.*?)</script>', html, re.S).group(1))
    steps = data["versions"]["corrected"]["steps"]
    assert len(events) == len(steps) == 24
    assert events[10:14] == ["11  p1 sd 7s2d — Bob discards 7s 2d",
                             "12  p2 sd — Cy stands pat",
                             "13  p3 sd 3c — Ann discards 3c",
                             "14  d dh p1 Jh5s — Bob is dealt Jh 5s"]
    # after Bob's discard the dealer deals his 2 replacement cards next, as `state` says,
    # though Cy and Ann have still to discard: nobody is to act (RULES.md §4.2)
    assert [(s["to_act"], s["dealer_next"]) for s in steps[9:15]] == [
        ("Bob", ""), (None, "Bob 2 replacement cards"), (None, "Bob 2 replacement cards"),
        (None, "Bob 2 replacement cards"), (None, "Ann 1 replacement card"), ("Bob", "")]


def _outside_needs_js(page: str) -> list[str]:
    """The ids and classes of the elements of ``page`` not inside one of class
    ``needs-js`` (nor of it), in page order: what a browser without JavaScript shows."""
    from html.parser import HTMLParser

    void = {"meta", "link", "input", "br", "img", "hr", "source", "wbr"}

    class Shown(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[bool] = []  # per open element: inside needs-js
            self.shown: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            hidden = (bool(self.stack) and self.stack[-1]) or "needs-js" in (
                a.get("class") or "").split()
            if not hidden:
                if a.get("id"):
                    self.shown.append(f"#{a['id']}")
                self.shown.extend(f".{c}" for c in (a.get("class") or "").split())
            if tag not in void:
                self.stack.append(hidden)

        def handle_endtag(self, tag: str) -> None:
            if tag not in void and self.stack:
                self.stack.pop()

    parser = Shown()
    parser.feed(page)
    return parser.shown


def test_without_script_the_page_hides_what_only_the_script_fills(run, tmp_path: Path) -> None:  # noqa: ANN001
    """The dispute, corrected once: read without JavaScript, the page shows no step buttons,
    slider, key hint, empty ``After step :`` panel, empty pots and players tables, seats with
    no stacks, nor version buttons that do nothing: each is inside an element of class
    ``needs-js``, which hand.css hides until hand.js marks ``<html>`` with ``js``. What the
    page writes itself stays shown: the events, the end of the hand, the history."""
    assert run("import", str(WRONG_PUSH)).exit_code == 0
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "split",
               "--by", "floor").exit_code == 0
    page = tmp_path / "d.html"
    assert run("view", "dispute-1", "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "html:not(.js) .needs-js { display: none !important; }" in html
    assert 'document.documentElement.classList.add("js");' in html
    shown = _outside_needs_js(html)
    for gone in ("#table", "#felt", "#seat-0", ".seat-stack", "#controls", "#first", "#prev",
                 "#next", "#last", "#slider", "#step-label", ".hint", "#now", "#now-seq",
                 "#pots", "#players", "#turn", "#version-corrected", "#version-original",
                 "#versions-label"):
        assert gone not in shown, gone
    for kept in ("#events", "#end", ".explanation", ".payouts", "#history", ".versions-note"):
        assert kept in shown, kept


def test_a_hand_corrected_after_the_next_was_dealt_says_so_on_its_page(run, tmp_path: Path
                                                                         ) -> None:  # noqa: ANN001
    """h1 corrected to pay Bob after h2 was dealt on it as played (tests/test_correction_
    continuity.py): h1's page notes the 4 chips owed each way as ``audit`` does; h2's page,
    a hand never corrected, has no such note."""
    import re

    from tests.test_correction_continuity import _two_hands

    _two_hands(run)
    assert run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "wrong", "--by",
               "f").exit_code == 0
    for hand in ("h1", "h2"):
        assert run("view", hand, "-o", str(tmp_path / f"{hand}.html")).exit_code == 0
    notes = re.compile(r'<p class="note late-correction">(.*?)</p>')
    assert notes.findall((tmp_path / "h1.html").read_text(encoding="utf-8")) == [
        "Note: hand h1 corrected after hand h2 was dealt (seq 19, by f: wrong): Ann -4, Bob +4 "
        "chips owed in settle: the later hands and cash-outs stand as played (the chips at the "
        "table are facts)."]
    assert notes.findall((tmp_path / "h2.html").read_text(encoding="utf-8")) == []
