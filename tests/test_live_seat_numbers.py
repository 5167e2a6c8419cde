"""What a fresh host typed wrong at a live table: ``pN`` is the N-th seat in PHH's order (from
the button's left), not of ``--seats``, and ``state`` lists it; a repeated deal names the
player who has his cards; too many blinds name the option and the numbers; cards typed apart
are pointed at the notation (FORMATS.md §1: a card string has no spaces)."""

from __future__ import annotations

from ledger.store.store import Ledger

SEATS = ("--seats", "Ann:100,Bob:100,Dee:100", "--button", "Bob")


def test_state_lists_each_seat_as_pn_and_a_repeated_deal_names_the_player(user,  # noqa: ANN001
                                                                          db: str) -> None:
    """Button Bob: Dee (small blind 1) is p1, Ann (big blind 2) p2, Bob p3. ``d dh p1`` deals
    Dee; once all three are dealt (the bet phase), Dee dealt again is named as dealt."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "s1", "--game", "NT", "--stakes", "1/2", *SEATS
                ) == (0, "s1\n", "")
    assert user("state", "s1")[1].splitlines()[-2:] == [
        "stacks: Dee 99 bet 1, Ann 98 bet 2, Bob 100",
        "seats as pN: p1 Dee, p2 Ann, p3 Bob (p1 sits left of the button: PHH's order, not "
        "--seats')"]
    for line in ("d dh p1 ????", "d dh Ann ????", "d dh Bob ????"):
        assert user("act", "s1", line)[0] == 0
    assert user("act", "s1", "d dh Dee ????") == (
        2, "", "error: hand s1, action 'd dh Dee ????': Dee already has cards for this "
        "street; now: Bob to act: to call 2, raise to 4..100\n")


def test_a_stud_hands_pn_follow_the_seats_as_typed(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "t1", "--game", "F7S", "--antes", "1", "--bring-in",
                "1", "--small-bet", "2", "--big-bet", "4", "--seats",
                "Ann:100,Bob:100,Dee:100")[0] == 0
    assert user("state", "t1")[1].splitlines()[-1] == (
        "seats as pN: p1 Ann, p2 Bob, p3 Dee (--seats' order)")


def test_more_blinds_than_players_names_the_option(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "b1", "--game", "NT", "--stakes", "1/2/4",
                "--seats", "P:100,Q:100", "--button", "P") == (
        2, "", "error: --stakes '1/2/4' gives 3 blinds and straddles for 2 players: at most "
        "one each (small blind, big blind, then straddles)\n")


def test_cards_typed_apart_are_pointed_at_the_notation(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user("hand", "start", "--hand", "o1", "--game", "PO", "--stakes", "1/2",
                "--seats", "Bob:100,Q:100", "--button", "Bob")[0] == 0
    now = "now: phase deal, next: d dh Q CARDS (4 cards, ?? for each unseen card); then Bob"
    assert user("act", "o1", "d dh Bob Kd Ks 8c 8h") == (
        2, "", "error: hand o1, action 'd dh Bob Kd Ks 8c 8h': 'd dh Bob Kd Ks 8c 8h' is not a "
        f"dealer action: cards are written without spaces, d dh Bob KdKs8c8h; {now}\n")
    assert user("act", "o1", "d db 2c 3d 4h")[2] == (
        "error: hand o1, action 'd db 2c 3d 4h': 'd db 2c 3d 4h' is not a dealer action: "
        f"cards are written without spaces, d db 2c3d4h; {now}\n")
