"""The advice after a correction that a later hand's start no longer follows (cli/dispute_text.py
``downstream_warnings``) is only given when the engine takes it: the later hand, its start
corrected to the stacks the books expect, is checked first (replay/whatif.py
``follow_refusal``). When it is not legal (an all-in puts in the whole stack, which the new
start changes), the line names the action the engine refuses instead of a command that fails.
A later hand dealt on the corrected hand as it stood is given no advice at all: it stands as
played, the chips the correction moves owed in settle (README "A correction after the chips
moved on").

Worked by hand, blinds 1/2, session sat, Ann and Bob buy in 100 each:

* h1: Ann on the button; they check it down and Ann's aces win the 4-chip pot (``pay Ann 4``
  is seq 17): Ann 102, Bob 98.
* h2: Bob on the button posts 1, Ann 2; Bob moves all in to 98 (seq 6, an all-in), Ann calls;
  Bob's aces win the 196 (Ann keeps 4).

Corrected to ``pay Bob 4`` (paid otherwise than the rules, which still give Ann the pot), h1
leaves Ann 98 and Bob 102: h2, dealt on h1 as it stood (Ann 102, Bob 98), stands as played,
4 chips owed. Recorded by a slip as ``pay Bob 4`` (Ann 98, Bob 102) while h2 was dealt on the
pot pushed to Ann, and then corrected to a split (``pay Ann 2``, ``pay Bob 2``: 100 each), h2
follows neither: the advice would seat Bob with 100, and his all-in at seq 6 is then to 100,
not 98.
"""

from __future__ import annotations

import json

from tests.test_correction_continuity import H1
from tests.test_disputes import _play

H2 = ("d dh Ann 7s2d", "d dh Bob AcAd", "Bob cbr 98", "Ann cc", "d db 2c3d4h", "d db 9s",
      "d db Td", "Ann sm 7s2d", "Bob sm AcAd", "pay Bob 196", "end")
START = ("hand", "start", "--session", "sat", "--game", "NT", "--stakes", "1/2")


def _session(run, payout: str = "pay Ann 4") -> None:  # noqa: ANN001
    assert run("session", "open", "sat").exit_code == 0
    for player in ("Ann", "Bob"):
        assert run("buyin", "sat", player, "100").exit_code == 0
    assert run(*START, "--hand", "h1", "--seats", "Ann:100,Bob:100", "--button", "Ann"
               ).exit_code == 0
    _play(run, "h1", *H1[:-2], payout, "end")
    assert run(*START, "--hand", "h2", "--seats", "Ann:102,Bob:98", "--button", "Bob"
               ).exit_code == 0
    _play(run, "h2", *H2)


_PAID_WRONG = (
    "warning: paid differently from the rules: hand h1: Bob was paid 4, the rules give 0 "
    "(+4) (recorded as the table paid it; `handledger correct` puts it right)",
    "warning: paid differently from the rules: hand h1: Ann was paid 0, the rules give 4 "
    "(-4) (recorded as the table paid it; `handledger correct` puts it right)")


def test_a_later_hand_dealt_on_the_hand_as_it_stood_gets_no_advice(run) -> None:  # noqa: ANN001
    _session(run)
    out = run("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "misread", "--by",
              "host")
    assert out.output.splitlines() == [
        "corrected hand h1 (seq 19); change in net: Bob +4, Ann -4; by the rules: unchanged",
        "  warning: hand h2 started Ann with 102, on hand h1 as it stood (it left Ann 102); "
        "now it leaves Ann 98: Ann -4 chips in settle, and hand h2 stands as played (the chips "
        "at the table are facts)",
        "  warning: hand h2 started Bob with 98, on hand h1 as it stood (it left Bob 98); now "
        "it leaves Bob 102: Bob +4 chips in settle, and hand h2 stands as played (the chips at "
        "the table are facts)", *_PAID_WRONG]
    found = json.loads(run("audit", "--json").output)["discrepancies"]
    assert [d["kind"] for d in found] == ["payout", "payout"]  # h1's alone: h2 as played


def test_advice_the_engine_refuses_names_the_action_instead(run) -> None:  # noqa: ANN001
    _session(run, "pay Bob 4")  # a slip: h2 was dealt on the pot pushed to Ann
    out = run("correct", "h1", "--replace", "17", "pay Ann 2", "--insert-after", "17",
              "pay Bob 2", "--reason", "chopped", "--by", "host")
    assert out.output.splitlines()[1:4] == [
        "  warning: hand h2 starts Ann with 102, the corrected final stack is 100 (was 98)",
        "  warning: hand h2 starts Bob with 98, the corrected final stack is 100 (was 102)",
        "    its start alone cannot follow it: with Ann 100, Bob 100, hand h2 is not legal: "
        "event 6 (all_in by Bob): all-in is to 100, not 98; correct that action with its "
        "start, in one correction (`handledger whatif h2 --replace 1 JSON --replace 6 ACTION` "
        "tries it and names any later action refused then; JSON the \"event\" of `handledger "
        "export h2`'s first line with Ann 100, Bob 100)"]
    # the command the old advice gave is refused, as the line says
    start = json.loads(run("export", "h2").output.splitlines()[0])["event"]
    for seat in start["seats"]:
        seat["stack"] = 100
    refused = run("correct", "h2", "--replace", "1", json.dumps(start), "--reason", "follow",
                  "--by", "host")
    assert refused.exit_code == 2
    assert refused.output.endswith("the corrected hand is not legal: event 6 (all_in by Bob): "
                                   "all-in is to 100, not 98\n")
