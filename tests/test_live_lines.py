"""What ``act`` and ``state`` say at the table. When nobody is to bet, what the hand waits
for, in the notation ``act`` takes: whose hole cards next and how many, the board cards of the
street (and of which run), a draw's discard and its replacements, a declaration in turn or at
once, the showdown and its payouts (RULES.md §3.2-3.4, §4; FORMATS.md §1); a refused action
quotes the same line (a show before every player has declared names who is still to).
Stud's bring-in and completion (§4.1); a second declaration; a hand id of the session-book
form."""

from __future__ import annotations

from ledger.store.store import Ledger

HOLE = "(4 cards, ?? for each unseen card)"


def _acts(user, hand: str, actions: list[str]) -> list[str]:  # noqa: ANN001
    lines = []
    for action in actions:
        code, out, err = user("act", hand, action)
        assert (code, err) == (0, ""), (action, err)
        lines.append(out.rstrip("\n").split("; ", 1)[1])
    return lines


def test_a_triple_draw_names_the_deals_the_discards_and_the_replacements(user,  # noqa: ANN001
                                                                          db: str) -> None:
    Ledger(db).close()
    assert user("hand", "start", "--hand", "d1", "--game", "F2L3D", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100",
                "--button", "Ann")[0] == 0
    # heads-up, Ann on the button: Bob (p1) is dealt first, Ann acts first before the draw
    assert user("state", "d1")[1].splitlines()[1] == (
        "phase deal, next: d dh Bob CARDS (5 cards, ?? for each unseen card); then Ann")
    assert _acts(user, "d1", ["d dh Bob ??????????", "d dh Ann ??????????", "Ann cc",
                              "Bob cc", "Bob sd", "Ann sd ????", "d dh Ann ????"]) == [
        "phase deal, next: d dh Ann CARDS (5 cards, ?? for each unseen card)",
        "Ann to act: to call 1, raise to 4..4",
        "Bob to act: check, raise to 4..4",
        "phase draw, Bob to act: Bob sd CARDS (discard) or Bob sd (stand pat)",
        "phase draw, Ann to act: Ann sd CARDS (discard) or Ann sd (stand pat)",
        "phase draw, next: d dh Ann CARDS (2 cards drawn)",
        "Bob to act: check, bet to 2..2"]
    code, out, err = user("act", "d1", "d dh Ann 2c")
    assert (code, out) == (2, "")
    assert err == ("error: hand d1, action 'd dh Ann 2c': hole cards dealt during the bet "
                   "phase; now: Bob to act: check, bet to 2..2\n")


def test_a_declaration_in_turn_then_the_showdown_and_its_payouts(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "o1", "--game", "FO/8", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100,Cy:100",
                "--button", "Ann", "--declare-options", "method=in_turn")[0] == 0
    deal = ["d dh Bob ????????", "d dh Cy ????????", "d dh Ann ????????"]
    assert _acts(user, "o1", deal) == [
        f"phase deal, next: d dh Cy CARDS {HOLE}; then Ann",
        f"phase deal, next: d dh Ann CARDS {HOLE}",
        "Ann to act: to call 2, raise to 4..4"]
    checks = ["Bob cc", "Cy cc", "Ann cc"]
    assert _acts(user, "o1", ["Ann cc", "Bob cc", "Cy cc"])[-1] == (
        "phase deal, next: d db CARDS (3 cards)")
    assert _acts(user, "o1", ["d db 2c3c4c", *checks])[-1] == (
        "phase deal, next: d db CARDS (1 card)")
    _acts(user, "o1", ["d db 5d", *checks, "d db 9h"])
    # Bob bets the river and is called: the last aggressor declares first, then clockwise
    assert _acts(user, "o1", ["Bob cbr 4", "Cy cc", "Ann cc", "Bob dcl low"]) == [
        "Cy to act: to call 4, raise to 8..8",
        "Ann to act: to call 4, raise to 8..8",
        "phase declare, Bob to act: Bob dcl high|low|swing or Bob f (give up)",
        "phase declare, Cy to act: Cy dcl high|low|swing or Cy f (give up)"]
    # a show before the others declared names them, in the order they declare
    code, out, err = user("act", "o1", "Bob sm ????????")
    assert (code, out, err) == (2, "", (
        "error: hand o1, action 'Bob sm ????????': cards are shown once every player has "
        "declared (still to declare: Cy, Ann); now: phase declare, Cy to act: Cy dcl "
        "high|low|swing or Cy f (give up)\n"))
    assert _acts(user, "o1", ["Cy dcl high", "Ann dcl swing"]) == [
        "phase declare, Ann to act: Ann dcl high|low|swing or Ann f (give up)",
        "phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER "
        "AMOUNT, end"]
    assert _acts(user, "o1", ["pay Bob 9", "pay Ann 9"]) == [
        "phase showdown, next: pay PLAYER AMOUNT or end"] * 2
    code, out, err = user("act", "o1", "Ann dcl high")
    assert (code, out) == (2, "")
    assert err == ("error: hand o1, action 'Ann dcl high': Ann has already declared swing (at "
                   "24): to change it, `handledger correct o1 --replace 24 'Ann dcl high' "
                   "--reason … --by …`; now: phase showdown, next: pay PLAYER AMOUNT or end\n")
    assert _acts(user, "o1", ["end"]) == ["hand complete"]
    assert user("act", "o1", "Bob f") == (2, "", "error: hand o1, action 'Bob f': the hand is "
                                          "complete: a change now is a correction (`handledger "
                                          "correct`)\n")


def test_declarations_at_once_name_who_is_still_to_declare(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "s1", "--game", "FO/8", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100",
                "--button", "Ann", "--declare-options", "method=simultaneous")[0] == 0
    streets = ["d dh Bob ????????", "d dh Ann ????????", "Ann cc", "Bob cc", "d db 2c3c4c",
               "Bob cc", "Ann cc", "d db 5d", "Bob cc", "Ann cc", "d db 9h", "Bob cc", "Ann cc"]
    assert _acts(user, "s1", streets)[-1] == (
        "phase declare, next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to "
        "declare: Bob, Ann)")
    code, out, err = user("act", "s1", "Ann sm ????????")  # the betting is over: who declares
    assert (code, out, err) == (2, "", (
        "error: hand s1, action 'Ann sm ????????': cards are shown once every player has "
        "declared (still to declare: Bob, Ann); now: phase declare, next: PLAYER dcl "
        "high|low|swing or PLAYER f (give up) (still to declare: Bob, Ann)\n"))
    assert _acts(user, "s1", ["Ann dcl low"]) == [
        "phase declare, next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to "
        "declare: Bob)"]
    code, out, err = user("act", "s1", "Ann sm ????????")
    assert (code, out, err) == (2, "", (
        "error: hand s1, action 'Ann sm ????????': cards are shown once every player has "
        "declared (still to declare: Bob); now: phase declare, next: PLAYER dcl "
        "high|low|swing or PLAYER f (give up) (still to declare: Bob)\n"))
    state = user("state", "s1")[1].splitlines()
    assert state[2:] == ["Main pot: 4 (Bob, Ann)", "declared: Ann low", "stacks: Bob 98, Ann 98",
                         "seats as pN: p1 Bob, p2 Ann (p1 sits left of the button: PHH's order, "
                         "not --seats')"]
    _acts(user, "s1", ["Bob dcl swing"])
    assert user("state", "s1")[1].splitlines()[3] == "declared: Ann low, Bob swing"


def test_a_show_before_the_declarations_of_a_bet_after_declare_hand(user, db: str) -> None:  # noqa: ANN001
    """With ``bet_after_declare`` the players declare before the last betting round (RULES.md
    §3.4): a show then waits for the declarations and that round."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "b1", "--game", "FO/8", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100", "--button",
                "Ann", "--declare-options", "method=simultaneous,bet_after_declare=true")[0] == 0
    streets = ["d dh Bob ????????", "d dh Ann ????????", "Ann cc", "Bob cc", "d db 2c3c4c",
               "Bob cc", "Ann cc", "d db 5d", "Bob cc", "Ann cc", "d db 9h", "Bob dcl high"]
    assert _acts(user, "b1", streets)[-1] == (
        "phase declare, next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to "
        "declare: Ann)")
    code, out, err = user("act", "b1", "Bob sm ????????")
    assert (code, out, err) == (2, "", (
        "error: hand b1, action 'Bob sm ????????': cards are shown once every player has "
        "declared and the betting round after the declarations is over (still to declare: "
        "Ann); now: phase declare, next: PLAYER dcl high|low|swing or PLAYER f (give up) (still "
        "to declare: Ann)\n"))


def test_stud_third_street_says_bring_in_and_complete(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.1: the low card brings it in or completes to a full small bet; until a
    player completes, raising the bring-in is completing it, then raises are full bets."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "s2", "--game", "F7S", "--antes", "1",
                "--bring-in", "1", "--small-bet", "2", "--big-bet", "4",
                "--seats", "Ann:100,Bob:100,Cy:100")[0] == 0
    assert _acts(user, "s2", ["d dh Ann ????As", "d dh Bob ????Kd", "d dh Cy ????2d", "Cy pb",
                              "Ann cbr 2", "Bob cc"]) == [
        "phase deal, next: d dh Bob CARDS (3 cards, ?? for each unseen card); then Cy",
        "phase deal, next: d dh Cy CARDS (3 cards, ?? for each unseen card)",
        "Cy to act: bring in 1 (pb), complete to 2..2",  # the deuce is the lowest up card
        "Ann to act: to call 1, complete to 2..2",
        "Bob to act: to call 2, raise to 4..4",
        "Cy to act: to call 1, raise to 4..4"]


def test_run_it_twice_names_the_run_each_board_card_goes_to(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.5: after ``d rc 2`` each board card goes to the first run still short,
    street by street: the turn of run 1, the turn of run 2, then the rivers."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "r1", "--game", "NT", "--stakes", "1/2",
                "--seats", "A:100,B:100", "--button", "A")[0] == 0
    lines = _acts(user, "r1", ["d dh B KsKd", "d dh A AsAd", "A cbr 100", "B cc",
                               "d db JhTc2s", "d rc 2", "d db 3c", "d db 4d", "d db Kh"])
    assert lines[3:] == [
        "phase deal, next: d db CARDS (3 cards)",
        "phase deal, next: d db CARDS (1 card)",
        "phase deal, next: d db CARDS (1 card, run 1)",
        "phase deal, next: d db CARDS (1 card, run 2)",
        "phase deal, next: d db CARDS (1 card, run 1)",
        "phase deal, next: d db CARDS (1 card, run 2)"]


def test_after_the_blinds_the_phase_is_named_the_deal(user, db: str) -> None:  # noqa: ANN001
    """The blinds are posted at ``hand start``: `state` and a bet typed before the cards name
    the phase the deal, what the hand waits for, never the engine's ``forced``."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "f1", "--game", "NT", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    assert user("state", "f1")[1].splitlines()[:2] == [
        "hand f1: NT, phase deal, status open",
        "phase deal, next: d dh Bob CARDS (2 cards, ?? for each unseen card); then Ann"]
    assert user("act", "f1", "Ann cc") == (
        2, "", "error: hand f1, action 'Ann cc': no betting now (deal phase); now: phase deal, "
        "next: d dh Bob CARDS (2 cards, ?? for each unseen card); then Ann\n")
    assert user("act", "f1", "end")[2] == (
        "error: hand f1, action 'end': the hand cannot end during the deal phase; now: phase "
        "deal, next: d dh Bob CARDS (2 cards, ?? for each unseen card); then Ann\n")


def test_run_it_twice_after_everyone_but_one_folded_is_refused(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.5: the board is run more than once only with a player all-in and two or
    more players in the pot. Cy alone is left: ``d rc 2`` is refused in one line, nothing
    written, and the hand is paid and ended as before (the blinds 1 + 2 are Cy's 3)."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100,Cy:100", "--button", "Ann")[0] == 0
    _acts(user, "h1", ["d dh Bob ????", "d dh Cy ????", "d dh Ann ????", "Ann f", "Bob f"])
    assert user("act", "h1", "d rc 2") == (
        2, "", "error: hand h1, action 'd rc 2': the board is run more than once only with "
        "two or more players in the pot (RULES.md §4.5), and Cy alone is left: the pot is his; "
        "now: phase no showdown, next: pay PLAYER AMOUNT, end\n")
    assert _acts(user, "h1", ["pay Cy 3", "end"]) == [
        "phase no showdown, next: pay PLAYER AMOUNT or end", "hand complete"]
    assert user("state", "h1")[1].splitlines()[-1] == (
        "stacks after the hand: Bob 99 (folded), Cy 101, Ann 100 (folded)")


def test_run_it_twice_with_nobody_all_in_is_refused(user, db: str) -> None:  # noqa: ANN001
    """Nobody all-in: the betting goes on street by street, nothing to run twice."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "r2", "--game", "NT", "--stakes", "1/2",
                "--seats", "A:100,B:100", "--button", "A")[0] == 0
    _acts(user, "r2", ["d dh B KsKd", "d dh A AsAd", "A cc", "B cc", "d db JhTc2s", "B cc",
                       "A cc"])
    assert user("act", "r2", "d rc 2") == (
        2, "", "error: hand r2, action 'd rc 2': the board can be run more than once only when "
        "betting is over with a player all-in (RULES.md §4.5); now: phase deal, next: d db CARDS "
        "(1 card)\n")


def test_the_number_of_runs_is_agreed_once(user, db: str) -> None:  # noqa: ANN001
    """After ``d rc 1`` (run once, agreed), a second ``d rc`` is refused: the board keeps
    one run."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "r3", "--game", "NT", "--stakes", "1/2",
                "--seats", "A:100,B:100", "--button", "A")[0] == 0
    _acts(user, "r3", ["d dh B KsKd", "d dh A AsAd", "A cbr 100", "B cc", "d rc 1"])
    assert user("act", "r3", "d rc 2") == (
        2, "", "error: hand r3, action 'd rc 2': the number of runs is already agreed; now: "
        "phase deal, next: d db CARDS (3 cards)\n")
    assert _acts(user, "r3", ["d db JhTc2s", "d db 3c", "d db 4d"])[-1] == (
        "phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER AMOUNT, end")


def test_a_hand_won_by_a_fold_waits_for_the_payout_not_a_show(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "w1", "--game", "NT", "--stakes", "1/2",
                "--seats", "A:100,B:100", "--button", "A")[0] == 0
    assert _acts(user, "w1", ["d dh B KsKd", "d dh A AsAd", "A f", "pay B 3"])[2:] == [
        "phase no showdown, next: pay PLAYER AMOUNT, end",
        "phase no showdown, next: pay PLAYER AMOUNT or end"]


def test_the_readme_hand_folded_to_cy_names_the_main_pot_in_state(user, db: str) -> None:  # noqa: ANN001
    """README's L1 (fixed-limit hold'em, blinds Bob 1 and Cy 2): Ann and Bob fold, nothing is
    shown down (``act`` and ``state``: ``no showdown``); ``state`` names the pot as ``show``
    does, the main pot, 2 once Cy's uncalled 1 is returned (Bob's 1 + Cy's called 1)."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "L1", "--game", "FT", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100,Cy:100",
                "--button", "Ann")[0] == 0
    _acts(user, "L1", ["d dh Bob 8c8d", "d dh Cy Th9h", "d dh Ann 2s2h"])
    assert user("state", "L1")[1].splitlines()[2:4] == ["current bet 2",
                                                         "Main pot: 3 (Bob, Cy, Ann)"]
    assert _acts(user, "L1", ["Ann f", "Bob f"]) == [
        "Bob to act: to call 1, raise to 4..4",
        "phase no showdown, next: pay PLAYER AMOUNT, end"]
    assert user("state", "L1")[1].splitlines()[:5] == [
        "hand L1: FT, phase no showdown, status open",
        "phase no showdown, next: pay PLAYER AMOUNT, end",
        "Main pot: 2 (Cy)", "returned: Cy 1", "stacks: Bob 99 (folded), Cy 99, Ann 100 (folded)"]
    assert _acts(user, "L1", ["end"]) == ["hand complete"]
    assert user("state", "L1")[1].splitlines()[0] == (
        "hand L1: FT, phase no showdown, status complete")


def test_a_hand_id_of_the_session_book_form_is_refused_as_such(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "session:fri", "--game", "NT", "--stakes", "1/2",
                "--seats", "A:100,B:100", "--button", "A") == (
        2, "", "error: hand 'session:fri': an id starting 'session:' names a session's book, "
        "not a hand: give another --hand, or none for a generated id\n")
    with Ledger(db, read_only=True) as ledger:
        assert list(ledger.stored()) == []


def test_a_show_waits_for_the_betting_to_be_over(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "d2", "--game", "N5D", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    _acts(user, "d2", ["d dh Bob QsQdJc9c3h", "d dh Ann ??????????", "Ann cc", "Bob cc"])
    # the draw: a hand shown now would change with the discard (RULES.md §4.2)
    code, out, err = user("act", "d2", "Bob sm QsQdJc9c3h")
    assert (code, out) == (2, "")
    assert err.startswith("error: hand d2, action 'Bob sm QsQdJc9c3h': cards are shown after "
                          "the draw: its discards change the hand; now: phase draw, Bob to act")
    # d2 voided: its players' chips are in one hand at a time (RULES.md §1.1)
    assert user("void", "d2", "--reason", "a new deal", "--by", "host")[0] == 0
    assert user("hand", "start", "--hand", "t2", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100,Cy:100", "--button", "Ann")[0] == 0
    _acts(user, "t2", ["d dh Bob ????", "d dh Cy ????", "d dh Ann AsAd", "Ann cc", "Bob cc",
                       "Cy cc", "d db 2c3d4h"])
    assert user("act", "t2", "Ann sm AsAd")[0] == 2  # the flop's betting is still to come
    # everyone all-in but one who called: the rest of the board is dealt, and he may show
    _acts(user, "t2", ["Bob cbr 98"])
    # Cy's 98 is all he has and raises nothing: recorded as the call it is, and said so
    assert user("act", "t2", "Cy cbr 98") == (
        0, "12 all_in; Ann to act: to call 98 (no raise: not enough chips to raise)\n",
        "note: Cy's raise to 98 is all Cy has and raises nothing: recorded as a call\n")
    _acts(user, "t2", ["Ann cc", "d db 9s"])
    assert user("act", "t2", "Ann sm AsAd")[0] == 0


def test_state_shows_the_payouts_so_far_and_a_voided_hand_takes_no_change(user,  # noqa: ANN001
                                                                          db: str) -> None:
    Ledger(db).close()
    assert user("hand", "start", "--hand", "p1", "--game", "NT", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    _acts(user, "p1", ["d dh Ann ????", "d dh Bob ????", "Ann cc", "Bob cc", "d db 2c3d4h",
                       "Bob cc", "Ann cc", "d db 5s", "Bob cc", "Ann cc", "d db 9s", "Bob cc",
                       "Ann cc", "pay Ann 3"])
    # a host halfway through paying sees what he has paid of the pot (2 + 2 blinds = 4)
    assert user("state", "p1")[1].splitlines()[2:] == [
        "Main pot: 1 of 4, the rest paid out (Bob, Ann)", "paid so far: Ann 3 (3 of the pot's 4)",
        "stacks: Bob 98, Ann 101",  # the 3 paid is in Ann's stack, out of the pot
        "seats as pN: p1 Bob, p2 Ann (p1 sits left of the button: PHH's order, "
        "not --seats')"]
    assert _acts(user, "p1", ["pay Bob 1"]) == ["phase showdown, next: pay PLAYER AMOUNT or end"]
    assert user("act", "p1", "end") == (  # 3 and 1 of 4: no legal split (4 to one, or 2 each)
        0, "19 hand_ended; hand complete\n", "warning: paid differently from the rules: hand "
        "p1: no legal split of the pots pays what the table paid (Ann 3, Bob 1) (recorded as "
        "the table paid it; `handledger correct` puts it right)\n")
    assert user("void", "p1", "--reason", "misdeal", "--by", " host") == (
        2, "", "error: --by name ' host' has leading or trailing whitespace: names are kept "
        "as typed, never repaired (write 'host')\n")
    assert user("void", "p1", "--reason", "misdeal", "--by", "-host") == (
        2, "", "error: --by name '-host' starts with '-': a command would read it as an option; "
        "give another name\n")
    assert user("void", "p1", "--reason", " ", "--by", "host") == (
        2, "", "error: --reason: a reason is needed (only whitespace given)\n")
    assert user("void", "p1", "--reason", "misdeal", "--by", "host")[0] == 0
    assert user("act", "p1", "Bob f") == (
        2, "", "error: hand p1, action 'Bob f': the hand is voided: it takes no action "
        "(`handledger undo` takes the void back)\n")
    # a correction under the void would change nothing in the books: refused, nothing written
    assert user("correct", "p1", "--delete", "3", "--reason", "x", "--by", "host") == (
        2, "", "error: hand p1: the hand is voided: a correction under a void changes nothing "
        "in the books; take the void back first (`handledger undo p1 --by …`); nothing written\n")
    # nor does a what-if under it print a table of zeros and exit 0: refused alike, a change
    # legal before the void (the pot paid 2 each, a legal split) and an illegal one (Ann's
    # last check deleted: the hand would end in the middle of the river's betting)
    for change in (("--replace", "17", "pay Ann 2", "--replace", "18", "pay Bob 2"),
                   ("--delete", "16")):
        assert user("whatif", "p1", *change) == (
            2, "", "error: hand p1: the hand is voided: a change under a void changes nothing "
            "in the books; take the void back first (`handledger undo p1 --by …`)\n")


def test_a_refused_first_deal_says_what_state_says(user, db: str) -> None:  # noqa: ANN001
    """A deal refused before any card is out (Zoë's As twice) leaves the hand as it stood:
    the refusal's `now:` is the line `state` prints (it said `phase deal`, the phase the
    refused deal would have opened), in `act` and in `table` alike; nothing written."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "z1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Zoë:100,Bob:100,Cy:100", "--button", "Cy")[0] == 0
    now = "phase deal, next: d dh Zoë CARDS (2 cards, ?? for each unseen card); then Bob, Cy"
    assert user("state", "z1")[1].splitlines()[1] == now
    for action in ("d dh Zoë AsAs", "d dh Zoë AsKsQs"):
        said = user("act", "z1", action)
        assert said[:2] == (2, "") and said[2].endswith(f"; now: {now}\n"), said
    assert user("act", "z1", "d dh Zoë AsAs")[2] == (
        f"error: hand z1, action 'd dh Zoë AsAs': card As is dealt twice: both in this deal "
        f"to Zoë; now: {now}\n")
    assert user("table", "z1", input="d dh Zoë AsAs\n")[2] == (
        f"error: line 1, hand z1, action 'd dh Zoë AsAs': card As is dealt twice: both in "
        f"this deal to Zoë; now: {now}\n")
    assert user("state", "z1")[1].splitlines()[1] == now
    # Bob dealt, then a deal to Cy refused: still Zoë, then Cy
    assert user("act", "z1", "d dh Bob 2c3c")[0] == 0
    assert user("act", "z1", "d dh Cy 2c4d")[2].endswith(
        "; now: phase deal, next: d dh Zoë CARDS (2 cards, ?? for each unseen card); then "
        "Cy\n")


def test_a_raise_below_the_minimum_that_covers_every_opponent_is_offered_and_noted(
        user, db: str) -> None:  # noqa: ANN001
    """RULES.md §1.7: A (small blind) raises to 60 with 100 in all, so B's minimum raise is to
    118 (60 + the 58 raise), but a raise to 100 covers A's whole stack (C folded): the hint
    offers it, and `act` says the note the hand keeps, as `show` says it, never silent."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "c1", "--game", "NT", "--stakes", "1/2", "--seats",
                "A:100,B:500,C:500", "--button", "C")[0] == 0
    assert _acts(user, "c1", ["d dh A AsAh", "d dh B KsKh", "d dh C QsQh", "C f",
                              "A cbr 60"])[-2:] == [
        "A to act: to call 1, raise to 4..100",
        "B to act: to call 58, raise to 118..500, or to 100 covering every opponent"]
    note = ("note: B's raise to 100 is below the minimum 118 but covers every opponent (each is "
            "all-in or covered by it): accepted: no chip changes hands otherwise (RULES.md §1.7)")
    assert user("act", "c1", "B cbr 100") == (
        0, "9 bet_raise; A to act: to call 40 (no raise: not enough chips to raise)\n",
        note + "\n")
    assert f"    {note}" in user("show", "c1")[1].splitlines()


def test_a_raise_below_the_minimum_covering_nobody_is_not_offered(user, db: str) -> None:  # noqa: ANN001
    """Where the covering total is no lower than the minimum raise (A raised to 10 with 100 in
    all: B's minimum is to 18), only the range is offered."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "n1", "--game", "NT", "--stakes", "1/2", "--seats",
                "A:100,B:500,C:500", "--button", "C")[0] == 0
    assert _acts(user, "n1", ["d dh A AsAh", "d dh B KsKh", "d dh C QsQh", "C f",
                              "A cbr 10"])[-1] == "B to act: to call 8, raise to 18..500"


def test_table_notes_a_raise_below_the_minimum_that_covers_every_opponent(user, db: str) -> None:  # noqa: ANN001
    """`table` says the note of a line as `act` says it (RULES.md §1.7), and refuses a raise
    that is below both the minimum and what covers every opponent."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "t1", "--game", "NT", "--stakes", "1/2", "--seats",
                "A:100,B:500,C:500", "--button", "C")[0] == 0
    code, out, err = user("table", "t1", input="d dh A AsAh\nd dh B KsKh\nd dh C QsQh\nC f\n"
                                               "A cbr 60\nB cbr 99\nB cbr 100\n")
    assert (code, out.splitlines()[-1]) == (
        2, "8 bet_raise; B to act: to call 58, raise to 118..500, or to 100 covering every "
           "opponent")
    assert err == ("error: line 6, hand t1, action 'B cbr 99': raise to 99 is below the minimum "
                   "118; now: B to act: to call 58, raise to 118..500, or to 100 covering every "
                   "opponent\n")
    code, out, err = user("table", "t1", input="B cbr 100\n")
    assert (code, out) == (
        0, "9 bet_raise; A to act: to call 40 (no raise: not enough chips to raise)\n")
    assert err == ("note: B's raise to 100 is below the minimum 118 but covers every opponent "
                   "(each is all-in or covered by it): accepted: no chip changes hands "
                   "otherwise (RULES.md §1.7)\n")


def test_a_card_dealt_twice_names_where_it_went_first(user, db: str) -> None:  # noqa: ANN001
    """A card already in play is refused, naming to whom it was dealt first."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "t2", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    assert _acts(user, "t2", ["d dh Bob AsKd", "d dh Ann QcQd", "Ann cc", "Bob cc",
                              "d db 2c3c4c"])[-1] == "Bob to act: check, bet to 2..98"
    assert user("act", "t2", "d db As") == (
        2, "", "error: hand t2, action 'd db As': card As is dealt twice: it was dealt first "
               "to Bob; now: Bob to act: check, bet to 2..98\n")
    # a board card again is refused live as the board's own rule says (the board holds it);
    # a file's is refused so: tests/test_engine_rules.py


def test_a_declaration_in_a_cards_speak_hand_says_how_to_make_it_a_declare_hand(  # noqa: ANN001
        user, db: str) -> None:
    """RULES.md §3: a hand started without declare options is cards speak (NT: high only); a
    `dcl` in it names the correction of its hand_started that makes it a declare hand, or the
    option for the next hand."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "c1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100", "--button", "Bob")[0] == 0
    _acts(user, "c1", ["d dh Ann As2h", "d dh Bob Ad5s", "Bob cc", "Ann cc", "d db 3c4d8h",
                       "Ann cc", "Bob cc", "d db Ts", "Ann cc", "Bob cc", "d db Kc", "Ann cc",
                       "Bob cc"])
    assert user("act", "c1", "Ann dcl low") == (2, "", (
        "error: hand c1, action 'Ann dcl low': this hand is high only (NT, started without "
        "declare options): nobody declares; to make it a declare hand, `handledger correct c1 "
        "--replace 1 JSON --reason … --by …`, "
        "JSON the \"event\" of `handledger export c1`'s first line (its hand_started) with "
        "options.declare set, e.g. \"declare\": {\"method\": \"simultaneous\"}; or start the "
        "next hand with `hand start --declare-options method=simultaneous` (RULES.md §3); now: "
        "phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER AMOUNT, "
        "end\n"))


def test_a_declaration_is_refused_in_the_words_of_the_hands_game(user, db: str) -> None:  # noqa: ANN001
    """A hand started without declare options is won as its game ranks hands: F7S high only,
    F7S/8 cards speak high-low, FR (razz) low only; a `dcl` says which, then how to make it a
    declare hand, as in NT."""
    Ledger(db).close()
    stud = ["--antes", "1", "--bring-in", "1", "--small-bet", "2", "--big-bet", "4", "--seats",
            "Ann:100,Bob:100"]
    for hand, game, words in (("s1", "F7S", "high only"), ("s2", "F7S/8", "cards speak high-low"),
                              ("s3", "FR", "low only")):
        assert user("hand", "start", "--hand", hand, "--game", game, *stud)[0] == 0
        code, out, err = user("act", hand, "Ann dcl low")
        assert (code, out) == (2, "")
        assert err.startswith(
            f"error: hand {hand}, action 'Ann dcl low': this hand is {words} ({game}, started "
            "without declare options): nobody declares; to make it a declare hand, `handledger "
            f"correct {hand} --replace 1 JSON"), err
        assert user("void", hand, "--reason", "a new deal", "--by", "host")[0] == 0


def test_state_at_the_showdown_says_what_the_rules_pay_once_the_cards_decide(  # noqa: ANN001
        user, db: str) -> None:
    """A declare hand (RULES.md §3): Al and Bo declare low, Cc high, 15 in the pot (5 each).
    Before the low hands are shown, `state` gives the pot alone (the cards do not decide it);
    once they are, what the rules pay in `show`'s words, for the host to type: High 8 to Cc
    (the lone high declarer, unseen), Low 7 split, the odd chip to Al: Al 4, Bo 3. The first
    payout typed, the line gives way to what is paid so far."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "d1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Al:100,Bo:100,Cc:100", "--button", "Cc", "--declare-options",
                "method=simultaneous")[0] == 0
    _acts(user, "d1", ["d dh Al ????", "d dh Bo ????", "d dh Cc ????", "Cc cbr 5", "Al cc",
                       "Bo cc", "d db 2c7h9s", "Al cc", "Bo cc", "Cc cc", "d db Jd", "Al cc",
                       "Bo cc", "Cc cc", "d db 3c", "Al cc", "Bo cc", "Cc cc", "Al dcl low",
                       "Bo dcl low", "Cc dcl high"])
    seats = ("seats as pN: p1 Al, p2 Bo, p3 Cc (p1 sits left of the button: PHH's order, not "
             "--seats')")
    head = ["hand d1: NT, phase showdown, status open",
            "phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER "
            "AMOUNT, end", "Main pot: 15 (Al, Bo, Cc)", "declared: Al low, Bo low, Cc high"]
    stacks = "stacks: Al 95, Bo 95, Cc 95"
    assert user("state", "d1")[1].splitlines() == [*head, stacks, seats]
    _acts(user, "d1", ["Al sm 4h5d", "Bo sm 4d5h"])
    explained = [
        "Main pot 15 (Al, Bo, Cc): declared Cc high, Al and Bo low.",
        "Main pot: Split high/low, the odd chip to the high half.",
        "Main pot: High 8: Cc wins 8 with cards not shown.",
        "Main pot: Low 7: Al and Bo tie with 7-5-4-3-2 low; Al 4, Bo 3; odd chip to Al (first "
        "left of the button)."]
    assert user("state", "d1")[1].splitlines() == [
        *head, *[f"by the rules: {line}" for line in explained], stacks, seats]
    assert user("show", "d1")[1].splitlines()[-4:] == [f"    {line}" for line in explained]
    assert _acts(user, "d1", ["pay Cc 8"]) == ["phase showdown, next: pay PLAYER AMOUNT or end"]
    assert user("state", "d1")[1].splitlines()[2:] == [
        "Main pot: 7 of 15, the rest paid out (Al, Bo, Cc)",
        "paid so far: Cc 8 (8 of the pot's 15)", "declared: Al low, Bo low, Cc high",
        "stacks: Al 95, Bo 95, Cc 103", seats]


def test_state_at_a_plain_showdown_says_who_the_rules_pay(user, db: str) -> None:  # noqa: ANN001
    """A hand with no declaring, NT: once the hands are shown, `state` says what `show` says
    the pot goes to (Ann's aces, the whole 6), as in a declare hand; a hi-lo hand by cards
    speak (FO/8, RULES.md §2) splits its 4 (the blinds, Bob's called): High 2 to Bob's four
    kings, Low 2 to Ann's 7-5-3-2-A."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "n1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100,Cy:100", "--button", "Cy")[0] == 0
    checks = ["Ann cc", "Bob cc", "Cy cc"]
    _acts(user, "n1", ["d dh Ann ????", "d dh Bob ????", "d dh Cy ????", "Cy cc", "Ann cc",
                       "Bob cc", "d db 2c7h9s", *checks, "d db Jd", *checks, "d db 3c",
                       *checks, "Ann sm AsAd", "Bob sm KhKd"])
    assert "by the rules" not in user("state", "n1")[1]  # Cy's hand not shown yet
    _acts(user, "n1", ["Cy sm QhQd"])
    assert user("state", "n1")[1].splitlines()[2:4] == [
        "Main pot: 6 (Ann, Bob, Cy)",
        "by the rules: Main pot 6 (Ann, Bob, Cy): Ann wins 6 with pair of aces, J-9-7 kickers."]
    assert user("act", "n1", "end")[0] == 0
    assert user("hand", "start", "--hand", "o1", "--game", "FO/8", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100",
                "--button", "Bob")[0] == 0
    checks = ["Ann cc", "Bob cc"]
    _acts(user, "o1", ["d dh Ann ????????", "d dh Bob ????????", "Bob cc", "Ann cc",
                       "d db 2c7h5s", *checks, "d db Kc", *checks, "d db Ks", *checks,
                       "Ann sm Ah3d4dQs", "Bob sm KhKd9d9c"])
    assert user("state", "o1")[1].splitlines()[2:] == [
        "Main pot: 4 (Ann, Bob)",
        "by the rules: Main pot 4 (Ann, Bob): Split high/low. High 2: Bob wins 2 with four of a "
        "kind, kings, 7 kicker. Low 2: Ann wins 2 with 7-5-3-2-A low.",
        "stacks: Ann 98, Bob 98",
        "seats as pN: p1 Ann, p2 Bob (p1 sits left of the button: PHH's order, not --seats')"]


def test_text_that_is_no_action_says_what_its_word_takes_and_the_words_now(  # noqa: ANN001
        user, db: str) -> None:
    """FORMATS.md §1: `Fa pb 3` gives the bring-in an amount it does not take: the refusal
    says so (`Fa pb`), then, as every refusal, what the hand waits for, with the words the
    betting round takes (stud's third street, RULES.md §4.1: Ann brings in or completes);
    an unknown word lists the action words; in hold'em the words are fold, call, raise.
    Nothing is written: the next action is seq 6."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "1", "--game", "F7S", "--antes", "1", "--bring-in",
                "1", "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Fa:100")[0] == 0
    _acts(user, "1", ["d dh Ann ????2c", "d dh Fa ????3c"])
    now = "now: Ann to act: bring in 1 (pb), complete to 2..2 (Ann pb or Ann cbr AMOUNT)"
    assert user("act", "1", "Fa pb 3") == (2, "", (
        "error: hand 1, action 'Fa pb 3': 'Fa pb 3' is not an action: pb takes no amount (the "
        f"bring-in is the hand's): Fa pb; {now}\n"))
    assert user("act", "1", "Ann xx") == (2, "", (
        "error: hand 1, action 'Ann xx': 'Ann xx' is not an action: after the player comes an "
        "action word: f, cc, cbr AMOUNT, pb, sd CARDS, sm CARDS or dcl high|low|swing; "
        f"{now}\n"))
    assert user("act", "1", "Ann cbr") == (2, "", (
        "error: hand 1, action 'Ann cbr': 'Ann cbr' is not an action: cbr takes one amount, the "
        f"total bet or raised to: Ann cbr AMOUNT; {now}\n"))
    assert user("act", "1", "Ann pb")[1] == "6 forced_bet; Fa to act: to call 1, complete to 2..2\n"
    assert user("hand", "start", "--hand", "2", "--game", "NT", "--stakes", "1/2", "--seats",
                "Bob:100,Cy:100", "--button", "Bob")[0] == 0
    _acts(user, "2", ["d dh Cy ????", "d dh Bob ????"])
    assert user("act", "2", "Bob cc 1") == (2, "", (
        "error: hand 2, action 'Bob cc 1': 'Bob cc 1' is not an action: cc takes no amount (a "
        "call is of what is owed): Bob cc; now: Bob to act: to call 1, raise to 4..100 (Bob f, "
        "Bob cc or Bob cbr AMOUNT)\n"))
