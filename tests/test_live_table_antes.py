"""A live hand with one ante for the table, posted by the big blind or the button: dead money
in the main pot that does not count toward the poster's level (RULES.md §4.3), placed in PHH's
positional list as FORMATS.md §1 reads it (heads-up, the button's entry is the first)."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import one_shot as cli

THREE = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100,Cy:100",
         "--button", "Ann")


def test_a_big_blind_ante_is_the_big_blinds_and_dead(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    assert cli(db, "hand", "start", "--hand", "b1", "--bb-ante", "2", *THREE)[:2] == (0, "b1\n")
    state = cli(db, "state", "b1")[1].splitlines()
    assert state[2:] == ["Main pot: 5 (Bob, Cy, Ann)", "stacks: Bob 99 bet 1, Cy 96 bet 2, Ann 100",
                         "seats as pN: p1 Bob, p2 Cy, p3 Ann (p1 sits left of the button: "
                         "PHH's order, not --seats')"]
    for action in ("d dh Bob ????", "d dh Cy ????", "d dh Ann ????", "Ann cbr 100", "Bob f"):
        assert cli(db, "act", "b1", action)[0] == 0, action
    # Cy calls all in for 96 more: his live bet is 98, his ante 2 is dead, so Ann's last 2
    # are uncalled; the main pot is Bob's 1 + the ante 2 + 98 + 98 = 199
    for action in ("Cy cc", "d db 2c3d4h", "d db 9s", "d db Jc", "Ann sm AsAd",
                   "Cy sm KsKd", "returned Ann 2", "pay Ann 199"):
        assert cli(db, "act", "b1", action)[0] == 0, action
    assert cli(db, "act", "b1", "end")[0] == 0
    out = cli(db, "sql", "--csv", "SELECT player, net FROM results WHERE hand_id = 'b1' "
                                  "ORDER BY player")[1]
    assert out == "player,net\nAnn,101\nBob,-1\nCy,-100\n"
    assert cli(db, "audit")[0] == 0


def test_a_button_ante_heads_up_is_the_buttons(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    assert cli(db, "hand", "start", "--hand", "b2", "--game", "NT", "--stakes", "1/2",
               "--button-ante", "3", "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    # heads-up the button posts the small blind, and here the table's ante too
    assert cli(db, "state", "b2")[1].splitlines()[2:] == [
        "Main pot: 6 (Bob, Ann)", "stacks: Bob 98 bet 2, Ann 96 bet 1",
        "seats as pN: p1 Bob, p2 Ann (p1 sits left of the button: PHH's order, "
        "not --seats')"]
    events = cli(db, "sql", "--csv", "SELECT json_extract(payload, '$.stakes.antes') AS antes "
                                     "FROM events WHERE type = 'hand_started'")[1]
    assert events == "antes\n\"[3,0]\"\n"


def test_one_kind_of_ante_and_none_in_stud(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    code, out, err = cli(db, "hand", "start", "--antes", "1", "--bb-ante", "2", *THREE)
    assert (code, out) == (2, "")
    assert err == ("error: --antes and --bb-ante: give one kind of ante (each player's, or "
                   "one for the table by the big blind or the button)\n")
    code, _, err = cli(db, "hand", "start", "--game", "F7S", "--bring-in", "1", "--small-bet",
                       "2", "--big-bet", "4", "--button-ante", "3", "--seats", "Ann:9,Bob:9")
    assert code == 2 and err.startswith("error: --button-ante 3: a stud game has no blinds")
    code, _, err = cli(db, "hand", "start", "--game", "NT", "--min-bet", "2", "--bb-ante", "2",
                       "--seats", "Ann:9,Bob:9", "--button", "Ann")
    assert code == 2 and err.startswith("error: --bb-ante 2: the hand has no big blind")
    assert not db.exists()  # refused before any ledger file was made
