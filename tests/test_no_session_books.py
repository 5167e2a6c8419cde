"""The books of hands of no session (a site's hand histories imported without ``--session``):
what ``settle`` says of their rake (cli/books_text.py ``settle_text``; README, "settle") and how
many sessions the report's index counts (cli/templates/index.html); a voided hand of no session,
which no book counts (ledger/audit/books.py ``SeriesFold.add``). Real
data: the PokerStars five-card draw hand (USD, 1 chip = 0.01 USD; Player4 pays 2 chips of
rake) and, in a session ``s`` opened for them, the PLO8 hands (20 chips of rake)."""

from __future__ import annotations

import re

from tests.conftest import SHARED

TEXT = SHARED / "text"
DRAW = TEXT / "Stars-cash-5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt"
PLO8 = TEXT / "Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt"


def test_settle_names_no_session_to_open_for_the_rake_of_hands_of_none(user) -> None:  # noqa: ANN001
    assert user("import", str(DRAW))[0] == 0
    code, out, err = user("settle")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Hero pays Player3 0.20 USD", "Player4 pays Player3 0.13 USD",
        "Player4 pays the house 0.02 USD", "3 transfer(s) settle 5 player(s) and the house",
        "the house: whoever keeps the rake the table took, 0.02 USD (2 chips in hands of no "
        "session); `handledger pay SESSION PLAYER rake AMOUNT` records a payment to it in a "
        "session; hands of no session have none to name"]
    assert user("session", "open", "s", "--chip-value", "0.01", "--currency", "USD")[0] == 0
    assert user("import", "--session", "s", str(PLO8))[0] == 0
    code, out, _ = user("settle")
    assert code == 0 and "None" not in out
    # each book settled among its own players, each line naming it: Hero, owed 2.13 USD in s,
    # still pays the 0.20 USD he lost in the draw hand (no pay nets one against the other)
    assert out.splitlines()[:-1] == [
        "EricSteph261 pays tiger48475 0.01 USD in session s",
        "UnderMeSensi pays Hero 2.13 USD in session s",
        "UnderMeSensi pays the house 0.20 USD in session s",
        "diyi69 pays tiger48475 0.02 USD in session s",
        "supermeXXX pays tiger48475 0.24 USD in session s",
        "xgz520 pays tiger48475 0.01 USD in session s",
        "Hero pays Player3 0.20 USD in hands of no session",
        "Player4 pays Player3 0.13 USD in hands of no session",
        "Player4 pays the house 0.02 USD in hands of no session",
        "9 transfer(s) settle 11 player(s) and the house"]
    assert out.splitlines()[-1] == (
        "the house: whoever keeps the rake the table took, 0.22 USD (2 chips in hands of no "
        "session, 20 chips in session s); `handledger pay SESSION PLAYER rake AMOUNT` records "
        "a payment to it (hands of no session have none to name)")


def test_the_report_counts_sessions_not_the_hands_of_none(user, tmp_path) -> None:  # noqa: ANN001
    """The site's index page: the draw hand alone is of no session (0 sessions, not 1); with
    session s's hands, 1 session and the hands of none."""
    def meta() -> str:
        site = tmp_path / "site"
        assert user("report", str(site))[0] == 0
        found = re.search(r'<p class="meta">([^·]*)·', (site / "index.html").read_text())
        assert found is not None
        return found.group(1).strip()

    assert user("import", str(DRAW))[0] == 0
    assert meta() == "0 session(s) and hands of no session, 1 hand(s), 5 player(s)"
    assert user("session", "open", "s", "--chip-value", "0.01", "--currency", "USD")[0] == 0
    assert user("import", "--session", "s", str(PLO8))[0] == 0
    assert meta() == "1 session(s) and hands of no session, 16 hand(s), 11 player(s)"


def test_a_voided_hand_of_no_session_counts_in_no_book(user, tmp_path) -> None:  # noqa: ANN001
    """n1 started in no session while friday (1 chip = 0.25 USD) is open, voided as `hand
    start`'s warning advises (Bob's 2 and Ann's 1 back: it moved no chips), then f1 played in
    friday: Ann folds her small blind, Bob +1 chip (0.25 USD), Ann -1. The books hold friday
    alone: no plain-chips table of no session, no unit mix refused, nothing of no session left
    unsettled, a chart and the report of friday alone; `show` still shows n1 voided."""
    seats = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150", "--button", "Ann")
    for args in (("session", "open", "friday", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "friday", "Ann", "200"), ("buyin", "friday", "Bob", "150"),
                 ("hand", "start", "--hand", "n1", *seats),
                 ("void", "n1", "--reason", "no session", "--by", "host"),
                 ("hand", "start", "--session", "friday", "--hand", "f1", *seats),
                 ("act", "f1", "d dh Ann ????"), ("act", "f1", "d dh Bob ????"),
                 ("act", "f1", "Ann f"), ("act", "f1", "end")):
        assert user(*args)[0] == 0, args
    assert user("balances", "--money")[:2] == (0, "\n".join([
        "player                  net       buy-in     cash-out  hands sessions   (USD)",
        "Bob                    0.25        37.50         0.00      1        1",
        "Ann                   -0.25        50.00         0.00      1        1"]) + "\n")
    assert user("balances")[:2] == (0, "\n".join([
        "player                  net       buy-in     cash-out  hands sessions",
        "Bob                       1          150            0      1        1",
        "Ann                      -1          200            0      1        1"]) + "\n")
    assert user("settle")[:2] == (0, "Ann pays Bob 0.25 USD\n1 transfer(s) settle 2 player(s)\n")
    assert "hands_of_no_session" not in user("settle", "--json")[1]
    assert user("standings", "--money")[:2] == (0, "\n".join([
        "player         friday        total   (USD)",
        "Bob              0.25         0.25",
        "Ann             -0.25        -0.25",
        "(sum)            0.00         0.00"]) + "\n")
    assert user("chart", str(tmp_path / "c.svg"), "--money")[:2] == (
        0, f"wrote {tmp_path / 'c.svg'}\n")
    listed = user("session", "list")[1].splitlines()  # friday alone (its date is today's)
    assert len(listed) == 1 and listed[0].endswith("  1 hand(s)  2 buy-in(s)  open")
    site = tmp_path / "site"
    code, out, _ = user("report", str(site))
    assert (code, out) == (0, f"wrote {site / 'index.html'}: 2 hand page(s) written, 0 "
                              "unchanged; 1 session page(s) written, 0 unchanged; index "
                              "written; 0 removed\n")
    assert sorted(p.name for p in (site / "sessions").iterdir()) == ["friday.html"]
    index = (site / "index.html").read_text()
    assert "no-session" not in index
    assert '<td class="text"><span class="name">(no session)</span></td>' in index
    assert user("show", "n1")[1].splitlines()[-2:] == [
        "  4 hand_voided                  pot 0 [Bob:150 Ann:200] forced",
        "    voided: every contribution returned: Bob 2, Ann 1"]
