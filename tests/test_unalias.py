"""``player unalias``: an alias recorded by mistake is ended by an appended
``player_unaliased`` event, never rewritten, and every reader of aliases honours it from its
place on (standings, balances, settle, the audit, the derived tables, the book commands,
JSON lines); a name that is no alias is refused in one line. Also ``player alias`` of an
OTHER the ledger holds nowhere warns, a buy-in's retraction counts only the buy-ins before
each hand, and ``whatif`` resolves an alias recorded in another session.

``two_players``: s1 (0.25 USD chips): Ann, Bob buy in 100; hand a1, Bob folds his small
blind: Ann +1, Bob -1. s2: Anna, Cy buy in 100; hands b1 and b2, Anna folds her small blind
each time: Anna -2, Cy +2. Then ``player alias Ann Anna`` (s2's entry 4): Anna is not Ann.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import refused, rows, run

FOLD = ("d dh {b} ????", "d dh {o} ????", "{b} f", "returned {o} 1", "pay {o} 2", "end")
MERGED = ["player             s1         s2        total",
          "Cy                             2            2",
          "Ann                 1         -2           -1",
          "Bob                -1                      -1",
          "(sum)               0          0            0"]
APART = ["player             s1         s2        total",
         "Cy                             2            2",
         "Ann                 1                       1",
         "Bob                -1                      -1",
         "Anna                          -2           -2",
         "(sum)               0          0            0"]
UNALIAS = ("player", "unalias", "Anna", "--reason", "wrong alias", "--by", "host")


def _fold(db: Path, hand: str, session: str, button: str, other: str, stacks: str) -> None:
    """Hand ``hand``, heads-up: ``button`` folds his small blind, ``other`` wins 1."""
    seats = f"{button}:{stacks.split(',')[0]},{other}:{stacks.split(',')[1]}"
    assert run(db, "hand", "start", "--hand", hand, "--session", session, "--game", "NT",
               "--stakes", "1/2", "--button", button, "--seats", seats).exit_code == 0
    for action in FOLD:
        assert run(db, "act", hand, action.format(b=button, o=other)).exit_code == 0, action


def _lines(db: Path, *args: str) -> list[str]:
    result = run(db, *args)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.fixture(scope="module")
def two_players(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    db = tmp_path_factory.mktemp("unalias") / "t.duckdb"
    for session, players in (("s1", ("Ann", "Bob")), ("s2", ("Anna", "Cy"))):
        assert run(db, "session", "open", session, "--chip-value", "0.25", "--currency",
                   "USD").exit_code == 0
        for p in players:
            assert run(db, "buyin", session, p, "100").exit_code == 0
    _fold(db, "a1", "s1", "Bob", "Ann", "100,100")
    _fold(db, "b1", "s2", "Anna", "Cy", "100,100")
    _fold(db, "b2", "s2", "Anna", "Cy", "99,101")
    assert _lines(db, "standings") == APART
    alias = run(db, "player", "alias", "Ann", "Anna")
    assert (alias.exit_code, alias.stdout, alias.stderr) == (0, "Anna is Ann\n", "")
    return db


def test_unalias_ends_the_alias_everywhere_and_keeps_it_in_the_history(
        two_players: Path, tmp_path: Path) -> None:
    db = copy_ledger(two_players, tmp_path / "t.duckdb")
    # the alias merged them: Ann +1 in s1 and -2 in s2 (the derived tables saved so)
    assert _lines(db, "standings") == MERGED
    assert _lines(db, "settle", "--session", "s2") == [
        "Ann pays Cy 0.50 USD", "1 transfer(s) settle 2 player(s)"]
    assert refused(run(db, "pay", "s2", "Anna", "Ann", "1")) == (
        "error: pay s2: Anna and Ann are one player, Ann (Anna is an alias of Ann: `handledger "
        "player alias`): a payment needs two different players; nothing written")
    # the wrong-way retraction the user tried first is still refused, saying what ends it
    assert refused(run(db, "entry", "retract", "s2", "4", "--reason", "wrong alias", "--by",
                       "host")) == ("error: session s2 has no buy-in, cash-out or payment at "
                                    "seq 4 (its entries: 2 buy-in of Anna, 3 buy-in of Cy); "
                                    "entry 4 is an "
                                    "alias (Anna is Ann): `handledger player unalias Anna "
                                    "--reason … --by …` ends it")
    result = run(db, *UNALIAS)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "Anna is no longer Ann\n",
                                                                "")
    assert rows(db)[-2:] == [("session:s2", 4, "player_alias"),
                             ("session:s2", 5, "player_unaliased")]
    assert _lines(db, "standings") == APART  # Ann +1, Anna -2 again
    # the alias ended, its row is no entry and no alias: no hint
    assert refused(run(db, "entry", "retract", "s2", "4", "--reason", "r", "--by", "host")) == (
        "error: session s2 has no buy-in, cash-out or payment at seq 4 (its entries: 2 buy-in "
        "of Anna, 3 buy-in of Cy)")
    assert _lines(db, "balances", "--session", "s2") == [
        "player                  net       buy-in     cash-out  hands sessions",
        "Cy                        2          100            0      2        1",
        "Anna                     -2          100            0      2        1"]
    assert _lines(db, "settle", "--session", "s2") == [
        "Anna pays Cy 0.50 USD", "1 transfer(s) settle 2 player(s)"]
    assert run(db, "audit").exit_code == 0
    # the book commands' name matching: Ann is no player of s2 now
    assert refused(run(db, "pay", "s2", "Anna", "Ann", "1")) == (
        "error: Ann is not in the books of session s2 (no buy-in, cash-out or hand there; its "
        "players: Anna, Cy): did you mean Anna? a payment settles a session between its "
        "players (and 'rake' names the house, who keeps the rake; 'bank' the bank, who holds "
        "the buy-ins)")
    history = json.loads(run(db, "history", "--session", "s2", "--json").stdout)
    assert [(e["type"], e["event"]) for e in history["events"][-2:]] == [
        ("player_alias", {"player": "Ann", "alias": "Anna"}),
        ("player_unaliased", {"alias": "Anna", "reason": "wrong alias", "by": "host"})]
    # a later alias may make it one again: the latest statement wins
    again = run(db, "player", "alias", "Ann", "Anna")
    assert (again.exit_code, again.stdout) == (0, "Anna is Ann\n")
    assert _lines(db, "standings") == MERGED


def test_a_name_that_is_no_alias_is_refused_in_one_line(two_players: Path,
                                                         tmp_path: Path) -> None:
    db = copy_ledger(two_players, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "player", "unalias", "Ann", "--reason", "r", "--by", "host")) == (
        "error: Ann is no alias of another player (its aliases: Anna; `handledger player "
        "unalias Anna --reason … --by …` ends one); nothing recorded")
    assert refused(run(db, "player", "unalias", "Zed", "--reason", "r", "--by", "host")) == (
        "error: Zed is no alias of another player; nothing recorded")
    assert rows(db) == before
    assert run(db, *UNALIAS).exit_code == 0
    after = rows(db)
    assert refused(run(db, *UNALIAS)) == (
        "error: Anna is no alias of another player; nothing recorded")
    assert refused(run(db, "player", "unalias", "Anna", "--reason", " ", "--by", "host")) == (
        "error: --reason: a reason is needed (only whitespace given)")
    assert rows(db) == after


def test_json_lines_round_trip_the_end_of_an_alias_and_phh_says_it_leaves_it_out(
        two_players: Path, tmp_path: Path) -> None:
    db = copy_ledger(two_players, tmp_path / "t.duckdb")
    assert run(db, *UNALIAS).exit_code == 0
    out, phh = tmp_path / "all.jsonl", tmp_path / "all.phh"
    assert run(db, "export", "--format", "jsonl", "-o", str(out)).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[-1]) == {
        "session": "s2", "seq": 5, "event": {"alias": "Anna", "by": "host",
                                             "reason": "wrong alias", "schema_version": 1,
                                             "type": "player_unaliased"}}
    fresh = tmp_path / "fresh.duckdb"
    assert run(fresh, "import", str(out)).exit_code == 0
    assert _lines(fresh, "standings") == APART
    assert rows(fresh)[-1] == ("session:s2", 5, "player_unaliased")
    result = run(db, "export", "--format", "phh", "-o", str(phh))
    assert result.stderr == (
        "note: 2 session book(s) left out: PHH cannot carry a session's opening, buy-ins, "
        "cash-outs, payments or player names (an alias, an alias ended), so a ledger "
        "importing the file holds their hands alone (--format jsonl can): s1, s2\n")


def test_an_alias_of_a_name_the_ledger_holds_nowhere_warns(two_players: Path,
                                                           tmp_path: Path) -> None:
    """README: player alias: an OTHER no hand, entry or alias gave yet (a typo?) is recorded
    with a ``warning:`` line; a NAME the ledger holds nowhere, as before, with its own (two
    names it holds, ``player alias Ann Anna`` of the fixture, give none)."""
    db = copy_ledger(two_players, tmp_path / "t.duckdb")
    result = run(db, "player", "alias", "Bob", "李雷x")
    assert (result.exit_code, result.stdout) == (0, "李雷x is Bob\n")
    assert result.stderr.splitlines() == [
        "warning: 李雷x is no name in the ledger yet: a hand, book entry or import naming 李雷x "
        "counts as Bob's from now on (a typo is ended with `handledger player unalias 李雷x "
        "--reason … --by …`)"]
    result = run(db, "player", "alias", "Max", "Qi")
    assert (result.exit_code, result.stdout) == (0, "Qi is Max\n")
    assert result.stderr.splitlines() == [
        "warning: Max is no player in the ledger yet: Qi is named Max everywhere now "
        "(balances, standings, the audit)",
        "warning: Qi is no name in the ledger yet: a hand, book entry or import naming Qi "
        "counts as Max's from now on (a typo is ended with `handledger player unalias Qi "
        "--reason … --by …`)"]


def test_retracting_a_buy_in_a_hand_relied_on_is_refused_despite_a_later_rebuy(
        tmp_path: Path) -> None:
    """Only buy-ins recorded before a hand count for it: Bob's second buy-in came after x1."""
    db = tmp_path / "t.duckdb"
    assert run(db, "session", "open", "s").exit_code == 0
    for p in ("Ann", "Bob"):
        assert run(db, "buyin", "s", p, "100").exit_code == 0
    _fold(db, "x1", "s", "Ann", "Bob", "100,100")
    assert run(db, "buyin", "s", "Bob", "100").exit_code == 0
    before = rows(db)
    assert refused(run(db, "entry", "retract", "s", "3", "--reason", "r", "--by", "host")) == (
        "error: entry retract s 3 (buy-in of Bob, 100 chips): it is all Bob bought in session "
        "s before hand x1, which seats Bob: it would start Bob with chips nobody bought; "
        "nothing written (a wrong amount is amended: `handledger entry amend s 3 CHIPS "
        "--reason … --by …`; a hand seated by mistake is voided first)")
    assert rows(db) == before
    # the later buy-in (entry 4) is his own: its retraction leaves x1 bought
    assert run(db, "entry", "retract", "s", "4", "--reason", "r", "--by", "host"
               ).exit_code == 0
    assert run(db, "audit").exit_code == 0


def test_whatif_resolves_an_alias_recorded_in_another_session(tmp_path: Path) -> None:
    """Ann's buy-ins in s are Annie's, by an alias in t's stream: x2's expected start counts
    her rebuy of 50 after x1 (148 = 98 + 50 once x1 pays Bob), not 98 alone."""
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100"), ("session", "open", "t"),
                 ("player", "alias", "Ann", "Annie", "--session", "t"),
                 ("hand", "start", "--hand", "x1", "--session", "s", "--game", "NT",
                  "--stakes", "1/2", "--button", "Bob", "--seats", "Annie:100,Bob:100")):
        assert run(db, *args).exit_code == 0, args
    for action in ("d dh Bob ????", "d dh Annie ????", "Bob cc", "Annie cc", "d db AsKsQs",
                   "Annie cc", "Bob cc", "d db 2c", "Annie cc", "Bob cc", "d db 3d",
                   "Annie cc", "Bob cc", "pay Annie 4", "end"):
        assert run(db, "act", "x1", action).exit_code == 0, action
    assert run(db, "buyin", "s", "Ann", "50", "--kind", "rebuy").exit_code == 0
    _fold(db, "x2", "s", "Bob", "Annie", "98,152")
    assert run(db, "audit").exit_code == 0
    what = json.loads(run(db, "whatif", "x1", "--replace", "17", "pay Bob 4", "--json").stdout)
    assert [(d["hand"], d["player"], d["starting"], d["expected"], d["was"])
            for d in what["downstream"]] == [("x2", "Ann", 152, 148, 152),
                                             ("x2", "Bob", 98, 102, 98)]


def test_correcting_an_entry_written_under_an_alias_says_the_alias_may_be_the_mistake(
        tmp_path: Path) -> None:
    """s2's entry 2 is Anna's buy-in of 100, Anna an alias of Ann (s2's entry 4): its
    retraction or amendment goes in, with a ``note:`` that it counted as Ann's and what to do
    if the alias was the mistake; Cy's entry (no alias) and Anna's once the alias is ended
    get none."""
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "s1"), ("buyin", "s1", "Ann", "100"),
                 ("session", "open", "s2"), ("buyin", "s2", "Anna", "100"),
                 ("buyin", "s2", "Cy", "100"), ("player", "alias", "Ann", "Anna")):
        assert run(db, *args).exit_code == 0, args
    fresh = copy_ledger(db, tmp_path / "fresh.duckdb")
    note = ("note: entry 2 names Anna, an alias of Ann (`player alias`): it counted as Ann's; "
            "if the alias was the mistake, not the entry, {} and end the alias (`handledger "
            "player unalias Anna --reason … --by …`)\n")
    result = run(db, "entry", "amend", "s2", "2", "150", "--reason", "r", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "s2: entry 2 (buy-in of Anna) amended: 100 → 150 chips\n",
        note.format("amend it back"))
    result = run(db, "entry", "amend", "s2", "3", "150", "--reason", "r", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "s2: entry 3 (buy-in of Cy) amended: 100 → 150 chips\n", "")
    assert _lines(db, "balances", "--session", "s2")[1:] == [
        "Ann                       0          150            0      0        1",
        "Cy                        0          150            0      0        1"]
    result = run(fresh, "entry", "retract", "s2", "2", "--reason", "r", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "s2: entry 2 (buy-in of Anna) retracted\n", note.format("record the entry again"))
    assert run(db, *UNALIAS).exit_code == 0
    result = run(db, "entry", "amend", "s2", "2", "100", "--reason", "r", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "s2: entry 2 (buy-in of Anna) amended: 150 → 100 chips\n", "")
