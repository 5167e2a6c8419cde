"""Every player name of the ledger, which ``hand start`` without a session checks a new
player's name against (replay/live.py ``_check_new_seats``): read from the derived tables up
to their head (``derived_state``'s ``players``) and from the rows after it only, with the same
answer as a look at every row, whether the tables are at the head, behind it, or absent."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.store.store import Ledger
from ledger.store.streams import player_names

#: The look at every row (what player_names read before the derived tables kept the names).
EVERY_ROW = (
    "SELECT DISTINCT UNNEST(CAST(json_extract_string(payload, '$.seats[*].player')"
    " AS VARCHAR[])) FROM events WHERE type = 'hand_started'"
    " UNION SELECT DISTINCT unnest([payload->>'player', payload->>'payer',"
    " payload->>'payee', payload->>'alias']) FROM events WHERE hand_id IS NULL"
    " AND type IN ('buy_in', 'cash_out', 'payment', 'player_alias')")

#: A hand of a file (no session) seating Cy and Dee: Dee, first to act, folds.
PHH = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
       "starting_stacks = [100, 100]\nplayers = ['Cy', 'Dee']\n"
       "actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\n_hand_id = 'file-1'\n")


def _state(db: str) -> tuple[set[str], set[str], dict[str, str], int]:
    """``(player_names, every row's names, derived_state, the ledger's head)``."""
    with Ledger(db, read_only=True) as ledger:
        every = {r[0] for r in ledger.query(EVERY_ROW) if r[0] is not None}
        try:
            state = dict(ledger.query("SELECT key, value FROM derived_state"))
        except Exception:  # noqa: BLE001 (no derived tables)
            state = {}
        head = ledger.query("SELECT max(position) FROM events")[0][0]
        return player_names(ledger), every, state, head


def test_player_names_at_the_head_behind_it_and_without_derived_tables(
        run, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    phh = tmp_path / "file.phh"
    phh.write_text(PHH)
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
                 ("buyin", "fri", "Bob", "100"),
                 ("hand", "start", "--session", "fri", "--hand", "h1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"),
                 ("act", "h1", "d dh Bob ????"), ("act", "h1", "d dh Ann ????"),
                 ("act", "h1", "Ann f"), ("act", "h1", "end"), ("cashout", "fri", "Ann", "99"),
                 ("pay", "fri", "Ann", "Bob", "1"), ("import", str(phh)),
                 ("player", "alias", "Bob", "Robert"),
                 ("hand", "start", "--hand", "z1", "--game", "NT", "--stakes", "1/2",
                  "--seats", "Eve:100,Ann:100", "--button", "Eve")):
        out = run(*args)
        assert out.exit_code == 0, (args, out.output)
    first = {"Ann", "Bob", "Robert", "Cy", "Dee", "Eve"}

    # at the head: the names are those the derived tables keep
    assert run("replay").exit_code == 0
    names, every, state, head = _state(db)
    assert names == every == first
    assert (json.loads(state["players"]), int(state["head"])) == (sorted(first), head)

    # behind it: a hand of no session, a buy-in, an alias, recorded since (the tables put
    # back to the head before them, as a write that did not save them leaves them)
    before = head
    for args in (("hand", "start", "--hand", "z2", "--game", "NT", "--stakes", "1/2",
                  "--seats", "Fay:100,Gus:100", "--button", "Fay"),
                 ("buyin", "fri", "Hal", "50"), ("player", "alias", "Ivy", "Ivo")):
        assert run(*args).exit_code == 0, args
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("UPDATE derived_state SET value = ? WHERE key = 'players'",
                    [json.dumps(sorted(first))])
        con.execute("UPDATE derived_state SET value = ? WHERE key = 'head'", [str(before)])
        con.execute("UPDATE derived_state SET value = (SELECT hash FROM events WHERE"
                    " position = ?) WHERE key = 'head_hash'", [before])
    names, every, state, head = _state(db)
    assert int(state["head"]) < head and json.loads(state["players"]) == sorted(first)
    assert names == every == first | {"Fay", "Gus", "Hal", "Ivy", "Ivo"}

    # caught up again (a full rebuild: an alias and a hand of no session moved)
    assert run("replay").exit_code == 0
    names, every, state, head = _state(db)
    assert (json.loads(state["players"]), int(state["head"])) == (sorted(every), head)

    # the kept names are what is read up to the head (a name only they hold shows it) ...
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("UPDATE derived_state SET value = ? WHERE key = 'players'",
                    [json.dumps(sorted(every | {"Kept"}))])
    assert _state(db)[0] == every | {"Kept"}
    # ... and a catch-up by session (only fri moved: the one the buy-in's save makes) adds
    # the names of the rows after the head to them (a full rebuild would have lost Kept)
    assert run("buyin", "fri", "Jo", "10").exit_code == 0
    names, every, state, head = _state(db)
    assert "Jo" in every and names == every | {"Kept"}
    assert (json.loads(state["players"]), int(state["head"])) == (sorted(names), head)
    # ... unless the tables are not of these rows (their head's hash differs) ...
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("UPDATE derived_state SET value = 'f00d' WHERE key = 'head_hash'")
    assert _state(db)[0] == every
    # ... or absent: every row is read
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("DROP TABLE derived_state")
    names, again, state, _ = _state(db)
    assert state == {} and names == again == every
