"""Messages that are true and in poker's terms: a what-if says "still paid differently" only of
a hand paid differently before the change; no Python ``None`` reaches a user (a draw waiting
for its replacement cards, a stud hand's button); a refusal says "bet" when nobody has bet this
round, "raise" facing a bet and "complete" raising the bring-in to the small bet (RULES.md
§4.1); ``--declare-options`` names its keys and values and refuses an empty list; names as
typed in ``history``; an export into a folder that takes none says so; key names are ASCII;
``chart`` says in one line which names no installed font draws, never a Python warning."""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import pytest

from tests.test_live_table import one_shot

DECLARE = ("hand", "start", "--hand", "d1", "--game", "NT", "--stakes", "1/2", "--seats",
           "A:100,B:100", "--button", "A", "--declare-options", "method=simultaneous")
# A holds Ah5s (a wheel, 5-4-3-2-A, on 2c 3d 4h 9s Kd), B KsKh (three kings); checked down;
# A declares low (seq 17), B high: the pot of 4 is split, 2 each
DECLARED = ("d dh A Ah5s", "d dh B KsKh", "A cc", "B cc", "d db 2c3d4h", "B cc", "A cc",
            "d db 9s", "B cc", "A cc", "d db Kd", "B cc", "A cc", "A dcl low", "B dcl high",
            "A sm Ah5s", "B sm KsKh")


def _acts(db: Path, hand: str, *actions: str) -> None:
    for action in actions:
        code, _, err = one_shot(db, "act", hand, action)
        assert code == 0, (action, err)


def _refused(db: Path, hand: str, action: str) -> str:
    code, out, err = one_shot(db, "act", hand, action)
    assert (code, out) == (2, ""), err
    return err


def _whatif_lines(db: Path, *change: str) -> list[str]:
    code, out, err = one_shot(db, "whatif", "d1", *change)
    assert code == 0, err
    return [line for line in out.splitlines() if "paid differently" in line]


def test_whatif_of_a_hand_paid_right_says_would_be(tmp_path: Path) -> None:
    """Paid 2 and 2 as the rules give; had A declared high his wheel (a straight) would
    beat the three kings for the whole 4: B would be paid 2 too much, A 2 too little."""
    db = tmp_path / "w.duckdb"
    assert one_shot(db, *DECLARE)[0] == 0
    _acts(db, "d1", *DECLARED, "pay A 2", "pay B 2", "end")
    assert _whatif_lines(db, "--replace", "17", "A dcl high") == [
        "  would be paid differently: hand d1: B was paid 2, the rules give 0 (+2)",
        "  would be paid differently: hand d1: A was paid 2, the rules give 4 (-2)"]


def test_whatif_of_a_hand_paid_differently_says_still(tmp_path: Path) -> None:
    """Paid A 1, B 3 where the rules split 2 and 2: after the change the rules give A all 4,
    and both were paid differently before it."""
    db = tmp_path / "w.duckdb"
    assert one_shot(db, *DECLARE)[0] == 0
    _acts(db, "d1", *DECLARED, "pay A 1", "pay B 3", "end")
    assert _whatif_lines(db, "--replace", "17", "A dcl high") == [
        "  still paid differently: hand d1: B was paid 3, the rules give 0 (+3)",
        "  still paid differently: hand d1: A was paid 1, the rules give 4 (-3)"]
    assert _whatif_lines(db, "--replace", "21", "pay A 2", "--replace", "22", "pay B 2") == []


def test_a_discard_while_replacement_cards_are_owed_names_them(tmp_path: Path) -> None:
    """Five-card draw: B and A have discarded; B's one replacement card is dealt next, then
    A's three, and nobody draws (never ``None draws now``)."""
    db = tmp_path / "g.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "g1", "--game", "F5D", "--stakes", "1/2",
                    "--small-bet", "2", "--big-bet", "4", "--seats", "A:100,B:100",
                    "--button", "A")[0] == 0
    _acts(db, "g1", "d dh B 2c3c4c5c7d", "d dh A AsAhKdQd9s", "A cc", "B cc", "B sd 7d",
          "A sd KdQd9s")
    assert _refused(db, "g1", "B sd") == (
        "error: hand g1, action 'B sd': out of turn: nobody draws now, not B: B's replacement "
        "card is dealt next; now: phase draw, next: d dh B CARDS (1 card drawn)\n")
    _acts(db, "g1", "d dh B 6c")
    assert _refused(db, "g1", "B sd") == (
        "error: hand g1, action 'B sd': out of turn: nobody draws now, not B: A's 3 "
        "replacement cards are dealt next; now: phase draw, next: d dh A CARDS (3 cards "
        "drawn)\n")


def test_a_deal_in_a_draw_to_a_player_owed_no_cards_says_why(tmp_path: Path) -> None:
    """Deuce-to-seven triple draw (RULES.md §4.2): Dan folds, Eli stands pat, Flo draws one;
    a replacement dealt to a player owed none names why (folded, stood pat, not discarded
    yet, drawn already) and who draws now or whose replacements come next."""
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "t", "--game", "F2L3D", "--stakes", "1/2",
                    "--small-bet", "2", "--big-bet", "4", "--seats", "Dan:50,Eli:50,Flo:50",
                    "--button", "Dan")[0] == 0
    _acts(db, "t", "d dh Eli ??????????", "d dh Flo ??????????", "d dh Dan ??????????",
          "Dan f", "Eli cc", "Flo cc", "Eli sd")
    now = "now: phase draw, Flo to act: Flo sd CARDS (discard) or Flo sd (stand pat)\n"
    assert _refused(db, "t", "d dh Eli 9h") == (
        f"error: hand t, action 'd dh Eli 9h': Eli stood pat; Flo draws now; {now}")
    assert _refused(db, "t", "d dh Dan 9h") == (
        f"error: hand t, action 'd dh Dan 9h': Dan has folded; Flo draws now; {now}")
    assert _refused(db, "t", "d dh Flo 9h") == (
        f"error: hand t, action 'd dh Flo 9h': Flo is dealt cards before discarding; {now}")
    _acts(db, "t", "Flo sd ??")
    assert _refused(db, "t", "d dh Eli 9h") == (
        "error: hand t, action 'd dh Eli 9h': Eli stood pat; Flo's replacement card is dealt "
        "next; now: phase draw, next: d dh Flo CARDS (1 card drawn)\n")
    # the second draw: Eli draws one and is dealt it; a second card for him is refused
    _acts(db, "t", "d dh Flo 9h", "Eli cc", "Flo cc", "Eli sd ??", "d dh Eli 8h")
    assert _refused(db, "t", "d dh Eli 7h") == (
        f"error: hand t, action 'd dh Eli 7h': Eli has drawn already; Flo draws now; {now}")


STUD = ("hand", "start", "--hand", "g2", "--game", "F7S", "--antes", "1", "--bring-in", "1",
        "--small-bet", "2", "--big-bet", "4", "--seats", "A:100,B:100")


def test_show_of_a_stud_hand_names_no_button(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    assert one_shot(db, *STUD)[0] == 0
    code, out, _ = one_shot(db, "show", "g2")
    assert code == 0
    assert out.splitlines()[0] == "hand g2: F7S; seats A 100, B 100"


def test_an_opening_bet_is_a_bet_and_one_facing_a_bet_a_raise(tmp_path: Path) -> None:
    db = tmp_path / "z.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "z", "--game", "NT", "--stakes", "1/2",
                    "--seats", "A:100,B:100,C:100", "--button", "C")[0] == 0
    _acts(db, "z", "d dh A ????", "d dh B ????", "d dh C ????")
    assert _refused(db, "z", "C cbr 3") == (
        "error: hand z, action 'C cbr 3': raise to 3 is below the minimum 4; now: C to act: "
        "to call 2, raise to 4..100\n")  # the big blind is a bet
    _acts(db, "z", "C cc", "A cc", "B cc", "d db 2c3d4h")
    assert _refused(db, "z", "A cbr 1") == (
        "error: hand z, action 'A cbr 1': bet to 1 is below the minimum 2; now: A to act: "
        "check, bet to 2..98\n")
    assert _refused(db, "z", "A cbr 99") == (
        "error: hand z, action 'A cbr 99': A cannot bet to 99: only 98 behind, so at most to "
        "98 (all in); now: A to act: check, bet to 2..98\n")
    _acts(db, "z", "A cbr 2")
    assert _refused(db, "z", "B cbr 500") == (
        "error: hand z, action 'B cbr 500': B cannot raise to 500: only 98 behind, so at most "
        "to 98 (all in); now: B to act: to call 2, raise to 4..98\n")
    assert _refused(db, "z", "B cbr 3") == (
        "error: hand z, action 'B cbr 3': raise to 3 is below the minimum 4; now: B to act: "
        "to call 2, raise to 4..98\n")


def test_stud_completes_the_bring_in(tmp_path: Path) -> None:
    """Antes 1, bring-in 1, small bet 2: A's 2c is low and brings it in; raising the 1 to 2
    is completing (RULES.md §4.1), and only then is the next bet a raise."""
    db = tmp_path / "s.duckdb"
    assert one_shot(db, *STUD)[0] == 0
    _acts(db, "g2", "d dh A ????2c", "d dh B ????Kd")
    assert _refused(db, "g2", "A cbr 3") == (
        "error: hand g2, action 'A cbr 3': complete to 3 is above the maximum 2; now: A to "
        "act: bring in 1 (pb), complete to 2..2\n")
    _acts(db, "g2", "A pb")
    assert _refused(db, "g2", "B cbr 3") == (
        "error: hand g2, action 'B cbr 3': complete to 3 is above the maximum 2; now: B to "
        "act: to call 1, complete to 2..2\n")
    assert _refused(db, "g2", "B cbr 500") == (
        "error: hand g2, action 'B cbr 500': B cannot complete to 500: only 99 behind, so at "
        "most to 99 (all in); now: B to act: to call 1, complete to 2..2\n")
    _acts(db, "g2", "B cbr 2")
    assert _refused(db, "g2", "A cbr 5") == (
        "error: hand g2, action 'A cbr 5': raise to 5 is above the maximum 4; now: A to act: "
        "to call 1, raise to 4..4\n")


def test_a_phh_import_says_bet_for_an_opening_bet(tmp_path: Path) -> None:
    phh = tmp_path / "bet.phh"
    phh.write_text(
        "variant = 'NT'\nante_trimming_status = false\nantes = [0, 0]\n"
        "blinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cc', 'p1 cc', 'd db 2c7h9s',"
        " 'p1 cbr 1']\n", encoding="utf-8")
    code, _, err = one_shot(tmp_path / "p.duckdb", "import", str(phh))
    assert code == 2
    assert err == (f"error: {phh}:7, hand phh-233a70d8e497, action 'p1 cbr 1': bet to 1 is "
                   "below the minimum 2\n")


START = ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "A:100,B:100",
         "--button", "A")
KEYS = ("method, bet_after_declare, swing_ties, failed_swing_share_goes_to, "
        "no_eligible_winner, swing_failure_scope, low_method, low_qualifier, "
        "odd_chip_between_halves")


@pytest.mark.parametrize(("given", "said"), [
    ("foo=bar", f"--declare-options: 'foo' is not a declare option: the keys are {KEYS} "
                "(RULES.md §5)"),
    ("", f"--declare-options '' gives no option: give KEY=VALUE items ({KEYS}; "
         "\"method=simultaneous\" alone for the defaults), or leave it out for a cards-speak "
         "hand"),
    (" , ", f"--declare-options ' , ' gives no option: give KEY=VALUE items ({KEYS}; "
            "\"method=simultaneous\" alone for the defaults), or leave it out for a "
            "cards-speak hand"),
    ("method=bogus", "--declare-options: method takes simultaneous or in_turn, not 'bogus'"),
    ("swing_ties=yes", "--declare-options: swing_ties takes not_allowed, allowed or "
                       "keep_clean_half, not 'yes'"),
    ("bet_after_declare=1", "--declare-options: bet_after_declare takes true or false, not "
                            "'1'"),
])
def test_declare_options_name_the_keys_and_values(tmp_path: Path, given: str,
                                                   said: str) -> None:
    db = tmp_path / "d.duckdb"
    assert one_shot(db, *START, "--declare-options", given) == (2, "", f"error: {said}\n")
    assert not db.exists()


def test_declare_options_take_every_value_they_name(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    options = "bet_after_declare=true,low_method=2-7,low_qualifier=8_or_better"
    assert one_shot(db, *START, "--hand", "d", "--declare-options", options)[:2] == (0, "d\n")


def test_history_shows_names_as_typed(tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Zoë:100,李雷:100", "--button", "Zoë")[0] == 0
    code, out, _ = one_shot(db, "history", "h1")
    assert code == 0
    lines = [re.sub(r"^ +\d+ @\d+ +\S+ ", "", line) for line in out.splitlines()[1:4]]
    assert lines == [
        'hand_started {"hand":"h1","game":"NT","button":"Zoë","session":null}',
        'forced_bet {"player":"李雷","kind":"big_blind","amount":2}',
        'forced_bet {"player":"Zoë","kind":"small_blind","amount":1}']


def test_an_export_into_a_folder_that_takes_none_says_so(tmp_path: Path) -> None:
    db = tmp_path / "e.duckdb"
    assert one_shot(db, *START, "--hand", "e")[0] == 0
    code, out, err = one_shot(db, "export", "--format", "csv", "/proc/nope")
    assert (code, out, err) == (2, "", "error: cannot make folder /proc/nope: /proc takes no "
                                       "new folder (the system says: No such file or "
                                       "directory)\n")


def test_a_key_name_is_ascii(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    assert one_shot(tmp_path / "k.duckdb", "key", "new", "Zoë") == (
        2, "", "error: key name 'Zoë': use 1-40 ASCII letters (A-Z, a-z), digits, '_', '.' or "
               "'-' (a letter or digit first)\n")


# chart: a name no installed font draws (an Egyptian hieroglyph), and one DejaVu Sans lacks
# that a font matplotlib ships has (MATHEMATICAL SCRIPT CAPITAL A: DejaVu Math TeX Gyre, STIX)
NOWHERE = "\U00013000a"
ELSEWHERE = "\U0001d49cnn"


def test_chart_draws_a_name_in_a_font_that_has_it() -> None:
    from cli.chart import _STYLE, _pyplot, figure, fonts_for

    families, undrawable = fonts_for([ELSEWHERE, "Bob"])
    assert (families[0], len(families), undrawable) == ("DejaVu Sans", 2, [])
    assert fonts_for(["Zoë", "Bob"]) == (["DejaVu Sans"], [])
    assert fonts_for([NOWHERE, "Bob"]) == (["DejaVu Sans"], [NOWHERE])
    plt = _pyplot()
    with plt.rc_context({**_STYLE, "font.family": families}), warnings.catch_warnings():
        warnings.simplefilter("error")  # a glyph missing from every font would raise here
        fig = figure([(1, ELSEWHERE, 5), (1, "Bob", -5)], "chips")
        try:
            fig.savefig(io.BytesIO(), format="png")
        finally:
            plt.close(fig)


def test_chart_says_once_which_names_it_cannot_draw(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "c1", "--game", "NT", "--stakes", "1/2",
                    "--seats", f"{NOWHERE}:100,{ELSEWHERE}:100",
                    "--button", NOWHERE)[0] == 0
    _acts(db, "c1", f"d dh {ELSEWHERE} ????", f"d dh {NOWHERE} ????", f"{NOWHERE} f",
          f"pay {ELSEWHERE} 3", "end")
    out = tmp_path / "c.png"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing left to Python's warnings
        code, said, err = one_shot(db, "chart", str(out))
    assert (code, said) == (0, f"wrote {out}\n")
    assert err == (f"warning: no installed font has the letters of {NOWHERE}: {out} draws a "
                   "box for each (an SVG chart keeps the names as text: `handledger chart "
                   "chart.svg`)\n")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, said, err = one_shot(db, "chart", str(tmp_path / "c.svg"))
    assert (code, err) == (0, "")
