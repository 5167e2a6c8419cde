"""The Net and Final of a replayed hand's table (``replay``'s text, ``view``'s "What the table
paid beside the rules") are the books' (docs/BOOKS.md, "Net has one meaning everywhere"): what the
table paid a player minus what he put in, the stack he leaves with, as ``state``, ``balances``
and the audit count them; the rules' side stays in Won / Rules give / Check and a line under
the text's table, and ``replay --json`` keeps the recomputed ``net`` and ``final_stacks``.

Worked by hand: blinds 1/2, Cy (button) raises to 6, Ann (small blind, 100) shoves 100, Bob
(big blind, 150) calls, Cy folds: a pot of 100 + 100 + 6 = 206, Ann's kings win it. The table
rakes 10 and pays Ann 196. By the rules Ann wins the pot less the rake, 196 (206 unraked:
+106, final 206); as paid: 196 − 100 = +96, final 196. Bob −100 (50), Cy −6 (294) either way.
A split pot is split once the rake is taken (docs/LIVE.md, "A home game's rake"): Won, Rules give
and the pots' sentences of ``show``, ``view`` and ``replay`` are of the pot less the rake."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.copies import build_ledger, copy_ledger

ACTIONS = ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy cbr 6", "Ann cbr 100",
           "Bob cc", "Cy f", "d db 2c7h9s", "d db Kd", "d db 3c", "Ann sm AsKs", "Bob sm QhQd",
           "rake 10", "pay Ann 196", "end")
START = ("hand", "start", "--hand", "f1", "--session", "s", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:100,Bob:150,Cy:300", "--button", "Cy")


@pytest.fixture(scope="module")
def raked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session s, hand f1 played live, raked 10 and paid, built once for the module."""
    db = tmp_path_factory.mktemp("raked") / "t.duckdb"
    return build_ledger(db, [("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                             ("buyin", "s", "Bob", "150"), ("buyin", "s", "Cy", "300"), START,
                             *(("act", "f1", a) for a in ACTIONS)])


class _Payouts(HTMLParser):
    """The cells of ``table.payouts`` (header row first), as text, and its caption."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.caption = ""
        self._in = self._cell = self._caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("class", "payouts") in attrs:
            self._in = True
        elif self._in and tag == "tr":
            self.rows.append([])
        elif self._in and tag in ("th", "td"):
            self.rows[-1].append("")
            self._cell = True
        elif self._in and tag == "caption":
            self._caption = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in = False
        elif tag in ("th", "td"):
            self._cell = False
        elif tag == "caption":
            self._caption = False

    def handle_data(self, data: str) -> None:
        if self._cell:
            self.rows[-1][-1] += data
        elif self._caption:
            self.caption += data


def _payouts(page: str) -> _Payouts:
    parser = _Payouts()
    parser.feed(page)
    return parser


def test_a_raked_hand_nets_what_the_table_paid(raked: Path, run, db: str,  # noqa: ANN001
                                               tmp_path: Path) -> None:
    copy_ledger(raked, Path(db))
    state = run("state", "f1").output
    assert "stacks after the hand: Ann 196, Bob 50, Cy 294 (folded)" in state

    text = run("replay", "--hand", "f1")
    assert text.exit_code == 0  # paid the pots less the rake: as the rules give (a note)
    lines = text.output.splitlines()
    # won: the pots less the rake, as the rules split them (docs/LIVE.md, "A home game's rake")
    assert "│ Ann    │   100 │    100 │          │ 196 │  196 │  +96 │   196 │" in lines
    assert "│ Bob    │   150 │    100 │          │     │    0 │ -100 │    50 │" in lines
    assert "│ Cy     │   300 │      6 │          │     │    0 │   -6 │   294 │" in lines
    # the rules' result once the table's rake of 10 is taken is what it paid: no line for it
    assert not [line for line in lines if "by the rules" in line]

    data = json.loads(run("replay", "--hand", "f1", "--json").output)  # the rules' less the rake
    assert data["net"] == {"Ann": 96, "Bob": -100, "Cy": -6}
    assert data["final_stacks"] == {"Ann": 196, "Bob": 50, "Cy": 294}

    page = tmp_path / "f1.html"
    assert run("view", "f1", "-o", str(page)).exit_code == 0
    table = _payouts(page.read_text(encoding="utf-8"))
    assert table.rows == [
        ["Player", "Start", "Put in", "Returned", "Won", "Rules give", "Table paid", "Check",
         "Net as paid", "Final as paid"],
        ["Ann", "100", "100", "0", "196", "196", "196", "✓ agrees", "+96", "196"],
        ["Bob", "150", "100", "0", "0", "0", "0", "✓ agrees", "-100", "50"],
        ["Cy", "300", "6", "0", "0", "0", "0", "✓ agrees", "-6", "294"]]
    assert table.caption.endswith(
        "Net and Final are as the table paid (what it paid each player minus what that player "
        "put in, as the balances count it), not by the rules")

    players = {p["player"]: p for p in json.loads(run("balances", "--json").output)["players"]}
    assert (players["Ann"]["net"], players["Ann"]["rules_net"]) == (96, 96)


def test_a_hand_paid_by_the_rules_has_no_rules_line(raked: Path, run, db: str,  # noqa: ANN001
                                                    tmp_path: Path) -> None:
    """The same hand corrected to no rake, Ann paid the whole 206: net and final are the
    rules' (+106, 206), and no line under the table gives them again."""
    copy_ledger(raked, Path(db))
    assert run("correct", "f1", "--delete", "16", "--replace", "17", "pay Ann 206", "--reason",
               "no rake tonight", "--by", "host").exit_code == 0
    text = run("replay", "--hand", "f1")
    assert text.exit_code == 0, text.output
    assert "│ Ann    │   100 │    100 │          │ 206 │  206 │ +106 │   206 │" in text.output
    assert "by the rules" not in text.output
    page = tmp_path / "f1.html"
    assert run("view", "f1", "-o", str(page)).exit_code == 0
    corrected, original = (t for t in _versions(page.read_text(encoding="utf-8")))
    assert corrected[1][-2:] == ["+106", "206"] and original[1][-2:] == ["+96", "196"]


def _versions(page: str) -> list[list[list[str]]]:
    """The payout table of each version of a page, the corrected first."""
    tables = page.split('<table class="payouts">')[1:]
    return [_payouts('<table class="payouts">' + t).rows for t in tables]


def test_a_hand_in_cents_nets_what_the_table_paid(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Hand c1 of tests/test_live_cents.py (cents): Ann's 73.00 all in takes the main pot of
    219.00, Bob the side pot of 54.00; the table rakes 2.00 of Ann's: she is paid 217.00,
    +144.00 (final 217.00) as paid, and so by the rules once the rake is taken (no line)."""
    from tests.test_live_cents import _in_play

    assert run("import", str(_in_play(tmp_path))).exit_code == 0
    for action in ("rake 2.00", "pay Ann 217.00", "pay Bob 54.00", "end"):
        assert run("act", "c1", action).exit_code == 0
    lines = run("replay", "--hand", "c1").output.splitlines()
    assert "│ Ann    │  7300 │   7300 │          │ 21700 │ 21700 │ +14400 │ 21700 │" in lines
    assert not [line for line in lines if "by the rules" in line]
    page = tmp_path / "c1.html"
    assert run("view", "c1", "-o", str(page)).exit_code == 0
    ann = next(r for r in _payouts(page.read_text(encoding="utf-8")).rows if r[0] == "Ann")
    assert ann[-2:] == ["+14400 (144.00 USD)", "21700 (217.00 USD)"]
    assert ann[4:8] == ["21700 (217.00 USD)", "21700 (217.00 USD)", "21700 (217.00 USD)",
                        "✓ agrees"]  # won and given once the rake is taken: what was paid


SPLIT = ("d dh Ann KhQd", "d dh Bob KsQc", "d dh Cy 7c2d", "Cy cbr 6", "Ann cc", "Bob cc",
         "d db AsJdTh", "Ann cc", "Bob cc", "Cy cc", "d db 2c", "Ann cc", "Bob cc", "Cy cc",
         "d db 3d", "Ann cc", "Bob cc", "Cy cc", "Ann sm KhQd", "Bob sm KsQc", "Cy sm",
         "rake 1", "pay Ann 9", "pay Bob 8", "end")


def test_a_raked_split_pot_is_split_after_the_rake(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Blinds 1/2, Cy (button) raises to 6, Ann and Bob call: a pot of 18. Ann (KhQd) and Bob
    (KsQc) tie with the ace-high straight on AsJdTh 2c 3d; the table rakes 1 and splits the
    17 left: 9 to Ann (first left of the button: the odd chip), 8 to Bob, what it paid."""
    assert run("hand", "start", "--hand", "t1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100,Cy:100", "--button", "Cy").exit_code == 0
    assert run("table", "t1", input="".join(f"{a}\n" for a in SPLIT)).exit_code == 0
    pot = ("Main pot 18, 17 after the rake of 1 (Ann, Bob): Ann and Bob tie with straight, ace "
           "high; Ann 9, Bob 8; odd chip to Ann (first left of the button).")
    shown = run("show", "t1").output.splitlines()
    assert shown[-2] == f"    {pot}"  # one line: output to a pipe is never wrapped
    muck, rake = (run("show", "t1", "--at", seq).output.splitlines() for seq in ("24", "25"))
    assert muck[-1] == ("    Main pot 18 (Ann, Bob): Ann and Bob tie with straight, ace high; "
                        "9 each.")
    assert rake[-1] == f"    {pot}"  # from the rake (seq 25) on
    assert run("state", "t1").output.splitlines()[2:5] == [
        pot, "note: hand t1: the table paid 1 less than the pots and returns: the table kept 1 "
        "as rake (as recorded at the table)", "paid: Ann 9, Bob 8"]
    lines = run("replay", "--hand", "t1").output.splitlines()
    assert "│ Ann    │   100 │      6 │          │   9 │    9 │  +3 │   103 │" in lines
    assert "│ Bob    │   100 │      6 │          │   8 │    8 │  +2 │   102 │" in lines
    page = tmp_path / "t1.html"
    assert run("view", "t1", "-o", str(page)).exit_code == 0
    text = page.read_text(encoding="utf-8")
    assert _payouts(text).rows[1:] == [
        ["Ann", "100", "6", "0", "9", "9", "9", "✓ agrees", "+3", "103"],
        ["Bob", "100", "6", "0", "8", "8", "8", "✓ agrees", "+2", "102"],
        ["Cy", "100", "6", "0", "0", "0", "0", "✓ agrees", "-6", "94"]]
    assert f"<li>{pot}</li>" in text
    data = json.loads(run("replay", "--hand", "t1", "--json").output)
    assert data["net"] == {"Ann": 3, "Bob": 2, "Cy": -6}


def test_a_hand_with_no_payout_recorded_is_labelled_by_the_rules(run, tmp_path: Path,  # noqa: ANN001
                                                                 ) -> None:
    """The hand of the module without the rake and the payouts: the table recorded none, so
    Net and Final are the rules' award (Ann's kings take the 206: +106, final 206; Bob -100,
    50; Cy -6, 294), and the page's headers and caption say so, not "as paid"."""
    assert run("hand", "start", "--hand", "n1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:150,Cy:300", "--button", "Cy").exit_code == 0
    for action in (*ACTIONS[:12], "end"):
        assert run("act", "n1", action).exit_code == 0, action
    page = tmp_path / "n1.html"
    assert run("view", "n1", "-o", str(page)).exit_code == 0
    text = page.read_text(encoding="utf-8")
    table = _payouts(text)
    assert table.rows == [
        ["Player", "Start", "Put in", "Returned", "Won", "Rules give", "Table paid", "Check",
         "Net by the rules", "Final by the rules"],
        ["Ann", "100", "100", "0", "206", "206", "—", "not recorded", "+106", "206"],
        ["Bob", "150", "100", "0", "0", "0", "—", "not recorded", "-100", "50"],
        ["Cy", "300", "6", "0", "0", "0", "—", "not recorded", "-6", "294"]]
    assert table.caption.endswith(
        "Net and Final are by the rules (what the rules give each player minus what that "
        "player put in, as the balances count it): the table recorded no payouts")
    assert "as paid" not in table.caption
    assert "The table recorded no payouts for this hand." in text


#: A PHH hand with no payouts whose showdown hides Bob's cards (``sm ????``): the rules cannot
#: award the 70 (Ann 30, Bob 30, Cy's 10 folded), nor did the table.
HIDDEN = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ['Ann', 'Bob', 'Cy']
actions = [
  'd dh p1 AsAh', 'd dh p2 ????', 'd dh p3 7c2d',
  'p3 cbr 10', 'p1 cc', 'p2 cc',
  'd db Kd8s3c', 'p1 cc', 'p2 cc', 'p3 cc',
  'd db 9h', 'p1 cc', 'p2 cbr 20', 'p3 f', 'p1 cc',
  'd db 4s', 'p1 cc', 'p2 cc',
  'p1 sm AsAh', 'p2 sm ????',
]
"""


def test_a_hand_neither_paid_nor_awardable_is_labelled_not_awarded(run, tmp_path: Path,  # noqa: ANN001
                                                                    ) -> None:
    """No payout recorded and a showdown that cannot be read: Net and Final count only the
    uncalled chips returned (none here: Ann -30, final 70; Bob -30, 70; Cy -10, 90), and
    the page and `show` say the pot is not awarded, never "by the rules" nor "as paid"."""
    phh = tmp_path / "hidden.phh"
    phh.write_text(HIDDEN, encoding="utf-8")
    assert run("import", str(phh)).exit_code == 0
    hand = "phh-" + run("replay", "--json").output.split('"hand": "phh-', 1)[1].split('"')[0]
    page = tmp_path / "h.html"
    assert run("view", hand, "-o", str(page)).exit_code == 0
    table = _payouts(page.read_text(encoding="utf-8"))
    assert table.rows == [
        ["Player", "Start", "Put in", "Returned", "Won", "Rules give", "Table paid", "Check",
         "Net (not awarded)", "Final (not awarded)"],
        ["Ann", "100", "30", "0", "0", "—", "—", "not recorded", "-30", "70"],
        ["Bob", "100", "30", "0", "0", "—", "—", "not recorded", "-30", "70"],
        ["Cy", "100", "10", "0", "0", "—", "—", "not recorded", "-10", "90"]]
    assert table.caption.endswith(
        "Net and Final are not awarded: the showdown cannot be read (cards not all shown) and "
        "the table recorded no payouts, so they count only the uncalled chips returned (what "
        "was returned to each player minus what that player put in)")
    assert "by the rules" not in table.caption and "as paid" not in table.caption
    assert run("show", hand).output.splitlines()[-3:] == [
        " 24 hand_ended                   pot 70 [Ann:70 Bob:70 Cy:90] showdown",
        "    no payout recorded, and the showdown cannot be read (cards not all shown): no pot "
        "awarded; stacks count only the uncalled chips returned",
        "    Main pot 70 (Ann, Bob): cannot be checked, unknown cards for Bob."]
    assert run("state", hand).output.splitlines()[-3:] == [  # as `show` says it
        "Main pot 70 (Ann, Bob): cannot be checked, unknown cards for Bob.",
        "paid: none recorded, and the showdown cannot be read (cards not all shown): no pot "
        "awarded; the stacks after the hand count only the uncalled chips returned",
        "stacks after the hand: Ann 70, Bob 70, Cy 90 (folded)"]


#: A three-handed declare hand dealt live, checked to the end, declared and shown: Cy's kings
#: take the high half and Ann's 6-4-3-2-A the low half of the 6 (blinds 1/2, Cy calls, Ann
#: completes, Bob checks): 3 each. The table has paid Ann 6 so far and the hand is in play.
DECLARE_LINES = ("d dh Ann As6h", "d dh Bob 8d5d", "d dh Cy KhKc", "Cy cc", "Ann cc", "Bob cc",
                 "d db 2s3d4h", "Ann cc", "Bob cc", "Cy cc", "d db 7s", "Ann cc", "Bob cc",
                 "Cy cc", "d db Ks", "Ann cc", "Bob cc", "Cy cc", "Ann dcl low", "Bob dcl low",
                 "Cy dcl high", "Ann sm As6h", "Bob sm 8d5d", "Cy sm KhKc")


def _declare_in_play(run, paid: tuple[str, ...]) -> None:  # noqa: ANN001
    assert run("hand", "start", "--hand", "d1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100,Cy:100", "--button", "Cy", "--declare-options",
               "method=simultaneous").exit_code == 0
    result = run("table", "d1", input="".join(f"{a}\n" for a in (*DECLARE_LINES, *paid)))
    assert result.exit_code == 0, result.output


def test_a_hand_in_play_says_so_and_claims_no_agreement(run, tmp_path: Path) -> None:  # noqa: ANN001
    """The page of a hand in play with one payout so far said "✓ agrees" of every row and
    "✓ No discrepancy" above the note that the payouts differ, and its Final of Ann was 98
    where her seat showed 104. Now it says the hand is in play at the top and in the end
    section's heading, checks nothing yet (the note stays), and its Net so far and Stack now
    are the table's: Ann 100 − 2 + 6 = 104 (+4), Bob and Cy 100 − 2 = 98."""
    _declare_in_play(run, ("pay Ann 6",))
    page = tmp_path / "d1.html"
    assert run("view", "d1", "-o", str(page)).exit_code == 0
    text = page.read_text(encoding="utf-8")
    table = _payouts(text)
    assert table.rows == [
        ["Player", "Start", "Put in", "Returned", "Won", "Rules give", "Table paid", "Check",
         "Net so far", "Stack now"],
        ["Ann", "100", "2", "0", "3", "3", "6", "in play", "+4", "104"],
        ["Bob", "100", "2", "0", "0", "0", "0", "in play", "-2", "98"],
        ["Cy", "100", "2", "0", "3", "3", "0", "in play", "-2", "98"]]
    assert table.caption.endswith(
        "Net so far and Stack now are as the table stands (what it has paid each player so far "
        "minus what that player put in); the hand is in play, so nothing is checked yet and "
        "the balances count only what each player has put in")
    assert ('<p class="note in-play" id="in-play">In play: the hand has not ended. What the '
            "table has paid so far is not checked against the rules until it ends "
            "(<code>handledger act d1 end</code>); the balances count only what each player "
            "has put in so far.</p>") in text
    assert '<h2 id="end-title">The hand so far (in play, not ended)</h2>' in text
    assert '<p class="note">In play: no finding on the payouts until the hand ends.</p>' in text
    assert ("<li>Note: in progress (not ended), checked once it ends (`handledger act d1 end`); "
            "the payouts recorded so far differ from the rules: Ann was paid 6, the rules give "
            "3 (+3); Cy was paid 0, the rules give 3 (-3)</li>") in text
    end = text.split('<section id="end"', 1)[1].split('<section id="history"', 1)[0]
    for claim in ("agrees", "No discrepancy", "The end of the hand", "Net as paid"):
        assert claim not in end, claim
    steps = json.loads(text.split('<script type="application/json" id="hand-data">', 1)[1]
                       .split("</script>", 1)[0])["versions"]["corrected"]["steps"]
    assert [s["stack"] for s in steps[-1]["seats"]] == [104, 98, 98]  # the seats' boxes


def test_a_hand_in_play_before_any_payout_says_none_so_far(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Before any payout the page said "The table recorded no payouts" and "Net as paid -2"
    under "The end of the hand": now "so far", each at the stack the table shows (98)."""
    _declare_in_play(run, ())
    page = tmp_path / "d1.html"
    assert run("view", "d1", "-o", str(page)).exit_code == 0
    text = page.read_text(encoding="utf-8")
    assert _payouts(text).rows[1:] == [
        ["Ann", "100", "2", "0", "3", "3", "—", "in play", "-2", "98"],
        ["Bob", "100", "2", "0", "0", "0", "—", "in play", "-2", "98"],
        ["Cy", "100", "2", "0", "3", "3", "—", "in play", "-2", "98"]]
    assert '<p class="note">The table has recorded no payouts so far.</p>' in text
    assert "recorded no payouts for this hand" not in text
    assert '<h2 id="end-title">The hand so far (in play, not ended)</h2>' in text
