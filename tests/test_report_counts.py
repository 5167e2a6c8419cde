"""What the ``report`` pages count and name, as the CLI does: the audit's findings of hands of
no session counted once, a session with a hand in play not shown as owing, PokerNow players
named in the books of a session page (hand-checked)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT, SHARED
from tests.test_report import ok


def test_findings_of_hands_of_no_session_count_once(tmp_path: Path) -> None:
    """``wrong-push.phh`` is one hand of no session with two payout findings (Ann paid 0 for
    300, Bob 400 for 100): the index counts 2, not the no-session entry's 2 again."""
    db = tmp_path / "r.duckdb"
    ok(db, "import", str(ROOT / "data" / "dispute" / "wrong-push.phh"))
    ok(db, "report", str(tmp_path / "site"))
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a href="#audit">Audit (2)</a>' in index
    assert re.search(r'✗ 2 finding\(s\)</span>: <span class="kind">payout</span> 2\.', index)
    assert "finding(s)</span>: <span class=\"kind\">payout</span> 4" not in index


def test_pokernow_players_are_named_in_a_session_pages_books(tmp_path: Path) -> None:
    """``charlestudor_Input_Log_002``: A8 (id ``gE4aE_Yhc3``) bought in 50 at position 64
    and three players owe him 50 each; the page names them as ``settle`` does, the id only
    beside his name in the Players table."""
    db = tmp_path / "pn.duckdb"
    ok(db, "import", str(SHARED / "pokernow"))
    settle = ok(db, "settle", "--session", "charlestudor_Input_Log_002")
    assert settle == ('"uhuhqb""\'\'\' pays A8 50 chips\n@ovvkpfngo@@@ pays A8 50 chips\n'
                      "ksv @ ycx pays A8 50 chips\n3 transfer(s) settle 4 player(s)\n")
    ok(db, "report", str(tmp_path / "site"))
    page = (tmp_path / "site" / "sessions" / "charlestudor_Input_Log_002.html"
            ).read_text(encoding="utf-8")
    assert ('<tr><td>64</td><th scope="row"><span class="name">A8</span></th>'
            '<td class="text">buy-in</td>') in page
    assert ('<li><span class="name">@ovvkpfngo@@@</span> pays <span class="name">A8</span>'
            ' 50</li>') in page
    assert ('<li><span class="name">&#34;uhuhqb&#34;&#34;&#39;&#39;&#39;</span> pays '
            '<span class="name">A8</span> 50</li>') in page
    assert page.count("gE4aE_Yhc3") == 1  # the Players table: A8 (gE4aE_Yhc3)


def test_a_hand_in_play_is_not_money_owed(tmp_path: Path) -> None:
    """Session ``fri`` (1 chip = 0.25 USD) with hand ``f4`` begun: Bob's 1 and Cy's 2 chips
    are in its unfinished pot. ``settle`` refuses and ``standings`` notes the hand; the pages
    say so too, not "0.75 USD still owed" (Bob's 0.25 and Cy's 0.50 counted as lost)."""
    db = tmp_path / "f.duckdb"
    ok(db, "session", "open", "fri", "--chip-value", "0.25", "--currency", "USD")
    for who, chips in (("Ann", "200"), ("Bob", "150"), ("Cy", "100")):
        ok(db, "buyin", "fri", who, chips)
    ok(db, "hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
       "Ann:200,Bob:150,Cy:100", "--button", "Ann", "--session", "fri", "--hand", "f4")
    note = ("note: hand f4 of session fri is in progress (not ended): the 3 chips in its pot "
            "so far (Bob 1, Cy 2) count as put in, no payout counted until it ends; the nets "
            "are final once it ends (`handledger act f4 end`) or is voided")
    assert ok(db, "standings").endswith(f"(sum)              -3           -3\n{note}\n")
    ok(db, "report", str(tmp_path / "site"))
    page = (tmp_path / "site" / "sessions" / "fri.html").read_text(encoding="utf-8")
    assert " · open, hand f4 in progress (not ended): nothing is owed until it ends" in page
    assert "still owed" not in page
    assert f'<p class="warning">{note}</p>' in page
    assert "cannot settle: hand f4 is still in progress (not ended) in session fri" in page
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<td class="text">open, hand f4 in progress</td>' in index
    assert "USD owed" not in index
    assert ("0 when every chip is accounted for, once every hand has ended (a hand in "
            "progress holds chips in its pot: see below).") in index
    assert f'<p class="warning">{note}</p>' in index
    assert '<td class="total"><span class="chips">-3</span></td>' in index
