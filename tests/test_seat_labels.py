"""Seat labels are not players (ledger/audit/seat_labels.py): a PHH file without ``players``
names its seats ``p1 … pN`` (FORMATS.md §1), so the ``p3`` of one hand of no session is not
the ``p3`` of another; ``balances``, ``standings``, ``settle`` and ``report`` neither list such
seats nor add them up as a player, and say so in one line; their chips count where the books
must sum to zero: in ``balances``' nets sum and, as their own row ``(seat labels)``, in
``standings``' ``(sum)``, so the two agree. In a session, whose books make them players, they
stay players.

The hands, checked by hand (blinds 1/2, stacks 100/50/200): ``a`` p1's AsKs all in against
p2's QhQd for 50 each, the board 2s3s9d Tc Ah: p1 +50, p2 -50, p3 (folded) 0; ``b`` p3
raises to 6, p1 and p2 fold: p3 +3 (his uncalled 4 back), p1 -1, p2 -2. Added up as players
(as they were) that made p1 +49, p2 -52 and p3 +3 over 2 hands. ``c`` is ``a`` naming its
players Ann, Bob and Cy: Ann +50, Bob -50, Cy 0. ``d`` is ``b`` with other cards, imported
into the session fri. ``e`` is ``a`` with other cards for p3, the table paying p1 95 of the
pot of 100 (no rake): its seats net p1 +45, p2 -50, p3 0, -5 in all."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_books_refusals import run

HEAD = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [100, 50, 200]\n")
ALL_IN = ("actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6', "
          "'p2 cbr 50', 'p1 cc', 'p1 sm AsKs', 'p2 sm QhQd', 'd db 2s3s9d', 'd db Tc', "
          "'d db Ah']\n")
STEAL = "actions = ['d dh p1 {}', 'd dh p2 {}', 'd dh p3 {}', 'p3 cbr 6', 'p1 f', 'p2 f']\n"
LABELS = ("hand(s) of no session seat a name of the form p1 … pN: outside a session such a "
          "name is a seat label, whether the file names no player or its players list gives "
          "the name (FORMATS.md §1): a label is not a player, so those seats are not listed "
          "above; ")
NOTE = f"note: 2 {LABELS}their nets count in the players' nets sum"  # balances
GRID_NOTE = f"note: 2 {LABELS}their nets are the row (seat labels), counted in (sum)"
NAMED = ["Ann                      50            0            0      1        0",
         "Cy                        0            0            0      1        0",
         "Bob                     -50            0            0      1        0"]
HEADER = "player                  net       buy-in     cash-out  hands sessions"


def _ledger(tmp_path: Path) -> Path:
    files = {"a": HEAD + ALL_IN, "b": HEAD + STEAL.format("2h3h", "4d5d", "KcKd"),
             "c": "players = ['Ann', 'Bob', 'Cy']\n" + HEAD + ALL_IN,
             "d": HEAD + STEAL.format("6c7c", "8s9s", "AhAd")}
    for name, text in files.items():
        (tmp_path / f"{name}.phh").write_text(text, encoding="utf-8")
    db = tmp_path / "l.duckdb"
    done = run(db, "import", *(str(tmp_path / f"{n}.phh") for n in "abc"))
    assert done.exit_code == 0 and done.output.startswith("imported 3 hand(s)")
    return db


def test_seat_labels_of_hands_of_no_session_are_not_players(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    assert run(db, "balances").output.splitlines() == [HEADER, *NAMED, NOTE]
    assert run(db, "standings").output.splitlines() == [
        "player        (no session)        total", "Ann                     50           50",
        "Cy                       0            0", "Bob                    -50          -50",
        "(seat labels)            0            0",  # a: +50 -50 0, b: -1 -2 +3
        "(sum)                    0            0", GRID_NOTE]
    assert run(db, "settle").output.splitlines() == [
        "Bob pays Ann 50 chips", "1 transfer(s) settle 3 player(s)"]
    body = json.loads(run(db, "balances", "--json").output)
    assert [p["player"] for p in body["players"]] == ["Ann", "Cy", "Bob"]
    assert body["seat_label_hands"] == 2
    grid = json.loads(run(db, "standings", "--json").output)
    assert [p["player"] for p in grid["players"]] == ["Ann", "Cy", "Bob"]
    assert grid["seat_label_hands"] == 2
    site = tmp_path / "site"
    assert run(db, "report", str(site)).exit_code == 0
    index = (site / "index.html").read_text(encoding="utf-8")
    assert ('<span id="seat-labels">2 hand(s) of no session seat a name of the form p1 … pN: '
            "outside a session such a name is a seat label, whether the file names no player "
            "or its players list gives the name: a label is not a player, so those seats "
            "are not listed: their nets added up are the row Seat labels, counted in the "
            "Sum.</span>") in index
    pages = [index, *(p.read_text(encoding="utf-8") for p in (site / "sessions").iterdir())]
    assert [page for page in pages if ">p3<" in page or ">p1<" in page] == []


def test_in_a_session_such_names_are_its_players(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    assert run(db, "session", "open", "fri").exit_code == 0
    assert run(db, "import", "--session", "fri", str(tmp_path / "d.phh")).exit_code == 0
    off = ("note: session fri: hands start with stacks its books did not leave (p1 +100, p2 "
           "+50, p3 +200 chips); settle goes by the hands: `handledger audit --session fri` "
           "names each (a rebuy not recorded before the hand: `handledger buyin fri PLAYER "
           "CHIPS --before HAND` counts it before that hand; or a stack typed wrong: its start "
           "replaced, `handledger correct HAND --replace 1 …`; or a hand before it not recorded "
           "(a log with hands missing): record or import it)")  # as settle says it
    assert run(db, "balances").output.splitlines() == [
        off, HEADER, NAMED[0],
        "p3                        3            0            0      1        1",
        NAMED[1], "p1                       -1            0            0      1        1",
        "p2                       -2            0            0      1        1", NAMED[2], NOTE]
    assert run(db, "balances", "--session", "fri").output.splitlines() == [
        off, HEADER, "p3                        3            0            0      1        1",
        "p1                       -1            0            0      1        1",
        "p2                       -2            0            0      1        1"]


def test_the_sum_of_standings_counts_the_seat_labels_as_balances_does(tmp_path: Path) -> None:
    """Hand e pays short by 5 (100 in the pot, 95 paid, no rake): the books are off by -5,
    every chip of it a seat label's. ``balances`` says so in its nets-sum line; ``standings``
    shows the seats' nets added up, -5 (a: 0, b: 0, e: +45 - 50 + 0), and its ``(sum)`` counts
    them: -5, not the 0 of the players listed, under it the line ``balances`` gives;
    ``--json`` and the report's grid the same."""
    db = _ledger(tmp_path)
    (tmp_path / "e.phh").write_text(HEAD + ALL_IN.replace("7c2d", "8c3d")
                                    + "winnings = [95, 0, 0]\n", encoding="utf-8")
    assert run(db, "import", str(tmp_path / "e.phh")).exit_code == 0
    note3 = NOTE.replace("note: 2 ", "note: 3 ")
    short = ("note: the players' nets sum to -5 chips, not 0: chips the table kept or paid to "
             "nobody (a rake, a hand paid short) or paid beyond the pot; `handledger audit` "
             "names the hands")
    assert run(db, "balances").output.splitlines() == [HEADER, *NAMED, short, note3]
    assert run(db, "standings").output.splitlines() == [  # the same note under its (sum)
        "player        (no session)        total", "Ann                     50           50",
        "Cy                       0            0", "Bob                    -50          -50",
        "(seat labels)           -5           -5", "(sum)                   -5           -5",
        short, GRID_NOTE.replace("note: 2 ", "note: 3 ")]
    grid = json.loads(run(db, "standings", "--json").output)
    assert grid["seat_label_nets"] == {"nets": {"": -5}, "total": -5}
    assert [p["player"] for p in grid["players"]] == ["Ann", "Cy", "Bob"]
    assert json.loads(run(db, "balances", "--json").output)["unbalanced"] == [
        {"chip_value_minor": 1, "decimals": 0, "currency": None, "net_sum": -5}]
    site = tmp_path / "site"
    assert run(db, "report", str(site)).exit_code == 0
    foot = (site / "index.html").read_text(encoding="utf-8").split("<tfoot>")[1]
    cells = [" ".join(row.split()) for row in foot.split("</tfoot>")[0].split("</tr>")[:2]]
    assert cells == [
        '<tr class="seat-labels"> <th scope="row">Seat labels</th> <td><span class="chips">-5'
        '</span></td> <td class="total"><span class="chips">-5</span></td>',
        '<tr> <th scope="row">Sum</th> <td><span class="chips">-5</span></td> <td class='
        '"total"><span class="chips">-5</span></td>']


def test_a_players_list_naming_seats_p2_and_p1_seats_labels_and_says_so(tmp_path: Path
                                                                        ) -> None:
    # b's steal with players p2, p1, Cy: Cy +3 (his uncalled 4 back), seat 1 ('p2') -1,
    # seat 2 ('p1') -2; the two names read as labels, the note counts the hand
    path = tmp_path / "mixed.phh"
    path.write_text("players = ['p2', 'p1', 'Cy']\n" + HEAD
                    + STEAL.format("2h3h", "4d5d", "KcKd"), encoding="utf-8")
    db = tmp_path / "l.duckdb"
    assert run(db, "import", str(path)).exit_code == 0
    assert run(db, "balances").output.splitlines() == [
        HEADER, "Cy                        3            0            0      1        0",
        f"note: 1 {LABELS}their nets count in the players' nets sum"]
